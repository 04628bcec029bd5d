// The real plugin on a real Gradle build (Debian's 4.4.1, offline) with a fake verdict API.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { main, realDeps, version } from '../../src/cli.js';
import { cannedVerdict, startFakeVerdictServer, type FakeVerdictServer } from '../support/fake-verdict-server.js';
import { checkoutProject, writeTree } from '../support/fixture-project.js';
import { protocolRank } from '../support/gate-harness.js';
import { DEFAULT_STRESS_PARAMETERS } from '@stress-gate/verdict-api/contract';

let server: FakeVerdictServer;
let dir: string;
let ceilingSeconds = DEFAULT_STRESS_PARAMETERS.ceilingSeconds;
let executor = 'direct';

beforeAll(async () => {
  dir = await writeTree(checkoutProject());
  server = await startFakeVerdictServer((posted) =>
    cannedVerdict(posted, (p) => p.suite === 'com.shop.CheckoutTest', {
      parameters: { ...DEFAULT_STRESS_PARAMETERS, ceilingSeconds },
    }),
  );
});
afterAll(async () => {
  await server.close();
  // After the ceiling cut the daemon needs about a second to cancel its build and stop writing.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  await rm(dir, { recursive: true, force: true });
});

async function gate(mode: string, extraEnv: Record<string, string> = {}, extraArgs: string[] = []) {
  await rm(path.join(dir, 'appliesDiscount.count'), { force: true });
  const out: string[] = [];
  const err: string[] = [];
  const env: NodeJS.ProcessEnv = { ...process.env, STRESS_GATE_TOKEN: 'secret', STRESS_GATE_LOG_LEVEL: 'warn', STRESS_GATE_EXECUTOR: executor, ...extraEnv };
  delete env['GITHUB_STEP_SUMMARY'];
  const started = Date.now();
  const code = await main(
    ['gradle', '--offline', '-q', ...extraArgs, ':app:cleanTest', ':app:test', '--stress-new-tests', mode, '--server-url', server.url, '--project', 'shop'],
    { ...realDeps(env), cwd: dir, out: (t) => out.push(t), err: (t) => err.push(t) },
  );
  const report = JSON.parse(await readFile(path.join(dir, 'build/stress-gate/report.json'), 'utf8'));
  return { code, out: out.join(''), err: err.join(''), report, ms: Date.now() - started };
}

/** The line of CheckoutTest.java (test/support/fixture-project.ts) that asserts in appliesDiscount. */
const LINE = checkoutProject()['app/src/test/java/com/shop/CheckoutTest.java']!.split('\n').findIndex((l) => l.includes('void appliesDiscount')) + 1;

// The direct executor (the default) runs the ten repetitions side by side; appliesDiscount fails
// there (counts 1..10 fail at 2, 6, 10) and runs ten more times alone (11..20 fail at 14, 18).
const EXPECTED = {
  direct: {
    failed: 2,
    first: 4,
    // Every JVM counted: the ten run again alone too, and the time they took.
    line: expect.stringMatching(/^ {2}30 repetitions in 30 JVMs, 2 at a time, then 10 JVMs again alone for what failed side by side \([\d.]+m?s of the pass's [\d.]+m?s\): 40 JVMs in all$/) as unknown as string,
    // Where a repetition JVM's time went (the runner's phases).
    timing: [expect.stringMatching(/^ {2}Per JVM on average: start \d+ ms, discovery \d+ ms, tests \d+ ms, exit \d+ ms$/) as unknown as string],
    tail: [' ! 1 new test case failed while its repetitions ran side by side, so it ran', '   again alone, one JVM at a time; the outcome above is from that run.'],
    statuses: ['success', 'success', 'success', 'failure', 'success', 'success', 'success', 'failure', 'success', 'success'],
  },
  gradle: {
    failed: 3,
    first: 2,
    line: '  30 repetitions one JVM at a time (Gradle executor)' as string,
    timing: [] as string[],
    tail: [],
    statuses: ['success', 'failure', 'success', 'success', 'success', 'failure', 'success', 'success', 'success', 'failure'],
  },
} as const;

describe.each(['direct', 'gradle'] as const)('stress-orchestrator gradle on a real build (%s executor)', (ex) => {
  const expected = EXPECTED[ex];
  beforeAll(() => {
    executor = ex;
  });

  it('reports a flaky new test in report mode and exits with the first pass result', async () => {
    server.requests.length = 0;
    const r = await gate('report');
    expect(r.code).toBe(0);
    expect(r.out.split('\n')).toEqual(
      [
        'Stress-testing new tests',
        '  3 new test cases, 3 stressed, 0 excluded',
        `  :app CheckoutTest.appliesDiscount   10 repetitions, ${expected.failed} failed`,
        '  :app CheckoutTest.clearsCart        10 repetitions, passed',
        '  :app CheckoutTest.total             10 repetitions, passed',
        expected.line,
        ...expected.timing,
        // The two new tests that passed, each run right before and after its neighbours (the flaky one is no partner).
        expect.stringMatching(/^ {2}Order probe \(seed \d+\): 2 new tests, 4 pairs in 2 JVMs, [\d.]+m?s$/) as unknown as string,
        '  10 clean repetitions rule out a failure rate above 26% per run (95%',
        '  confidence); rarer flakes can pass.',
        '',
        ` ! CheckoutTest.appliesDiscount failed ${expected.failed} of 10 repetitions and would have`,
        '   blocked this merge request. Pass --stress-new-tests enforce to make it',
        '   blocking.',
        `   ${expected.failed} failed, all alike: AssertionError at CheckoutTest.java:${LINE}`,
        `   First failure, repetition ${expected.first}:`,
        `     java.lang.AssertionError: expected 30 but was 27 (run ${expected.first === 4 ? 14 : 2})`,
        '         at org.junit.Assert.fail(Assert.java:89)',
        '         at org.junit.Assert.assertTrue(Assert.java:42)',
        `         at com.shop.CheckoutTest.appliesDiscount(CheckoutTest.java:${LINE})`,
        // The runner under the direct executor, Gradle's worker under the Gradle executor, below the test.
        expect.stringMatching(/^ {9}… \d+ more frames$/) as unknown as string,
        '   Reproduce:',
        `     npx -p @stress-gate/orchestrator@${version()} stress-orchestrator gradle --stress-tests ':app com.shop.CheckoutTest.appliesDiscount' --repetitions 50 -- --offline -q :app:cleanTest :app:test`,
        ...expected.tail,
        // The fixture is no git checkout: the merge request's diff cannot be had, and the report says so.
        ' ! Modified and renamed test detection was skipped: the project is not in a git',
        '   checkout.',
        '',
        `  Run page: ${server.url}/projects/shop/runs/${r.report.runId}`,
        '',
      ],
    );
    expect(r.report).toMatchObject({ mode: 'report', outcome: 'failed', blocked: false, wouldHaveBlocked: true, exitCode: 0 });
    const flaky = r.report.candidates.find((c: { name: string }) => c.name === 'appliesDiscount');
    expect(flaky.recorded.map((x: { status: string }) => x.status)).toEqual(expected.statuses);
    // Every JVM started: under the direct executor the ten of appliesDiscount run again alone too.
    expect(r.report.stressPass).toMatchObject({ executor: ex, jvms: ex === 'direct' ? 40 : 30, jvmsAtATime: ex === 'direct' ? 2 : 1 });
    // The run upload and the verdict request are concurrent: compare in protocol order.
    server.requests.sort((a, b) => protocolRank(a.url) - protocolRank(b.url));
    const urls = server.requests.map((q) => q.url);
    expect(urls).toEqual([
      '/api/v1/projects/shop/quarantine?limit=1000',
      '/api/v1/projects/shop/runs',
      '/api/v1/projects/shop/verdict',
      `/api/v1/projects/shop/runs/${r.report.runId}/gate`,
    ]);
    expect(server.requests.every((q) => q.authorization === 'Bearer secret')).toBe(true);
    const gateUpload = server.requests[3]!.body as { outcome: string; wouldHaveBlocked: boolean; testCases: { repetitions: unknown[]; failures: { message: string }[]; reproduce: unknown }[] };
    expect(gateUpload).toMatchObject({ mode: 'report', outcome: 'failed', stressed: 3, blocked: false, wouldHaveBlocked: true });
    expect(gateUpload.testCases.map((t) => t.repetitions.length)).toEqual([10, 10, 10]);
    // Why it failed, and how to rerun it, go up with the gated observation.
    expect(gateUpload.testCases[0]!.failures.map((f) => f.message.slice(0, 22))).toEqual(Array(expected.failed).fill('expected 30 but was 27'));
    // The command goes up as parts; the server quotes them with the identity it stores.
    expect(gateUpload.testCases[0]!.reproduce).toEqual({ launcher: { kind: 'package', version: version() }, tool: ['gradle'], buildArgs: ['--offline', '-q', ':app:cleanTest', ':app:test'], repetitions: 50 });
    process.stderr.write(`report-mode run: ${r.ms} ms (stress pass ${r.report.stressPass.wallClockMs} ms)\n`);
  }, 120_000);

  it('blocks in enforce mode with the exit code of a failed test run', async () => {
    server.requests.length = 0;
    const r = await gate('enforce');
    expect(r.code).toBe(1);
    expect(r.out).toContain(` ! CheckoutTest.appliesDiscount failed ${expected.failed} of 10 repetitions and blocked this\n   merge request.\n`);
    expect(r.out).not.toContain('would have');
    expect(r.report).toMatchObject({ mode: 'enforce', outcome: 'failed', blocked: true, exitCode: 1 });
  }, 120_000);

  it('cuts the stress pass at the ceiling and never reports the cut candidates as passed', async () => {
    ceilingSeconds = 2;
    try {
      // Direct: clearsCart sleeps 300 ms (2 JVMs at a time: under the 2 s ceiling's prediction,
      // over it once JVMs start). Gradle: one repetition task at a time is over it anyway.
      const r = await gate('enforce', { STRESS_GATE_JVM_START_MS: '0' }, ex === 'direct' ? ['-PfixtureSleep=300'] : []);
      expect(r.report.stressPass.cut).toBe(true);
      expect(r.report.outcome).not.toBe('passed');
      for (const c of r.report.candidates) {
        if (c.recorded.length < 10) expect(['not_stressed', 'failed']).toContain(c.outcome);
      }
      expect(r.out).toContain('ceiling cut the stress pass');
      process.stderr.write(`ceiling run: ${r.ms} ms, stress pass ${r.report.stressPass.wallClockMs} ms\n${r.out}`);
    } finally {
      ceilingSeconds = DEFAULT_STRESS_PARAMETERS.ceilingSeconds;
    }
  }, 120_000);
});
