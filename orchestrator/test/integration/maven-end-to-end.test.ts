// The gate on a real Maven reactor (examples/maven-multi: two modules, JUnit 5, Surefire 3.5) with
// the real verdict API: history from a CI run on main, then the feature overlay, which adds a new
// plain test, a new parameterised invocation, a new @RepeatedTest repetition, a new dynamic test,
// a new @Nested test, a slow test and a test that is flaky across processes only.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { gitlabCiEnv } from '../support/ci-env.js';
import { applyFeatureOverlay, mavenExample, MVN_ARGS, warmMaven } from '../support/maven-project.js';
import { startVerdictApi, useRepetitions, type VerdictApiProcess } from '../support/verdict-api-process.js';

const BIN = fileURLToPath(new URL('../../bin/stress-orchestrator.js', import.meta.url));
let api: VerdictApiProcess;
let dir: string;
let tmp: string;

beforeAll(async () => {
  await warmMaven();
  api = await startVerdictApi();
  // Four repetitions (the counter fails every third invocation: once in four) take 40% of the time of ten.
  await useRepetitions(api, 4);
  dir = await mavenExample();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'stress-gate-maven-tmp-'));
}, 600_000);
afterAll(async () => {
  await api?.stop();
  await rm(dir, { recursive: true, force: true });
  await rm(tmp, { recursive: true, force: true });
});

/** One CI job on `branch`: `stress-orchestrator mvn -o … clean test` as a process, configured by the environment. */
async function ciJob(branch: string, mode: string, extraEnv: Record<string, string> = {}, serverUrl = api.url) {
  // A child process, so that its temp folder (TMPDIR) is this test's to look into.
  // One repetition JVM at a time: the example's flaky counter then fails on exact repetitions (in
  // parallel, the candidate that failed side by side runs again alone, a later stretch of the count).
  // A CI job's secret in the environment every Surefire fork inherits: no report may carry it.
  const env = { ...gitlabCiEnv(branch, mode, { ...api, url: serverUrl }), TMPDIR: tmp, STRESS_GATE_PARALLEL_JVMS: '1', DEPLOY_PASSWORD: CANARY, ...extraEnv };
  const r = await execa(process.execPath, [BIN, 'mvn', ...MVN_ARGS, 'clean', 'test'], { cwd: dir, env, extendEnv: false, reject: false, stdin: 'ignore' });
  const text = await readFile(path.join(dir, 'target/stress-gate/report.json'), 'utf8');
  return { code: r.exitCode, out: String(r.stdout), err: String(r.stderr), report: JSON.parse(text), text };
}

const CANARY = 'canary-d3pl0y-p4ss';

const NEW = [
  [':app', 'dev.stressgate.example.app.AdditionTest', 'adds(int, int, int)[3]'],
  [':app', 'dev.stressgate.example.app.DynamicGreetingsTest', 'greetsEach()[3]'],
  [':app', 'dev.stressgate.example.app.FlakyCounterTest', 'failsEveryThirdInvocation'],
  [':app', 'dev.stressgate.example.app.GreetingRulesTest$Casual', 'greetsBlankAsStranger'],
  [':app', 'dev.stressgate.example.app.RepeatedGreetingTest', 'greetsTheSameEachTime()[3]'],
  [':app', 'dev.stressgate.example.app.SlowReportTest', 'rendersLargeReport'],
  [':core', 'dev.stressgate.example.core.CalculatorTest', 'multiplies'],
];

describe('the gate end to end on Maven: real Maven, real verdict API', () => {
  it('uploads default-branch history with per-invocation identities and prints nothing when nothing is new', async () => {
    const r = await ciJob('main', 'report');
    expect(r.code).toBe(0);
    expect(r.out).not.toContain('Stress-testing');
    expect(r.report).toMatchObject({ outcome: 'no_candidates', exitCode: 0, firstPass: { testCases: 13 } });
    const res = await fetch(`${api.url}/api/v1/projects/${api.project}/runs/${r.report.runId}`, { headers: { Authorization: `Bearer ${api.token}` } });
    const run = (await res.json()) as { testCases: { module: string; suite: string; name: string }[] };
    const names = run.testCases.map((t) => `${t.module} ${t.suite.replace('dev.stressgate.example.', '')} ${t.name}`).sort();
    expect(names).toEqual([
      ':app app.AdditionTest adds(int, int, int)[1]',
      ':app app.AdditionTest adds(int, int, int)[2]',
      ':app app.DynamicGreetingsTest greetsEach()[1]',
      ':app app.DynamicGreetingsTest greetsEach()[2]',
      ':app app.GreeterTest greetsWorld',
      ':app app.GreeterTest runsWithTheForkConfiguration',
      ':app app.GreetingRulesTest$Formal greetsWithFullName',
      ':app app.RepeatedGreetingTest greetsTheSameEachTime()[1]',
      ':app app.RepeatedGreetingTest greetsTheSameEachTime()[2]',
      ':core core.CalculatorTest adds',
      ':core core.CalculatorTest subtracts',
      // The class's @DisplayName (quotes, emoji) is what Surefire's XML calls the class; the
      // listener's class name is the identity. Non-ASCII method names stay as they are.
      ':core core.TextTest größe',
      ':core core.TextTest shouts',
    ]);
  }, 600_000);

  it('stresses exactly the new invocations, each in fresh JVMs set up like the Surefire fork, and reports the cross-process flake (report: exit 0)', async () => {
    await applyFeatureOverlay(dir);
    const r = await ciJob('feature/greetings', 'report', { STRESS_GATE_KEEP_TEMP: '1' });
    expect(r.code).toBe(0);
    expect(r.out).toContain('  7 new test cases, 7 stressed, 0 excluded\n');
    expect(r.out).toContain(':app FlakyCounterTest.failsEveryThirdInvocation        4 repetitions, 1 failed\n');
    expect(r.out).not.toContain('GreeterTest');
    expect(r.report.candidates.map((c: { module: string; suite: string; name: string }) => [c.module, c.suite, c.name])).toEqual(NEW);
    for (const c of r.report.candidates) {
      if (c.name === 'failsEveryThirdInvocation') {
        expect(c.recorded.map((x: { status: string }) => x.status[0]).join('')).toBe('sfss');
      } else {
        expect(c).toMatchObject({ outcome: 'passed', failures: 0 });
        expect(c.recorded).toHaveLength(4);
      }
    }
    expect(r.out.replace(/\n {3}/g, ' ')).toContain('FlakyCounterTest.failsEveryThirdInvocation failed 1 of 4 repetitions and would have blocked this merge request. Pass --stress-new-tests enforce to make it blocking.');
    // Where each candidate ran, as the report says it: the fork's log and the selection, never the
    // fork's configuration (its environment holds the job's secret).
    expect(r.report.candidates[0].source.locator).toEqual({ occurrence: 1, runner: 'platform', forkLog: expect.stringMatching(/\.jsonl$/), uniqueId: expect.stringContaining('[engine:junit-jupiter]') });
    expect(r.text).not.toContain(CANARY);
    // Each repetition JVM ran exactly one candidate's unique ID: never [1] or [2] of an old method,
    // never another candidate (the repetitions' files are kept under target/stress-gate).
    const repetitions = path.join(dir, 'target', 'stress-gate', 'repetitions');
    const ran = new Set<string>();
    for (const candidate of await readdir(repetitions)) {
      for (const rep of await readdir(path.join(repetitions, candidate))) {
        const lines = (await readFile(path.join(repetitions, candidate, rep, 'results.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { event: string; legacyName: string });
        // The runner's description of its JVM (in a candidate's first JVM only), the one test it ran, then where its time went.
        expect(lines.map((l) => l.event)).toEqual([...(rep === 'rep-1' ? ['jvm'] : []), 'started', 'finished', 'phases']);
        ran.add(lines.find((l) => l.event === 'started')!.legacyName);
      }
    }
    expect([...ran].sort()).toEqual(['adds(int, int, int)[3]', 'failsEveryThirdInvocation()', 'greetsBlankAsStranger()', 'greetsEach()[3]', 'greetsTheSameEachTime()[3]', 'multiplies()', 'rendersLargeReport()']);
    const res = await fetch(`${api.url}/api/v1/projects/${api.project}/runs/${r.report.runId}`, { headers: { Authorization: `Bearer ${api.token}` } });
    const uploaded = await res.text();
    expect(uploaded).not.toContain(CANARY);
    const run = JSON.parse(uploaded) as { gate: unknown; flaky: unknown };
    expect(run.gate).toMatchObject({ mode: 'report', outcome: 'failed', candidatesExamined: 7, stressed: 7, blocked: false, wouldHaveBlocked: true });
    expect(run.flaky).toEqual([{ module: ':app', suite: 'dev.stressgate.example.app.FlakyCounterTest', name: 'failsEveryThirdInvocation', caughtBy: 'stress_gate', failed: 1, repetitions: 4 }]);
  }, 600_000);

  it('blocks in enforce mode with the exit code of a failed test run', async () => {
    const r = await ciJob('feature/greetings', 'enforce');
    expect(r.code).toBe(1);
    expect(r.out.replace(/\n {3}/g, ' ')).toContain(' ! FlakyCounterTest.failsEveryThirdInvocation failed 1 of 4 repetitions and blocked this merge request.');
    expect(r.report).toMatchObject({ mode: 'enforce', outcome: 'failed', blocked: true, exitCode: 1 });
    // Jupiter's assertion frames come first in the trace: the test's own line is shown all the same.
    const source = await readFile(path.join(dir, 'app/src/test/java/dev/stressgate/example/app/FlakyCounterTest.java'), 'utf8');
    const line = source.split('\n').findIndex((l) => l.includes('assertNotEquals(')) + 1;
    expect(r.out).toContain('     org.opentest4j.AssertionFailedError: invocation ');
    expect(r.out).toMatch(new RegExp(`\\n {9}… \\d+ frames\\n {9}at dev\\.stressgate\\.example\\.app\\.FlakyCounterTest\\.failsEveryThirdInvocation\\(FlakyCounterTest\\.java:${line}\\)\\n`));
  }, 600_000);

  it('lets the first pass result stand when the verdict API is unreachable', async () => {
    const r = await ciJob('feature/greetings', 'enforce', {}, 'http://127.0.0.1:9');
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/warning/i);
    expect(r.out).not.toContain('passed');
  }, 600_000);
});
