import { describe, expect, it } from '@jest/globals';
import { candidate, gradleSource } from '../../test/support/builders.js';
import { assignRepetitions, repetitionTaskPath } from './read-repetitions.js';
import { planTasks } from './task-plan.js';

const ok = (suite: string, name: string, status: 'success' | 'failure' | 'skipped' = 'success') => ({ suite, name, status, durationMs: 3 });
const S = 'com.shop.CheckoutTest';

describe('planTasks', () => {
  it('plans one Test task per candidate (one fresh JVM per repetition), filtered by the XML name; candidates with no source are left out', () => {
    const planned = planTasks(
      [
        candidate('a'),
        candidate('m[0] [#2]', { testCaseId: 'dup', source: gradleSource(':app:test', 'm[0]', 2), repetitions: 5 }),
        candidate('b', { module: ':lib', testCaseId: 'b', source: gradleSource(':lib:test', 'b'), repetitions: 3 }),
        candidate('gone', { source: null }),
      ],
      '/tmp/r',
    );
    expect(planned.plan).toEqual({
      resultsDir: '/tmp/r',
      tasks: [
        { id: 't0', path: ':app:test', candidates: [{ suite: S, name: 'a', repetitions: 10 }] },
        { id: 't1', path: ':app:test', candidates: [{ suite: S, name: 'm[0]', repetitions: 5 }] },
        { id: 't2', path: ':lib:test', candidates: [{ suite: S, name: 'b', repetitions: 3 }] },
      ],
    });
    expect([...planned.owner]).toEqual([['t0', candidate('a').testCaseId], ['t1', 'dup'], ['t2', 'b']]);
  });
});

describe('assignRepetitions', () => {
  it('records every repetition of every candidate, by occurrence for repeated names', () => {
    const a = candidate('a', { repetitions: 2 });
    const first = candidate('m', { testCaseId: 'm1', source: gradleSource(':app:test', 'm'), repetitions: 2 });
    const second = candidate('m [#2]', { testCaseId: 'm2', source: gradleSource(':app:test', 'm', 2), repetitions: 2 });
    // Each candidate's own JVMs; a repeated name's JVMs run both invocations of the name.
    const reports = [
      { id: 't0', taskPath: ':app:test', repetition: 1, cases: [ok(S, 'a')], crashed: [] },
      { id: 't0', taskPath: ':app:test', repetition: 2, cases: [ok(S, 'a', 'failure')], crashed: [] },
      { id: 't1', taskPath: ':app:test', repetition: 1, cases: [ok(S, 'm'), ok(S, 'm', 'failure')], crashed: [] },
      { id: 't1', taskPath: ':app:test', repetition: 2, cases: [ok(S, 'm'), ok(S, 'm')], crashed: [] },
      { id: 't2', taskPath: ':app:test', repetition: 1, cases: [ok(S, 'm'), ok(S, 'm', 'failure')], crashed: [] },
      { id: 't2', taskPath: ':app:test', repetition: 2, cases: [ok(S, 'm'), ok(S, 'm')], crashed: [] },
    ];
    const r = assignRepetitions([a, first, second], reports, new Map([['t0', a.testCaseId], ['t1', 'm1'], ['t2', 'm2']]));
    expect(r.get(a.testCaseId)?.map((x) => x.status)).toEqual(['success', 'failure']);
    expect(r.get('m1')?.map((x) => x.status)).toEqual(['success', 'success']);
    expect(r.get('m2')?.map((x) => x.status)).toEqual(['failure', 'success']);
  });

  it('keeps what the plugin caught of a failure from the results log, by occurrence', () => {
    const a = candidate('a', { repetitions: 1 });
    const failure = { type: 'java.lang.AssertionError', message: 'expected 30 but was 27', trace: 'java.lang.AssertionError: expected 30 but was 27' };
    const reports = [{ id: 't0', taskPath: ':app:test', repetition: 1, cases: [ok(S, 'a', 'failure')], crashed: [], failures: new Map([[JSON.stringify([S, 'a']), [failure]]]) }];
    expect(assignRepetitions([a], reports, new Map([['t0', a.testCaseId]])).get(a.testCaseId)).toEqual([
      { repetition: 1, status: 'failure', durationMs: 3, failure: { kind: 'failure', ...failure, stdoutTail: null, stderrTail: null, exitCode: null, signal: null, hsErrFile: null } },
    ]);
  });

  it('leaves out repetitions that are missing, skipped, or another candidate\'s', () => {
    const a = candidate('a', { repetitions: 3 });
    const reports = [
      { id: 't0', taskPath: ':app:test', repetition: 1, cases: [ok(S, 'a')], crashed: [] },
      { id: 't0', taskPath: ':app:test', repetition: 2, cases: [ok(S, 'a', 'skipped')], crashed: [] },
      { id: 't0', taskPath: ':app:test', repetition: 3, cases: [], crashed: [] },
      { id: 't1', taskPath: ':app:integrationTest', repetition: 3, cases: [ok(S, 'a')], crashed: [] },
    ];
    expect(assignRepetitions([a], reports, new Map([['t0', a.testCaseId], ['t1', 'other']])).get(a.testCaseId)).toEqual([{ repetition: 1, status: 'success', durationMs: 3 }]);
  });

  it('counts a repetition whose JVM died while the candidate ran as a failure, and leaves out tests that never started', () => {
    const a = candidate('a', { repetitions: 2 });
    const b = candidate('b', { repetitions: 2 });
    const reports = [
      { id: 't0', taskPath: ':app:test', repetition: 1, cases: [ok(S, 'a')], crashed: [] },
      { id: 't0', taskPath: ':app:test', repetition: 2, cases: [], crashed: [{ suite: S, name: 'a' }] },
      { id: 't1', taskPath: ':app:test', repetition: 1, cases: [ok(S, 'b')], crashed: [] },
    ];
    const r = assignRepetitions([a, b], reports, new Map([['t0', a.testCaseId], ['t1', b.testCaseId]]));
    expect(r.get(a.testCaseId)).toEqual([
      { repetition: 1, status: 'success', durationMs: 3 },
      // Gradle says nothing of how its test JVM ended: a crash, with no exit code to show.
      { repetition: 2, status: 'failure', durationMs: 0, crashed: true, failure: expect.objectContaining({ kind: 'crash', exitCode: null, signal: null }) },
    ]);
    expect(r.get(b.testCaseId)).toEqual([{ repetition: 1, status: 'success', durationMs: 3 }]);
  });

  it('names repetition tasks as the plugin does', () => {
    expect(repetitionTaskPath(':app:test', 't0', 3)).toBe(':app:stressGateT0Rep3');
    expect(repetitionTaskPath(':test', 't1', 1)).toBe(':stressGateT1Rep1');
  });

  it('ignores repetitions beyond a candidate\'s own count', () => {
    const a = candidate('a', { repetitions: 1 });
    const reports = [1, 2].map((k) => ({ id: 't0', taskPath: ':app:test', repetition: k, cases: [ok(S, 'a')], crashed: [] }));
    expect(assignRepetitions([a], reports, new Map([['t0', a.testCaseId]])).get(a.testCaseId)).toHaveLength(1);
  });
});
