// The order probe through real parts: real Gradle 4.4 (JUnit 4 and TestNG), the real CLI process
// and the real verdict API. main has old tests that read or write shared state; a branch adds a
// victim (it passes alone and after its class's tests in the build's order, and fails right after
// an old test that leaves a static behind) and a polluter (it passes, and an old test fails right
// after it). Both are caught, with the pair, the seed and a command that, run as printed with no
// server, fails; a stable new test beside them is not flagged.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { gitlabCiEnv } from '../support/ci-env.js';
import { writeFiles, writeTree } from '../support/fixture-project.js';
import { startVerdictApi, useRepetitions, type VerdictApiProcess } from '../support/verdict-api-process.js';

const BIN = fileURLToPath(new URL('../../bin/stress-orchestrator.js', import.meta.url));
const JUNIT = "files('/usr/share/java/junit4.jar', '/usr/share/java/hamcrest-core.jar')";
let api: VerdictApiProcess;
let tmp: string;
const dirs: string[] = [];

beforeAll(async () => {
  api = await startVerdictApi();
  await useRepetitions(api, 3);
  tmp = await mkdtemp(path.join(os.tmpdir(), 'stress-gate-order-tmp-'));
}, 120_000);
afterAll(async () => {
  await api?.stop();
  for (const d of [...dirs, tmp]) await rm(d, { recursive: true, force: true });
});

/** A shared registry in test code: the state old and new tests leave behind. */
const REGISTRY = 'package shop;\npublic class Registry { public static String owner; public static String mode; }\n';

/** JUnit 4: the build runs a class's methods by name (NAME_ASCENDING), so the build's own order is a passing one. */
const junit4 = {
  main: {
    'settings.gradle': "rootProject.name = 'shop'\ninclude 'app'\n",
    'app/build.gradle': `apply plugin: 'java'\ndependencies { testCompile ${JUNIT} }\n`,
    'app/src/test/java/shop/Registry.java': REGISTRY,
    'app/src/test/java/shop/CartTest.java': `package shop;
import org.junit.*;
import org.junit.runners.MethodSorters;
@FixMethodOrder(MethodSorters.NAME_ASCENDING)
public class CartTest {
  @Test public void m_claimsOwner() { Registry.owner = "cart"; }
  @Test public void b_defaultMode() { Assert.assertNull("mode was set by a test before this one", Registry.mode); }
  @Test public void c_adds() { Assert.assertEquals(4, 2 + 2); }
}
`,
    'app/src/test/java/shop/OtherTest.java': 'package shop;\npublic class OtherTest { @org.junit.Test public void works() {} }\n',
  },
  feature: {
    // a_: before m_claimsOwner in the build; needs no owner. z_: after b_defaultMode in the build; sets the mode.
    'app/src/test/java/shop/CartTest.java': `package shop;
import org.junit.*;
import org.junit.runners.MethodSorters;
@FixMethodOrder(MethodSorters.NAME_ASCENDING)
public class CartTest {
  @Test public void a_needsNoOwner() { Assert.assertNull("owner left by another test", Registry.owner); }
  @Test public void m_claimsOwner() { Registry.owner = "cart"; }
  @Test public void b_defaultMode() { Assert.assertNull("mode was set by a test before this one", Registry.mode); }
  @Test public void c_adds() { Assert.assertEquals(4, 2 + 2); }
  @Test public void d_stable() { Assert.assertEquals(6, 3 + 3); }
  @Test public void z_setsMode() { Registry.mode = "fast"; }
}
`,
  },
  victim: 'a_needsNoOwner',
  polluter: 'z_setsMode',
  broken: 'b_defaultMode',
  partner: 'm_claimsOwner',
  stable: 'd_stable',
};

/** TestNG: methods run by priority in the build. */
const testng = {
  main: {
    'settings.gradle': "rootProject.name = 'shop'\ninclude 'app'\n",
    'app/build.gradle': `apply plugin: 'java'\ndependencies { testCompile files(${['/usr/share/java/testng.jar', '/usr/share/java/jcommander.jar'].map((j) => `'${j}'`).join(', ')}) }\ntest { useTestNG() }\n`,
    'app/src/test/java/shop/Registry.java': REGISTRY,
    'app/src/test/java/shop/CartTest.java': `package shop;
import org.testng.Assert;
import org.testng.annotations.Test;
public class CartTest {
  @Test(priority = 5) public void claimsOwner() { Registry.owner = "cart"; }
  @Test(priority = 2) public void defaultMode() { Assert.assertNull(Registry.mode, "mode was set by a test before this one"); }
}
`,
    'app/src/test/java/shop/OtherTest.java': 'package shop;\npublic class OtherTest { @org.testng.annotations.Test public void works() {} }\n',
  },
  feature: {
    'app/src/test/java/shop/CartTest.java': `package shop;
import org.testng.Assert;
import org.testng.annotations.Test;
public class CartTest {
  @Test(priority = 1) public void needsNoOwner() { Assert.assertNull(Registry.owner, "owner left by another test"); }
  @Test(priority = 5) public void claimsOwner() { Registry.owner = "cart"; }
  @Test(priority = 2) public void defaultMode() { Assert.assertNull(Registry.mode, "mode was set by a test before this one"); }
  @Test(priority = 3) public void stable() { Assert.assertEquals(3 + 3, 6); }
  @Test(priority = 9) public void setsMode() { Registry.mode = "fast"; }
}
`,
  },
  victim: 'needsNoOwner',
  polluter: 'setsMode',
  broken: 'defaultMode',
  partner: 'claimsOwner',
  stable: 'stable',
};

async function gate(dir: string, branch: string, mode: string, extra: Record<string, string> = {}) {
  const env = { ...gitlabCiEnv(branch, mode, api), TMPDIR: tmp, ...extra };
  const r = await execa(process.execPath, [BIN, 'gradle', '--offline', '-q', 'clean', 'test'], { cwd: dir, env, extendEnv: false, reject: false, stdin: 'ignore' });
  const report = JSON.parse(await readFile(path.join(dir, 'build/stress-gate/report.json'), 'utf8'));
  return { code: r.exitCode, out: String(r.stdout), err: String(r.stderr), report };
}

/** Runs a printed command as printed (its `npx … stress-orchestrator` is this checkout's CLI), with no server configured. */
async function asPrinted(dir: string, command: string) {
  const shell = command.replace(/^npx (?:(?:--no|-p \S+) )?stress-orchestrator /, `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} `);
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, JAVA_HOME: process.env.JAVA_HOME, TMPDIR: tmp };
  const r = await execa('sh', ['-c', shell], { cwd: dir, env, extendEnv: false, reject: false, stdin: 'ignore' });
  return { code: r.exitCode, out: String(r.stdout), err: String(r.stderr) };
}

interface Finding { role: string; other: { suite: string; name: string }; otherPassesAlone: boolean | null; replays: number; replayFailures: number; reproduce: string; evidence: { message: string | null } }
interface Candidate { name: string; outcome: string; orderProbe?: { status: string; seed: number; findings: Finding[]; partners: number; partnersRun: number } }

describe.each([
  ['JUnit 4', junit4],
  ['TestNG', testng],
])('the order probe on real Gradle (%s)', (_label, fx) => {
  let dir: string;
  beforeAll(async () => {
    dir = await writeTree(fx.main, 'stress-gate-order-');
    dirs.push(dir);
  });

  it('blocks a victim and a polluter in enforce, names each pair with its seed, and leaves a stable new test alone', async () => {
    const onMain = await gate(dir, 'main', 'report');
    expect({ code: onMain.code, err: onMain.err.slice(-2000) }).toMatchObject({ code: 0 });
    await writeFiles(dir, fx.feature);
    const r = await gate(dir, `feature/order-${_label.replace(/\W/g, '')}`, 'enforce');
    const context = `${r.out}\n${r.err.slice(-3000)}`;
    expect({ code: r.code, context }).toEqual({ code: 1, context });
    const byName = new Map<string, Candidate>(r.report.candidates.map((c: Candidate) => [c.name, c]));
    const victim = byName.get(fx.victim)!;
    expect(victim.outcome).toBe('order_dependent');
    expect(victim.orderProbe!.findings).toEqual([expect.objectContaining({ role: 'victim', other: expect.objectContaining({ suite: 'shop.CartTest', name: fx.partner }), otherPassesAlone: null, replays: 2, replayFailures: 2 })]);
    expect(victim.orderProbe!.findings[0]!.evidence.message).toContain('owner left by another test');
    const polluter = byName.get(fx.polluter)!;
    expect(polluter.outcome).toBe('order_dependent');
    expect(polluter.orderProbe!.findings).toEqual([expect.objectContaining({ role: 'polluter', other: expect.objectContaining({ name: fx.broken }), otherPassesAlone: true, replayFailures: 2 })]);
    expect(polluter.orderProbe!.findings[0]!.evidence.message).toContain('mode was set by a test before this one');
    const stable = byName.get(fx.stable)!;
    expect(stable.outcome).toBe('passed');
    expect(stable.orderProbe).toMatchObject({ status: 'probed', findings: [] });
    expect(stable.orderProbe!.partnersRun).toBe(stable.orderProbe!.partners);
    // The seed is in the report, the same for every candidate of the run.
    const seed = r.report.orderProbe.seed;
    expect(victim.orderProbe!.seed).toBe(seed);
    const flat = r.out.replace(/\s+/g, ' ');
    expect(flat).toContain(`Order probe (seed ${seed}): 3 new tests`);
    expect(flat).toContain(`CartTest.${fx.victim} is order-dependent: it passed every repetition alone, and fails right after CartTest.${fx.partner} (2 of 2 fresh JVMs`);
    expect(flat).toContain(`CartTest.${fx.polluter} is order-dependent: it breaks CartTest.${fx.broken}, an existing test`);
    expect(flat).toContain('It blocked this merge request.');
    expect(r.err).toMatch(/stress-gate: order probe: 3 new tests, .* within its budget of/);
    // The server recorded it.
    const res = await fetch(`${api.url}/api/v1/projects/${api.project}/runs/${r.report.runId}`, { headers: { Authorization: `Bearer ${api.token}` } });
    expect(res.status).toBe(200);
    // Stored whole: the run as the server shows it names each order-dependent test and its pair.
    expect(r.err).not.toContain('was not uploaded');
    const stored = JSON.stringify(await res.json());
    expect(stored).toContain('"outcome":"order_dependent"');
    expect(stored).toContain(fx.partner);
    expect(stored).toContain(fx.broken);

    // Each printed command, run as printed with no server, runs exactly that order and fails.
    const victimRun = await asPrinted(dir, victim.orderProbe!.findings[0]!.reproduce);
    expect({ code: victimRun.code, out: victimRun.out }).toMatchObject({ code: 1 });
    expect(victimRun.out).toMatch(new RegExp(`1\\. shop\\.CartTest\\.${fx.partner} +passed[\\s\\S]*2\\. shop\\.CartTest\\.${fx.victim} +FAILED`));
    expect(victimRun.out).toContain('owner left by another test');
    const polluterRun = await asPrinted(dir, polluter.orderProbe!.findings[0]!.reproduce);
    expect({ code: polluterRun.code, out: polluterRun.out }).toMatchObject({ code: 1 });
    expect(polluterRun.out).toMatch(new RegExp(`1\\. shop\\.CartTest\\.${fx.polluter} +passed[\\s\\S]*2\\. shop\\.CartTest\\.${fx.broken} +FAILED`));
    // The reverse order passes: the command names exactly the order that fails.
    const reverse = victim.orderProbe!.findings[0]!.reproduce.replace(/--run-order ('[^']*') --run-order ('[^']*')/, '--run-order $2 --run-order $1');
    expect(reverse).not.toBe(victim.orderProbe!.findings[0]!.reproduce);
    const reversed = await asPrinted(dir, reverse);
    expect({ code: reversed.code, out: reversed.out }).toMatchObject({ code: 0 });
    expect(reversed.out).toContain('Every test passed in this order.');
  }, 600_000);
});
