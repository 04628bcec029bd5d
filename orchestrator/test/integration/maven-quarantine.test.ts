// Quarantine under Maven through real parts: real Maven (examples/maven-multi, JUnit 5, Surefire
// 3.5) and the real verdict API (embedded chDB) on a loopback port, quarantined through the API
// with the account's admin credential. The same behaviour as quarantine-end-to-end.test.ts shows
// under Gradle: a muted flaky new test is stressed and shown as muted but cannot block, unmuted it
// blocks; a muted test failing in the first pass is masked; a skipped test is never stressed and
// its result never counts. Only the adapter differs: Maven excludes whole skipped methods with
// Surefire's excludesFile, and a skipped parameterised invocation runs and counts as skipped.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { gitlabCiEnv } from '../support/ci-env.js';
import { applyFeatureOverlay, mavenExample, MVN_ARGS, warmMaven } from '../support/maven-project.js';
import { startVerdictApi, useRepetitions, type VerdictApiProcess } from '../support/verdict-api-process.js';

const BIN = fileURLToPath(new URL('../../bin/stress-orchestrator.js', import.meta.url));
const APP = 'dev.stressgate.example.app';
const BROKEN = 'app/src/test/java/dev/stressgate/example/app/BrokenClockTest.java';
let api: VerdictApiProcess;
let dir: string;

beforeAll(async () => {
  await warmMaven();
  api = await startVerdictApi();
  // Four repetitions (the counter fails every third invocation: once in four) take 40% of the time of ten.
  await useRepetitions(api, 4);
  dir = await mavenExample();
  // Default-branch history, then the feature branch's new tests (examples/maven-feature-overlay).
  const history = await ciJob('main', 'report');
  if (history.code !== 0) throw new Error(`the default-branch run failed (${history.code}):\n${history.out}\n${history.err}`);
  await applyFeatureOverlay(dir);
}, 600_000);
afterAll(async () => {
  await api?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** One CI job: `stress-orchestrator mvn -o … clean test` as a process, configured by the environment. */
async function ciJob(branch: string, mode: string) {
  // One repetition JVM at a time: the example's flaky counter then fails on exact repetitions (in
  // parallel, the candidate that failed side by side runs again alone, a later stretch of the count).
  const env = { ...gitlabCiEnv(branch, mode, api), STRESS_GATE_PARALLEL_JVMS: '1' };
  const r = await execa(process.execPath, [BIN, 'mvn', ...MVN_ARGS, 'clean', 'test'], { cwd: dir, env, extendEnv: false, reject: false, stdin: 'ignore' });
  const report = JSON.parse(await readFile(path.join(dir, 'target/stress-gate/report.json'), 'utf8').catch(() => 'null'));
  return { code: r.exitCode, out: String(r.stdout).replace(/\n {3}/g, ' '), err: String(r.stderr), report };
}

/** An API call with the account's admin credential (quarantine writes need it). */
async function call(method: string, route: string, body?: unknown) {
  const res = await fetch(`${api.url}/api/v1/projects/${api.project}${route}`, {
    method,
    headers: { authorization: `Bearer ${api.admin}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json().catch(() => null)) as any };
}

const quarantine = (module: string, suite: string, name: string, state: 'muted' | 'skipped') =>
  call('POST', '/quarantine', { module, suite, name, state, owner: 'ana', reason: 'flaky on CI, see #12' });

async function runCases(runId: string): Promise<{ module: string; suite: string; name: string; status: string }[]> {
  const res = await fetch(`${api.url}/api/v1/projects/${api.project}/runs/${runId}`, { headers: { Authorization: `Bearer ${api.token}` } });
  return ((await res.json()) as { testCases: { module: string; suite: string; name: string; status: string }[] }).testCases;
}

describe('quarantine end to end on Maven: real Maven, real verdict API', () => {
  it('a muted flaky new test is stressed and shown as muted but does not block in enforce; unmuted, it blocks', async () => {
    const muted = await quarantine(':app', `${APP}.FlakyCounterTest`, 'failsEveryThirdInvocation', 'muted');
    expect(muted.status).toBe(201);
    const quiet = await ciJob('feature/greetings', 'enforce');
    expect(quiet.code).toBe(0);
    expect(quiet.out).toMatch(/:app FlakyCounterTest\.failsEveryThirdInvocation +4 repetitions, 1 failed \(muted: cannot fail the gate\)\n/);
    expect(quiet.out.replace(/\n {3}/g, ' ')).toContain(' ! FlakyCounterTest.failsEveryThirdInvocation failed 1 of 4 repetitions; it is muted, so it cannot fail the gate.');
    expect(quiet.report).toMatchObject({ mode: 'enforce', blocked: false, exitCode: 0 });
    const flaky = quiet.report.candidates.find((c: { name: string }) => c.name === 'failsEveryThirdInvocation');
    expect(flaky).toMatchObject({ muted: true, failures: 1 });
    expect(flaky.recorded).toHaveLength(4);

    expect((await call('DELETE', `/quarantine/${muted.json.testCaseId}`, { reason: 'fixed' })).status).toBe(200);
    const loud = await ciJob('feature/greetings', 'enforce');
    expect(loud.code).toBe(1);
    expect(loud.out.replace(/\n {3}/g, ' ')).toContain(' ! FlakyCounterTest.failsEveryThirdInvocation failed 1 of 4 repetitions and blocked this merge request.');
    expect(loud.report).toMatchObject({ blocked: true, exitCode: 1 });
  }, 600_000);

  it('a muted test that fails in the first pass is masked: Maven\'s failure becomes exit 0 and the gate goes on; unmuted, the build\'s failure stands', async () => {
    await writeFile(path.join(dir, BROKEN), `package dev.stressgate.example.app;
import static org.junit.jupiter.api.Assertions.fail;
import org.junit.jupiter.api.Test;
class BrokenClockTest {
    @Test void alwaysLate() { fail("always late"); }
}
`);
    try {
      const muted = await quarantine(':app', `${APP}.BrokenClockTest`, 'alwaysLate', 'muted');
      expect(muted.status).toBe(201);
      const masked = await ciJob('feature/greetings', 'report');
      expect(masked.code).toBe(0);
      expect(masked.report.firstPass).toMatchObject({ passed: true, failures: 0, maskedFailures: 1, exitCode: 0 });
      // The gate went on past Maven's failed build: the new tests were stressed, the muted one too
      // (as under Gradle: a muted candidate is stressed and recorded but cannot fail the gate).
      expect(masked.report.candidates.map((c: { name: string }) => c.name)).toContain('failsEveryThirdInvocation');
      expect(masked.report.candidates.find((c: { name: string }) => c.name === 'alwaysLate')).toMatchObject({ muted: true, failures: 4 });
      expect(masked.out).toMatch(/:app BrokenClockTest\.alwaysLate +4 repetitions, 4 failed \(muted: cannot fail the gate\)\n/);
      expect((await runCases(masked.report.runId)).find((t) => t.name === 'alwaysLate')).toMatchObject({ status: 'failure', muted: true });

      expect((await call('DELETE', `/quarantine/${muted.json.testCaseId}`, { reason: 'unmute' })).status).toBe(200);
      const red = await ciJob('feature/greetings', 'report');
      expect(red.code).toBe(1);
      // Unmuted, the build failed only on a new test: the gate stresses it and calls it broken; the
      // build's exit code stands (an old test failing would skip, as first-pass-failed-maven tests).
      expect(red.out).toContain('BrokenClockTest.alwaysLate is broken: it failed in the build and every one of 4 repetitions, each in a fresh JVM');
      expect(red.report.candidates.find((c: { name: string }) => c.name === 'alwaysLate')).toMatchObject({ failedInBuild: 'broken' });
    } finally {
      await rm(path.join(dir, BROKEN), { force: true });
    }
  }, 600_000);

  it('a skipped test is never stressed and its result never counts: whole methods are kept out of the build, one invocation runs and counts as skipped', async () => {
    const skip = [
      [':core', 'dev.stressgate.example.core.CalculatorTest', 'multiplies'],
      [':app', `${APP}.GreetingRulesTest$Casual`, 'greetsBlankAsStranger'],
      [':app', `${APP}.AdditionTest`, 'adds(int, int, int)[3]'],
    ] as const;
    for (const [m, s, n] of skip) expect((await quarantine(m, s, n, 'skipped')).status).toBe(201);
    const r = await ciJob('feature/greetings', 'report');
    expect(r.code).toBe(0);
    expect(r.report.candidates.map((c: { name: string }) => c.name).sort()).toEqual(['failsEveryThirdInvocation', 'greetsEach()[3]', 'greetsTheSameEachTime()[3]', 'rendersLargeReport']);
    for (const [, , n] of skip) expect(r.out).not.toContain(n);
    const cases = await runCases(r.report.runId);
    // Kept out of the build by Surefire's excludesFile: they did not run at all.
    expect(cases.filter((t) => t.name === 'multiplies' || t.name === 'greetsBlankAsStranger')).toEqual([]);
    expect(await readFile(path.join(dir, 'core/target/surefire-reports/TEST-dev.stressgate.example.core.CalculatorTest.xml'), 'utf8')).not.toContain('multiplies');
    expect(cases.find((t) => t.name === 'subtracts')?.status).toBe('success');
    // One invocation of a parameterised method cannot be excluded by pattern: it ran, and counts as skipped.
    expect(cases.find((t) => t.name === 'adds(int, int, int)[3]')?.status).toBe('skipped');
    expect(cases.find((t) => t.name === 'adds(int, int, int)[2]')?.status).toBe('success');
  }, 600_000);
});
