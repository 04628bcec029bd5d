// Awkward identities on the real plugin: each candidate must be selected by the stress pass's
// filter and found again in its XML, so that every one records all its repetitions.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { main, realDeps } from '../../src/cli.js';
import { cannedVerdict, startFakeVerdictServer, type FakeVerdictServer } from '../support/fake-verdict-server.js';
import { identitiesProject, writeTree } from '../support/fixture-project.js';

let server: FakeVerdictServer;
let dir: string;
let posted: { module: string; suite: string; name: string }[] = [];

beforeAll(async () => {
  dir = await writeTree(identitiesProject());
  // New: one Parameterized invocation, the non-ASCII one, the nested one, one inherited one and
  // the integrationTest copy of ATest.inherited (same name; its module is the task path). Three
  // repetitions each keeps the run short.
  const isNew = (p: { suite: string; name: string }) =>
    p.name.startsWith('adds[2: 2+3') || p.name === 'größe' || p.suite === 'com.id.Outer$Inner' || (p.suite === 'com.id.ATest');
  server = await startFakeVerdictServer((p) => {
    posted = p;
    const v = cannedVerdict(p, isNew);
    return { ...v, candidates: v.candidates.map((c) => ({ ...c, repetitions: 3 })) };
  });
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('identities on a real build', () => {
  it('stresses Parameterized, quoted, non-ASCII, nested, inherited and duplicated identities', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const env: NodeJS.ProcessEnv = { ...process.env, STRESS_GATE_TOKEN: 'secret' };
    delete env['GITHUB_STEP_SUMMARY'];
    const code = await main(
      ['gradle', '--offline', '-q', 'cleanTest', 'cleanIntegrationTest', 'test', 'integrationTest', '--stress-new-tests', 'enforce', '--server-url', server.url, '--project', 'ids'],
      { ...realDeps(env), cwd: dir, out: (t) => out.push(t), err: (t) => err.push(t) },
    );
    const report = JSON.parse(await readFile(path.join(dir, 'build/stress-gate/report.json'), 'utf8'));
    process.stderr.write(`${out.join('')}\n`);
    expect(posted.map((p) => `${p.suite}.${p.name}`).sort()).toEqual(
      [
        'com.id.ATest.inherited',
        'com.id.ATest.inherited',
        'com.id.BTest.inherited',
        'com.id.GrößeTest.größe',
        'com.id.Outer$Inner.inner',
        'com.id.SumTest.adds[0: 1+1 "two"]',
        'com.id.SumTest.adds[1: 2+2 "four"]',
        'com.id.SumTest.adds[2: 2+3 "five"]',
      ].sort(),
    );
    const lines = report.candidates.map((c: { suite: string; name: string; outcome: string; recorded: unknown[] }) => [`${c.suite}.${c.name}`, c.outcome, c.recorded.length]);
    expect(lines).toEqual([
      ['com.id.ATest.inherited', 'passed', 3],
      ['com.id.GrößeTest.größe', 'passed', 3],
      ['com.id.Outer$Inner.inner', 'passed', 3],
      ['com.id.SumTest.adds[2: 2+3 "five"]', 'passed', 3],
      // integrationTest's copy: its module is the task path, which sorts after the project's.
      ['com.id.ATest.inherited', 'passed', 3],
    ]);
    expect(code).toBe(0);
  }, 180_000);
});
