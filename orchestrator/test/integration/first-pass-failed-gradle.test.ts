// A first pass that failed on new tests, on a real Gradle build (Debian's 4.4.1, offline) with a
// fake verdict API: the gate stresses the failing new tests and calls each flaky or broken, with
// its counts and a reproduce command, and the exit code stays the build's. A failing old test
// keeps the old rule (skip). `--stress-tests` exits 1 when a test disagreed with itself and 4 when
// the build failed and none did.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { main, realDeps } from '../../src/cli.js';
import { BUILD_FAILED_EXIT_CODE } from '../../src/gate/run-stress-tests.js';
import { cannedVerdict, startFakeVerdictServer, type FakeVerdictServer } from '../support/fake-verdict-server.js';
import { lockedCounter, writeTree } from '../support/fixture-project.js';

const JUNIT = "files('/usr/share/java/junit4.jar', '/usr/share/java/hamcrest-core.jar')";

/**
 * :app with two new tests and an old one. appliesDiscount counts its runs in a marker file and
 * fails on the first (the first pass) and on counts 2 mod 4: flaky, and certain to fail the build.
 * rejectsExpired fails every time under -PfixtureBroken=true (broken). CartTest.existing (old)
 * fails under -PfixtureOldFails=true.
 */
function project(): Record<string, string> {
  const counter = lockedCounter('new java.io.File(System.getProperty("fixture.dir"), name + ".count")');
  return {
    'settings.gradle': "rootProject.name = 'checkout'\ninclude 'app'\n",
    'build.gradle': '',
    'app/build.gradle': `apply plugin: 'java'
dependencies { testCompile ${JUNIT} }
test {
  systemProperty 'fixture.dir', rootProject.projectDir.absolutePath
  systemProperty 'fixture.broken', project.findProperty('fixtureBroken') ?: 'false'
  systemProperty 'fixture.oldFails', project.findProperty('fixtureOldFails') ?: 'false'
}
`,
    'app/src/test/java/com/shop/CheckoutTest.java': `package com.shop;
import org.junit.Test;
import static org.junit.Assert.*;
public class CheckoutTest {${counter}
  @Test public void appliesDiscount() throws Exception { int n = bump("appliesDiscount"); assertTrue("expected 30 but was 27 (run " + n + ")", n != 0 && n % 4 != 2); }
  @Test public void rejectsExpired() { assertFalse("the coupon expired", Boolean.getBoolean("fixture.broken")); }
}
`,
    'app/src/test/java/com/shop/CartTest.java': `package com.shop;
import org.junit.Test;
import static org.junit.Assert.*;
public class CartTest {
  @Test public void existing() { assertFalse("old failure", Boolean.getBoolean("fixture.oldFails")); }
}
`,
  };
}

let server: FakeVerdictServer;
let dir: string;

beforeAll(async () => {
  dir = await writeTree(project());
  server = await startFakeVerdictServer((posted) => cannedVerdict(posted, (p) => p.suite === 'com.shop.CheckoutTest'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** Runs the CLI on the fixture; `seed` is appliesDiscount's count before it (0: it fails the build). */
async function run(args: string[], props: string[], seed = 0) {
  await writeFile(path.join(dir, 'appliesDiscount.count'), String(seed));
  await rm(path.join(dir, 'build/stress-gate/report.json'), { force: true });
  const out: string[] = [];
  const err: string[] = [];
  const env: NodeJS.ProcessEnv = { ...process.env, STRESS_GATE_TOKEN: 'secret', STRESS_GATE_LOG_LEVEL: 'warn' };
  delete env['GITHUB_STEP_SUMMARY'];
  const code = await main(['gradle', ...args, '--', '--offline', '-q', ...props, ':app:cleanTest', ':app:test'], { ...realDeps(env), cwd: dir, out: (t) => out.push(t), err: (t) => err.push(t) });
  const report = await readFile(path.join(dir, 'build/stress-gate/report.json'), 'utf8').then((t) => JSON.parse(t), () => null);
  return { code, out: out.join(''), err: err.join(''), report };
}

const gate = (mode: string, props: string[], seed = 0) => run(['--stress-new-tests', mode, '--server-url', server.url, '--project', 'shop'], props, seed);
const flat = (s: string) => s.replace(/\s+/g, ' ');

describe('a first pass that failed on new tests (real Gradle)', () => {
  it('stresses the new flaky test that failed the build, calls it flaky with its counts and a reproduce command, and keeps the build exit code', async () => {
    const r = await gate('report', []);
    expect(r.report).toMatchObject({ mode: 'report', exitCode: 1, blocked: false, wouldHaveBlocked: true, firstPass: { passed: false, failures: 1 } });
    expect(r.code).toBe(1);
    const text = flat(r.out);
    expect(text).toContain('The build failed on 1 new test. The gate stressed it');
    expect(text).toMatch(/CheckoutTest\.appliesDiscount is flaky: it failed in the build, then passed (\d+) of 10 repetitions, each in a fresh JVM\. Rerunning CI until it passes would merge a flaky test\./);
    expect(text).toMatch(/Reproduce: \S.*--stress-tests .*com\.shop\.CheckoutTest\.appliesDiscount/);
    const flaky = r.report.candidates.find((c: { name: string }) => c.name === 'appliesDiscount');
    expect(flaky).toMatchObject({ outcome: 'failed', failedInBuild: 'flaky', firstPassStatus: 'failure' });
    expect(flaky.reproduce).toEqual(expect.any(String));
    const passed = Number(/passed (\d+) of 10/.exec(text)![1]);
    expect(passed).toBe(10 - flaky.failures);
    expect(passed).toBeGreaterThan(0);
    expect(passed).toBeLessThan(10);
    // The gated observation went up with the stressed candidates.
    const gateUpload = server.requests.find((q) => q.url.endsWith('/gate'));
    expect(gateUpload?.body).toMatchObject({ outcome: 'failed', blocked: false, wouldHaveBlocked: true });
  }, 240_000);

  it('calls a new test that failed every time broken, in enforce, and keeps the build exit code', async () => {
    const r = await gate('enforce', ['-PfixtureBroken=true']);
    expect(r.code).toBe(1);
    expect(r.report).toMatchObject({ mode: 'enforce', exitCode: 1, blocked: false, firstPass: { passed: false, failures: 2 } });
    const text = flat(r.out);
    expect(text).toContain('The build failed on 2 new tests. The gate stressed them');
    expect(text).toContain('CheckoutTest.rejectsExpired is broken: it failed in the build and every one of 10 repetitions, each in a fresh JVM: fix it as any failing test.');
    expect(text).toContain('CheckoutTest.appliesDiscount is flaky');
    expect(r.report.candidates.find((c: { name: string }) => c.name === 'rejectsExpired')).toMatchObject({ failedInBuild: 'broken', failures: 10 });
  }, 240_000);

  it('keeps the old rule when an old test failed the build: nothing is stressed', async () => {
    const r = await gate('enforce', ['-PfixtureOldFails=true'], 1);
    expect(r.code).toBe(1);
    expect(r.report).toMatchObject({ outcome: 'skipped', exitCode: 1, candidates: [] });
    expect(flat(r.out)).toContain('Skipped: the first pass failed, so no new test was stressed.');
  }, 240_000);
});

describe('--stress-tests when the build failed (real Gradle)', () => {
  it('exits 1 when a named test that failed the build is flaky', async () => {
    const r = await run(['--stress-tests', ':app com.shop.CheckoutTest.appliesDiscount'], []);
    expect(r.code).toBe(1);
    expect(flat(r.out)).toMatch(/CheckoutTest\.appliesDiscount is flaky: it failed in the build, then passed \d+ of 10 repetitions/);
  }, 240_000);

  it(`exits ${BUILD_FAILED_EXIT_CODE} when the named test that failed the build is broken`, async () => {
    const r = await run(['--stress-tests', ':app com.shop.CheckoutTest.rejectsExpired'], ['-PfixtureBroken=true'], 1);
    expect(r.code).toBe(BUILD_FAILED_EXIT_CODE);
    expect(flat(r.out)).toContain('CheckoutTest.rejectsExpired is broken');
  }, 240_000);

  it(`exits ${BUILD_FAILED_EXIT_CODE} and stresses nothing when a test not named failed the build`, async () => {
    const r = await run(['--stress-tests', ':app com.shop.CheckoutTest.appliesDiscount'], ['-PfixtureOldFails=true'], 1);
    expect(r.code).toBe(BUILD_FAILED_EXIT_CODE);
    expect(flat(r.out)).toContain('Skipped: the build failed on a test not named here, so nothing was stressed.');
  }, 240_000);
});
