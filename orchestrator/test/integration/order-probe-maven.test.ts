// The order probe through real parts on Maven: real Maven (Surefire 3.5.4 with its JUnit 4,
// JUnit Platform and TestNG providers, offline, every version pinned), the real CLI process and
// the real verdict API. The scenario of order-probe-gradle.test.ts: main has old tests that read
// or write shared state; a branch adds a victim (it passes alone and in the build's order, and
// fails right after an old test that leaves a static behind) and a polluter (it passes, and an old
// test fails right after it). Both are caught, with the pair, the seed and a command that, run as
// printed with no server, fails (and its reverse passes); a stable new test beside them is not flagged.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { access, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { gitlabCiEnv } from '../support/ci-env.js';
import { writeFiles, writeTree } from '../support/fixture-project.js';
import { startVerdictApi, useRepetitions, type VerdictApiProcess } from '../support/verdict-api-process.js';

const BIN = fileURLToPath(new URL('../../bin/stress-orchestrator.js', import.meta.url));
const M2 = path.join(os.homedir(), '.m2', 'repository');
/** Every gate build: offline, quiet, no summary. */
const MVN = ['-o', '-q', '-B', '-Dsurefire.printSummary=false'];
let api: VerdictApiProcess;
let tmp: string;
const dirs: string[] = [];

beforeAll(async () => {
  api = await startVerdictApi();
  await useRepetitions(api, 3);
  tmp = await mkdtemp(path.join(os.tmpdir(), 'stress-gate-order-maven-tmp-'));
}, 120_000);
afterAll(async () => {
  await api?.stop();
  for (const d of [...dirs, tmp]) await rm(d, { recursive: true, force: true });
});

/** A one-module project on Surefire 3.5.4 (the versions the other Maven tests resolve), with `dependencies`. */
function pom(dependencies: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>dev.stressgate.order</groupId>
  <artifactId>shop</artifactId>
  <version>1.0.0</version>
  <properties>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    <maven.compiler.release>17</maven.compiler.release>
  </properties>
  <dependencies>
${dependencies}
  </dependencies>
  <build>
    <pluginManagement>
      <plugins>
        <plugin><artifactId>maven-clean-plugin</artifactId><version>3.4.1</version></plugin>
        <plugin><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
        <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.14.1</version></plugin>
        <plugin><artifactId>maven-surefire-plugin</artifactId><version>3.5.4</version></plugin>
      </plugins>
    </pluginManagement>
  </build>
</project>
`;
}

/**
 * Maven's own JVM with the C1 compiler only (a real project's .mvn/jvm.config): each of the five
 * builds a framework runs starts in about half the time on a busy machine. Surefire's forks, and so
 * the probe's JVMs, are started without it.
 */
const MAVEN_JVM = { '.mvn/jvm.config': '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC\n' };

const dependency = (group: string, artifact: string, version: string) =>
  `    <dependency><groupId>${group}</groupId><artifactId>${artifact}</artifactId><version>${version}</version><scope>test</scope></dependency>`;

/** A shared registry in test code: the state old and new tests leave behind. */
const REGISTRY = 'package shop;\npublic class Registry { public static String owner; public static String mode; }\n';
const CART = 'src/test/java/shop/CartTest.java';

/** JUnit 4 (Surefire's junit4 provider): the build runs a class's methods by name (NAME_ASCENDING), so the build's own order is a passing one. */
const junit4 = {
  main: {
    'pom.xml': pom(dependency('junit', 'junit', '4.13.2')),
    ...MAVEN_JVM,
    'src/test/java/shop/Registry.java': REGISTRY,
    [CART]: `package shop;
import org.junit.*;
import org.junit.runners.MethodSorters;
@FixMethodOrder(MethodSorters.NAME_ASCENDING)
public class CartTest {
  @Test public void m_claimsOwner() { Registry.owner = "cart"; }
  @Test public void b_defaultMode() { Assert.assertNull("mode was set by a test before this one", Registry.mode); }
  @Test public void c_adds() { Assert.assertEquals(4, 2 + 2); }
}
`,
    'src/test/java/shop/OtherTest.java': 'package shop;\npublic class OtherTest { @org.junit.Test public void works() {} }\n',
  },
  feature: {
    // a_: before m_claimsOwner in the build; needs no owner. z_: after b_defaultMode in the build; sets the mode.
    [CART]: `package shop;
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
  /** The stable test's partners: its class's five other tests and OtherTest.works. */
  partners: 6,
};

/** Jupiter (Surefire's JUnit Platform provider): methods run by name (MethodOrderer.MethodName), partners selected by unique ID. */
const jupiter = {
  main: {
    'pom.xml': pom(dependency('org.junit.jupiter', 'junit-jupiter', '5.14.4')),
    ...MAVEN_JVM,
    'src/test/java/shop/Registry.java': REGISTRY,
    [CART]: `package shop;
import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.*;
@TestMethodOrder(MethodOrderer.MethodName.class)
class CartTest {
  @Test void m_claimsOwner() { Registry.owner = "cart"; }
  @Test void b_defaultMode() { assertNull(Registry.mode, "mode was set by a test before this one"); }
  @Test void c_adds() { assertEquals(4, 2 + 2); }
}
`,
    'src/test/java/shop/OtherTest.java': 'package shop;\nclass OtherTest { @org.junit.jupiter.api.Test void works() {} }\n',
  },
  feature: {
    [CART]: `package shop;
import static org.junit.jupiter.api.Assertions.*;
import org.junit.jupiter.api.*;
@TestMethodOrder(MethodOrderer.MethodName.class)
class CartTest {
  @Test void a_needsNoOwner() { assertNull(Registry.owner, "owner left by another test"); }
  @Test void m_claimsOwner() { Registry.owner = "cart"; }
  @Test void b_defaultMode() { assertNull(Registry.mode, "mode was set by a test before this one"); }
  @Test void c_adds() { assertEquals(4, 2 + 2); }
  @Test void d_stable() { assertEquals(6, 3 + 3); }
  @Test void z_setsMode() { Registry.mode = "fast"; }
}
`,
  },
  victim: 'a_needsNoOwner',
  polluter: 'z_setsMode',
  broken: 'b_defaultMode',
  partner: 'm_claimsOwner',
  stable: 'd_stable',
  partners: 6,
};

/** TestNG (Surefire's TestNG provider): methods run by priority in the build. */
const testng = {
  main: {
    'pom.xml': pom(dependency('org.testng', 'testng', '7.5.1')),
    ...MAVEN_JVM,
    'src/test/java/shop/Registry.java': REGISTRY,
    [CART]: `package shop;
import org.testng.Assert;
import org.testng.annotations.Test;
public class CartTest {
  @Test(priority = 5) public void claimsOwner() { Registry.owner = "cart"; }
  @Test(priority = 2) public void defaultMode() { Assert.assertNull(Registry.mode, "mode was set by a test before this one"); }
}
`,
    'src/test/java/shop/OtherTest.java': 'package shop;\npublic class OtherTest { @org.testng.annotations.Test public void works() {} }\n',
  },
  feature: {
    [CART]: `package shop;
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
  partners: 5,
};

/**
 * Resolves the project's plugins, dependencies and the Surefire provider it needs into ~/.m2 (a
 * plain online `mvn clean test` of its default branch, once per machine and POM); the gate's
 * builds then run `mvn -o`.
 */
async function warm(dir: string): Promise<void> {
  const stamp = path.join(M2, `.stress-gate-order-probe-maven-${createHash('sha256').update(await readFile(path.join(dir, 'pom.xml'))).digest('hex').slice(0, 16)}`);
  if (await access(stamp).then(() => true, () => false)) return;
  const r = await execa('mvn', ['-q', '-B', '-Dsurefire.printSummary=false', 'clean', 'test'], { cwd: dir, reject: false, stdin: 'ignore' });
  if (r.exitCode !== 0) throw new Error(`warming ~/.m2 failed (mvn exit ${r.exitCode}):\n${String(r.stdout).slice(-3000)}\n${String(r.stderr).slice(-3000)}`);
  await mkdir(M2, { recursive: true });
  await writeFile(stamp, 'resolved by orchestrator/test/integration/order-probe-maven.test.ts\n');
}

async function gate(dir: string, branch: string, mode: string) {
  const env = { ...gitlabCiEnv(branch, mode, api), TMPDIR: tmp };
  const r = await execa(process.execPath, [BIN, 'mvn', ...MVN, 'clean', 'test'], { cwd: dir, env, extendEnv: false, reject: false, stdin: 'ignore' });
  const report = JSON.parse(await readFile(path.join(dir, 'target/stress-gate/report.json'), 'utf8'));
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
interface Candidate { name: string; outcome: string; orderProbe?: { status: string; seed: number; findings: Finding[]; partners: number; partnersRun: number; notes: string[] } }

describe.each([
  ['JUnit 4', junit4],
  ['Jupiter', jupiter],
  ['TestNG', testng],
])('the order probe on real Maven (%s)', (label, fx) => {
  let dir: string;
  beforeAll(async () => {
    dir = await writeTree(fx.main, 'stress-gate-order-maven-');
    dirs.push(dir);
    await warm(dir);
  }, 300_000);

  it('blocks a victim and a polluter in enforce, names each pair with its seed, and leaves a stable new test alone', async () => {
    const onMain = await gate(dir, 'main', 'report');
    expect({ code: onMain.code, outcome: onMain.report.outcome, err: onMain.err.slice(-2000) }).toMatchObject({ code: 0, outcome: 'no_candidates' });
    await writeFiles(dir, fx.feature);
    const r = await gate(dir, `feature/order-${label.replace(/\W/g, '')}`, 'enforce');
    const context = `${r.out}\n${r.err.slice(-3000)}`;
    expect({ code: r.code, context }).toEqual({ code: 1, context });
    const byName = new Map<string, Candidate>(r.report.candidates.map((c: Candidate) => [c.name, c]));
    const victim = byName.get(fx.victim)!;
    expect({ outcome: victim.outcome, probe: victim.orderProbe }).toMatchObject({ outcome: 'order_dependent' });
    expect(victim.orderProbe!.findings).toEqual([expect.objectContaining({ role: 'victim', other: expect.objectContaining({ suite: 'shop.CartTest', name: fx.partner }), otherPassesAlone: null, replays: 2, replayFailures: 2 })]);
    expect(victim.orderProbe!.findings[0]!.evidence.message).toContain('owner left by another test');
    const polluter = byName.get(fx.polluter)!;
    expect({ outcome: polluter.outcome, probe: polluter.orderProbe }).toMatchObject({ outcome: 'order_dependent' });
    expect(polluter.orderProbe!.findings).toEqual([expect.objectContaining({ role: 'polluter', other: expect.objectContaining({ suite: 'shop.CartTest', name: fx.broken }), otherPassesAlone: true, replays: 2, replayFailures: 2 })]);
    expect(polluter.orderProbe!.findings[0]!.evidence.message).toContain('mode was set by a test before this one');
    const stable = byName.get(fx.stable)!;
    expect(stable.outcome).toBe('passed');
    // Every partner ran beside it (its class's other tests and OtherTest's): none was left out as
    // unselectable. (Under TestNG, CartTest.needsNoOwner fails in its shared JVM after claimsOwner,
    // and the replays of the stable test then needsNoOwner clear it: a note, never a finding.)
    expect(stable.orderProbe).toMatchObject({ status: 'probed', findings: [], partners: fx.partners, partnersRun: fx.partners });
    expect(stable.orderProbe!.notes.filter((n) => n.includes('did not run'))).toEqual([]);
    // The seed is in the report, the same for every candidate of the run.
    const seed = r.report.orderProbe.seed;
    expect(typeof seed).toBe('number');
    expect([victim, polluter, stable].map((c) => c.orderProbe!.seed)).toEqual([seed, seed, seed]);
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
    const victimCommand = victim.orderProbe!.findings[0]!.reproduce;
    expect(victimCommand).toContain(` mvn --run-order shop.CartTest.${fx.partner} --run-order shop.CartTest.${fx.victim} -- ${MVN.join(' ')} clean test`);
    const victimRun = await asPrinted(dir, victimCommand);
    expect({ code: victimRun.code, out: victimRun.out, err: victimRun.err.slice(-2000) }).toMatchObject({ code: 1 });
    expect(victimRun.out).toMatch(new RegExp(`1\\. shop\\.CartTest\\.${fx.partner} +passed[\\s\\S]*2\\. shop\\.CartTest\\.${fx.victim} +FAILED`));
    expect(victimRun.out).toContain('owner left by another test');
    const polluterRun = await asPrinted(dir, polluter.orderProbe!.findings[0]!.reproduce);
    expect({ code: polluterRun.code, out: polluterRun.out, err: polluterRun.err.slice(-2000) }).toMatchObject({ code: 1 });
    expect(polluterRun.out).toMatch(new RegExp(`1\\. shop\\.CartTest\\.${fx.polluter} +passed[\\s\\S]*2\\. shop\\.CartTest\\.${fx.broken} +FAILED`));
    expect(polluterRun.out).toContain('mode was set by a test before this one');
    // The reverse order passes: the command names exactly the order that fails.
    const reverse = victimCommand.replace(/--run-order (\S+) --run-order (\S+)/, '--run-order $2 --run-order $1');
    expect(reverse).not.toBe(victimCommand);
    const reversed = await asPrinted(dir, reverse);
    expect({ code: reversed.code, out: reversed.out, err: reversed.err.slice(-2000) }).toMatchObject({ code: 0 });
    expect(reversed.out).toMatch(new RegExp(`1\\. shop\\.CartTest\\.${fx.victim} +passed[\\s\\S]*2\\. shop\\.CartTest\\.${fx.partner} +passed`));
    expect(reversed.out).toContain('Every test passed in this order.');
  }, 300_000);
});
