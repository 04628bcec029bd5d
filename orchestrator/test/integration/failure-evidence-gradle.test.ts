// Why the gate blocked, through real parts: real Gradle (direct executor), the real CLI process
// and the real verdict API. A branch adds a flaky test whose failure says "expected 30 but was
// 27", a test whose JVM exits with code 3 on some invocations (System.exit) and a stable one. The
// message, the exit code and the reproduce command reach the terminal report, the JSON report
// and the job summary; the printed command, run as printed without any server, exits 1 on the
// flaky test and 0 on the stable one.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { version } from '../../src/cli.js';
import { gitlabCiEnv } from '../support/ci-env.js';
import { lockedCounter, writeFiles, writeTree } from '../support/fixture-project.js';
import { startVerdictApi, useRepetitions, type VerdictApiProcess } from '../support/verdict-api-process.js';

const BIN = fileURLToPath(new URL('../../bin/stress-orchestrator.js', import.meta.url));
const JUNIT = "files('/usr/share/java/junit4.jar', '/usr/share/java/hamcrest-core.jar')";
let api: VerdictApiProcess;
let dir: string;
let tmp: string;

/** A counter bumped under a file lock, across processes (0 for the first pass). */
const BUMP = lockedCounter('new java.io.File("counts", name + ".count")');

const main = {
  'settings.gradle': "rootProject.name = 'shop'\ninclude 'app'\n",
  'app/build.gradle': `apply plugin: 'java'\ndependencies { testCompile ${JUNIT} }\n`,
  'app/src/test/java/shop/OldTest.java': 'package shop;\npublic class OldTest { @org.junit.Test public void works() {} }\n',
};
const feature = {
  'app/src/test/java/shop/CheckoutTest.java': `package shop;
import org.junit.Test;
import static org.junit.Assert.assertEquals;
public class CheckoutTest {${BUMP}
  static int total(int n) { return n % 3 == 2 ? 27 : 30; }
  @Test public void appliesDiscount() throws Exception { int n = bump("appliesDiscount"); assertEquals("expected 30 but was 27", 30, total(n)); }
  @Test public void exitsMidTest() throws Exception {
    int n = bump("exitsMidTest");
    if (n % 4 == 2) { System.err.println("payment service gone, exiting (invocation " + n + ")"); System.exit(3); }
  }
  @Test public void stable() { assertEquals(30, 30); }
}
`,
};

beforeAll(async () => {
  api = await startVerdictApi();
  // Four repetitions catch these flakes (every third invocation) in 40% of the time of ten.
  await useRepetitions(api, 4);
  dir = await writeTree(main, 'stress-gate-evidence-');
  tmp = await mkdtemp(path.join(os.tmpdir(), 'stress-gate-evidence-tmp-'));
}, 120_000);
afterAll(async () => {
  await api?.stop();
  await rm(dir, { recursive: true, force: true });
  await rm(tmp, { recursive: true, force: true });
});

async function gate(branch: string, mode: string) {
  const summary = path.join(tmp, `summary-${branch.replaceAll('/', '_')}.md`);
  const env = { ...gitlabCiEnv(branch, mode, api), TMPDIR: tmp, GITHUB_STEP_SUMMARY: summary };
  const r = await execa(process.execPath, [BIN, 'gradle', '--offline', '-q', 'clean', 'test'], { cwd: dir, env, extendEnv: false, reject: false, stdin: 'ignore' });
  const report = JSON.parse(await readFile(path.join(dir, 'build/stress-gate/report.json'), 'utf8'));
  return { code: r.exitCode, out: String(r.stdout), err: String(r.stderr), report, summary: await readFile(summary, 'utf8').catch(() => '') };
}

/** Runs a printed command as printed (its `npx … stress-orchestrator` is this checkout's CLI), with no server configured. */
async function asPrinted(command: string) {
  // The counters start again: the first pass's invocation is 0, and passes.
  await rm(path.join(dir, 'app', 'counts'), { recursive: true, force: true });
  const shell = command.replace(/^npx (?:(?:--no|-p \S+) )?stress-orchestrator /, `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} `);
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, JAVA_HOME: process.env.JAVA_HOME, TMPDIR: tmp };
  const r = await execa('sh', ['-c', shell], { cwd: dir, env, extendEnv: false, reject: false, stdin: 'ignore' });
  return { code: r.exitCode, out: String(r.stdout), err: String(r.stderr) };
}

describe('why the gate blocked, on real Gradle', () => {
  let flakyCommand: string;

  it('shows the failure message, the crash\'s exit code and the reproduce command in the terminal, the JSON report and the job summary', async () => {
    expect((await gate('main', 'report')).code).toBe(0);
    await writeFiles(dir, feature);
    const r = await gate('feature/checkout', 'enforce');
    const context = `${r.out}\n${r.err.slice(-3000)}`;
    expect({ code: r.code, context }).toEqual({ code: 1, context });
    // The terminal report.
    expect(r.out).toContain('   First failure, repetition');
    expect(r.out).toContain('     java.lang.AssertionError: expected 30 but was 27 expected:<30> but was:<27>');
    expect(r.out).toContain('         at shop.CheckoutTest.appliesDiscount(CheckoutTest.java:');
    expect(r.out).toMatch(/ {5}its JVM exited with code 3\n/);
    expect(r.out).toContain('       payment service gone, exiting');
    expect(r.out).toContain(`     npx -p @stress-gate/orchestrator@${version()} stress-orchestrator gradle --stress-tests ':app shop.CheckoutTest.appliesDiscount' --repetitions 50 -- --offline -q clean test\n`);
    // The JSON report: every failure, bounded.
    const byName = new Map<string, { outcome: string; reproduce?: string; evidence: { failures: { kind: string; message: string | null; exitCode: number | null; stderrTail: string | null }[]; groups: { signature: string }[] } | null }>(r.report.candidates.map((c: { name: string }) => [c.name, c]));
    const flaky = byName.get('appliesDiscount')!;
    expect(flaky.outcome).toBe('failed');
    expect(flaky.evidence!.failures.length).toBeGreaterThanOrEqual(1);
    expect(flaky.evidence!.failures.every((f) => f.kind === 'failure' && f.message!.startsWith('expected 30 but was 27'))).toBe(true);
    const exits = byName.get('exitsMidTest')!;
    expect(exits.outcome).toBe('failed');
    expect(exits.evidence!.failures[0]).toMatchObject({ kind: 'crash', exitCode: 3 });
    expect(exits.evidence!.failures[0]!.stderrTail).toContain('payment service gone');
    expect(exits.evidence!.groups.map((g) => g.signature)).toEqual(['JVM crash (exit code 3)']);
    expect(byName.get('stable')!.outcome).toBe('passed');
    // The job summary.
    expect(r.summary).toContain('expected 30 but was 27');
    expect(r.summary).toContain('its JVM exited with code 3');
    expect(r.summary).toContain('**Blocked**: a new test disagreed with itself.');
    // The run as the API stored it (the run page reads the same).
    const res = await fetch(`${api.url}/api/v1/projects/${api.project}/runs/${r.report.runId}`, { headers: { Authorization: `Bearer ${api.token}` } });
    expect(JSON.stringify(await res.json())).toContain('expected 30 but was 27');
    flakyCommand = flaky.reproduce!;
  }, 600_000);

  it('the printed reproduce command, run as printed with no server, exits 1 on the flaky test and 0 on a stable one', async () => {
    const failing = await asPrinted(flakyCommand.replace('--repetitions 50', '--repetitions 10'));
    expect({ code: failing.code, out: failing.out }).toMatchObject({ code: 1 });
    expect(failing.out).toContain('Stress-testing tests\n  1 test case, 1 stressed, 0 excluded\n');
    expect(failing.out).not.toContain('Skipped: the build failed');
    expect(failing.out).toMatch(/:app CheckoutTest\.appliesDiscount +10 repetitions, \d+ failed/);
    expect(failing.out).toContain('expected 30 but was 27');
    const stable = await asPrinted(flakyCommand.replace('appliesDiscount', 'stable').replace('--repetitions 50', '--repetitions 5'));
    expect({ code: stable.code, out: stable.out }).toMatchObject({ code: 0 });
    expect(stable.out).toMatch(/:app CheckoutTest\.stable +5 repetitions, passed/);
    const nothing = await asPrinted("npx stress-orchestrator gradle --offline -q clean test --stress-tests ':app shop.Nope.*'");
    expect(nothing.code).toBe(2);
    expect(nothing.err).toContain('no test that ran matches ":app shop.Nope.*"');
    const first = await asPrinted(`npx stress-orchestrator gradle --offline -q clean test --stress-tests ':app shop.CheckoutTest.*' --repetitions 20 --until-failure`);
    expect(first.code).toBe(1);
    expect(first.out).toContain('stopped at the first failure (--until-failure)');
  }, 600_000);
});
