import { describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readJUnitXmlFile } from './junit-xml.js';
import { groupExecutions, organicRepetitions } from './organic-retries.js';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/junit-xml');

async function read(name: string) {
  const r = await readJUnitXmlFile(path.join(fixtures, name));
  if (!r.ok) throw new Error(r.error);
  return r.cases;
}

describe('organic retries', () => {
  it("reads test-retry's discrete report as one case per test, with its executions", async () => {
    expect(await read('gradle-test-retry-discrete.xml')).toEqual([
      {
        suite: 'com.shop.CartTest',
        name: 'flakyThenPasses',
        status: 'success',
        durationMs: 100,
        executions: [
          { status: 'failure', durationMs: 120 },
          { status: 'success', durationMs: 100 },
        ],
      },
      { suite: 'com.shop.CartTest', name: 'stable', status: 'success', durationMs: 10 },
      {
        suite: 'com.shop.CartTest',
        name: 'alwaysFails',
        status: 'failure',
        durationMs: 200,
        executions: [
          { status: 'failure', durationMs: 200 },
          { status: 'failure', durationMs: 300 },
        ],
      },
    ]);
  });

  it("reads Gradle's mergeReruns report the same way", async () => {
    const cases = await read('gradle-merge-reruns.xml');
    expect(cases.map((c) => [c.name, c.status, c.executions?.map((e) => e.status)])).toEqual([
      ['flakyThenPasses', 'success', ['failure', 'success']],
      ['stable', 'success', undefined],
      ['alwaysFails', 'failure', ['failure', 'failure']],
    ]);
  });

  it("reads Surefire's rerunFailingTestsCount elements: flaky passes, failed on all fails", async () => {
    const cases = await read('surefire-rerun-failing-tests.xml');
    expect(cases).toEqual([
      {
        suite: 'com.shop.PaymentTest',
        name: 'passesOnSecondTry',
        status: 'success',
        durationMs: 50,
        executions: [
          { status: 'failure', durationMs: 50 },
          { status: 'success', durationMs: 50 },
        ],
      },
      {
        suite: 'com.shop.PaymentTest',
        name: 'passesOnThirdTry',
        status: 'success',
        durationMs: 70,
        executions: [
          { status: 'failure', durationMs: 70 },
          { status: 'failure', durationMs: 70 },
          { status: 'success', durationMs: 70 },
        ],
      },
      {
        suite: 'com.shop.PaymentTest',
        name: 'failsEveryTime',
        status: 'failure',
        durationMs: 300,
        executions: [
          { status: 'failure', durationMs: 300 },
          { status: 'failure', durationMs: 300 },
          { status: 'failure', durationMs: 300 },
        ],
      },
      { suite: 'com.shop.PaymentTest', name: 'stable', status: 'success', durationMs: 10 },
    ]);
  });

  it('keeps a repeated name that is not a retry (nothing failed before it) as separate cases', async () => {
    const cases = await read('junit4-parameterized-repeated-names.xml');
    expect(cases.map((c) => [c.name, c.executions])).toEqual([
      ['rounds[0]', undefined],
      ['rounds[0]', undefined],
      ['rounds[0]', undefined],
    ]);
  });

  it("follows Gradle's grouping: a passing execution closes the group, a later failure opens a new one", () => {
    const raw = (name: string, failed: boolean, ms = 1) => ({ suite: 'S', name, durationMs: ms, results: failed ? [{ kind: 'failure' as const, durationMs: null }] : [] });
    const cases = groupExecutions([raw('a', false), raw('a', true), raw('b', false), raw('a', false), raw('a', true), raw('a', true)]);
    expect(cases.map((c) => [c.name, c.status, c.executions?.length ?? 1])).toEqual([
      ['a', 'success', 1],
      ['a', 'success', 2],
      ['b', 'success', 1],
      ['a', 'failure', 2],
    ]);
  });

  it('a skipped retry of a failed test is a failure; a rerun element with its own time keeps it', () => {
    const cases = groupExecutions([
      { suite: 'S', name: 'x', durationMs: 5, results: [{ kind: 'failure', durationMs: null }] },
      { suite: 'S', name: 'x', durationMs: 0, results: [{ kind: 'skipped', durationMs: null }] },
      { suite: 'S', name: 'y', durationMs: 9, results: [{ kind: 'flakyFailure', durationMs: 4 }] },
    ]);
    expect(cases).toEqual([
      { suite: 'S', name: 'x', status: 'failure', durationMs: 5, executions: [{ status: 'failure', durationMs: 5 }, { status: 'skipped', durationMs: 0 }] },
      { suite: 'S', name: 'y', status: 'success', durationMs: 9, executions: [{ status: 'failure', durationMs: 4 }, { status: 'success', durationMs: 9 }] },
    ]);
  });

  it('turns executions into the upload\'s organic repetitions, numbered, skipped ones dropped', () => {
    expect(
      organicRepetitions([
        { status: 'failure', durationMs: 5 },
        { status: 'skipped', durationMs: 0 },
        { status: 'success', durationMs: 4 },
      ]),
    ).toEqual([
      { repetition: 1, status: 'failure', durationMs: 5 },
      { repetition: 2, status: 'success', durationMs: 4 },
    ]);
  });

  it('keeps the first 100 executions of a test retried without end (the API refuses more)', () => {
    const executions = Array.from({ length: 500 }, (_, i) => ({ status: i % 2 === 0 ? ('failure' as const) : ('success' as const), durationMs: 1 }));
    const repetitions = organicRepetitions(executions);
    expect(repetitions).toHaveLength(100);
    expect(repetitions.at(-1)).toEqual({ repetition: 100, status: 'success', durationMs: 1 });
  });
});
