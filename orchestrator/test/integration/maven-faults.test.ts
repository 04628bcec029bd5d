// The gate's faults through real Maven and the real CLI process, against a fake verdict API, on a
// single-module reactor (module ":"): a repetition JVM that dies running a candidate
// (System.exit) blocks in enforce, it is the test failing; a cancelled CI job (SIGTERM during the
// stress pass) stops the repetition JVM, writes the report as cancelled, removes the temp folder
// and exits 143; new tests that no repetition JVM can find (dynamic tests generated from data that
// is gone after the build) stop the pass after its first JVMs, with one gate error, not after the
// ceiling; a new test that failed every repetition after passing in the build has what its JVM
// did not reproduce named (a class path folder the build removed), or is said to differ in nothing
// the gate can see (a test that needs its sibling to run first); a test that fails only while its
// copies run side by side passes alone and is reported as timing-sensitive, without blocking.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { access, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { main, realDeps } from '../../src/cli.js';
import { cannedVerdict, startFakeVerdictServer, type FakeVerdictServer } from '../support/fake-verdict-server.js';
import { writeTree } from '../support/fixture-project.js';
import { MVN_ARGS, warmMaven } from '../support/maven-project.js';

const BIN = fileURLToPath(new URL('../../bin/stress-orchestrator.js', import.meta.url));
let server: FakeVerdictServer;
let dir: string;

/** FaultTest: `exits` kills its JVM on its 4th run ever; `sleeps` sleeps 120 s in the stress pass when asked to. */
function faultProject(): Record<string, string> {
  return {
    'pom.xml': `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>dev.stressgate.fixture</groupId>
  <artifactId>faults</artifactId>
  <version>1.0.0</version>
  <properties><project.build.sourceEncoding>UTF-8</project.build.sourceEncoding><maven.compiler.release>17</maven.compiler.release></properties>
  <dependencies>
    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><version>5.14.4</version><scope>test</scope></dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin><artifactId>maven-clean-plugin</artifactId><version>3.4.1</version></plugin>
      <plugin><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
      <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.14.1</version></plugin>
      <plugin>
        <artifactId>maven-surefire-plugin</artifactId><version>3.5.4</version>
        <configuration><systemPropertyVariables><fixture.dir>\${project.basedir}</fixture.dir></systemPropertyVariables></configuration>
      </plugin>
    </plugins>
  </build>
</project>
`,
    'src/test/java/com/shop/FaultTest.java': `package com.shop;
import java.io.File;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;
class FaultTest {
  static int bump(String name) throws Exception {
    File f = new File(System.getProperty("fixture.dir"), name + ".count");
    int n = f.exists() ? Integer.parseInt(new String(Files.readAllBytes(f.toPath())).trim()) : 0;
    Files.write(f.toPath(), String.valueOf(n + 1).getBytes());
    return n;
  }
  @Test void exits() throws Exception { if (bump("exits") == 3) System.exit(3); }
  @Test void sleeps() throws Exception {
    int n = bump("sleeps");
    if (n > 0 && new File(System.getProperty("fixture.dir"), "sleep-on-stress").exists()) {
      Files.write(new File(System.getProperty("fixture.dir"), "sleeping").toPath(), new byte[0]);
      Thread.sleep(120_000);
    }
  }
}
`,
    // Holds a lock file for a second: a copy of it running at the same time in another JVM fails.
    'src/test/java/com/shop/LockTest.java': `package com.shop;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import java.io.File;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
class LockTest {
  @Test void holdsTheLedger() throws Exception {
    File f = new File(System.getProperty("fixture.dir"), "ledger.lock");
    try (FileChannel ch = FileChannel.open(f.toPath(), StandardOpenOption.CREATE, StandardOpenOption.WRITE); FileLock lock = ch.tryLock()) {
      assertNotNull(lock, "the ledger is held by another process");
      Thread.sleep(1000);
    }
  }
}
`,
    // Passes only after its class's other test (in method-name order) set what it reads.
    'src/test/java/com/shop/OrderedTest.java': `package com.shop;
import static org.junit.jupiter.api.Assertions.assertTrue;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
@TestMethodOrder(MethodOrderer.MethodName.class)
class OrderedTest {
  static boolean warmed;
  @Test void a_warms() { warmed = true; }
  @Test void b_needsWarm() { assertTrue(warmed, "nothing warmed the cache"); }
}
`,
    // Dynamic tests generated from data that only the build's JVM had (the first JVM to load the
    // class consumes it): a repetition's factory yields none, so no repetition can find its test.
    'src/test/java/com/shop/GeneratedCasesTest.java': `package com.shop;
import java.io.File;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
class GeneratedCasesTest {
  private static final boolean DATA = !new File(System.getProperty("fixture.dir"), "generated").exists();
  static { try { new File(System.getProperty("fixture.dir"), "generated").createNewFile(); } catch (Exception e) { throw new RuntimeException(e); } }
  static Stream<DynamicTest> cases(String name) { return IntStream.range(0, DATA ? 2 : 0).mapToObj(i -> DynamicTest.dynamicTest(name + i, () -> { })); }
  @TestFactory Stream<DynamicTest> prices() { return cases("price"); }
  @TestFactory Stream<DynamicTest> taxes() { return cases("tax"); }
  @TestFactory Stream<DynamicTest> discounts() { return cases("discount"); }
  @TestFactory Stream<DynamicTest> refunds() { return cases("refund"); }
  @TestFactory Stream<DynamicTest> vouchers() { return cases("voucher"); }
}
`,
  };
}

/**
 * A build whose `package` removes a class path folder its test reads (target/fixture-cp, copied at
 * process-test-resources, put on the fork's class path with -Dmaven.test.additionalClasspath,
 * deleted at prepare-package): the new test fails every repetition after passing in the build.
 */
function mismatchProject(): Record<string, string> {
  return {
    'pom.xml': `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>dev.stressgate.fixture</groupId>
  <artifactId>mismatch</artifactId>
  <version>1.0.0</version>
  <properties><project.build.sourceEncoding>UTF-8</project.build.sourceEncoding><maven.compiler.release>17</maven.compiler.release></properties>
  <dependencies>
    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><version>5.14.4</version><scope>test</scope></dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.14.1</version></plugin>
      <plugin><artifactId>maven-surefire-plugin</artifactId><version>3.5.4</version></plugin>
      <plugin><artifactId>maven-jar-plugin</artifactId><version>3.4.2</version></plugin>
      <plugin>
        <artifactId>maven-resources-plugin</artifactId><version>3.3.1</version>
        <executions><execution><id>fixture-cp</id><phase>process-test-resources</phase><goals><goal>copy-resources</goal></goals>
          <configuration><outputDirectory>\${project.build.directory}/fixture-cp</outputDirectory><resources><resource><directory>fixtures</directory></resource></resources></configuration>
        </execution></executions>
      </plugin>
      <plugin>
        <artifactId>maven-clean-plugin</artifactId><version>3.4.1</version>
        <executions><execution><id>drop-fixture-cp</id><phase>prepare-package</phase><goals><goal>clean</goal></goals>
          <configuration><excludeDefaultDirectories>true</excludeDefaultDirectories><filesets><fileset><directory>\${project.build.directory}/fixture-cp</directory></fileset></filesets></configuration>
        </execution></executions>
      </plugin>
    </plugins>
  </build>
</project>
`,
    'fixtures/shop.properties': 'currency=EUR\n',
    'src/test/java/com/shop/PricingTest.java': `package com.shop;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import org.junit.jupiter.api.Test;
class PricingTest {
  @Test void readsItsCurrency() { assertNotNull(getClass().getResource("/shop.properties"), "shop.properties is not on the class path"); }
}
`,
  };
}

/** The suite whose tests the fake verdict names new. */
let newSuite = 'com.shop.FaultTest';

beforeAll(async () => {
  await warmMaven();
  dir = await writeTree(faultProject());
  server = await startFakeVerdictServer((posted) => cannedVerdict(posted, (p) => newSuite.split('|').includes(p.suite)));
}, 600_000);
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

async function reset(sleepOnStress: boolean) {
  for (const f of ['exits.count', 'sleeps.count', 'sleeping', 'sleep-on-stress', 'generated', 'ledger.lock']) await rm(path.join(dir, f), { force: true });
  if (sleepOnStress) await writeFile(path.join(dir, 'sleep-on-stress'), '');
}

// One repetition JVM at a time: the fixture's counters are not locked, so JVMs side by side could
// both read the same count (and `exits` would never see its 4th run).
const baseEnv = () => ({ ...process.env, STRESS_GATE_URL: server.url, STRESS_GATE_PROJECT: 'shop', STRESS_GATE_TOKEN: 'secret', STRESS_GATE_LOG_LEVEL: 'warn', GITHUB_STEP_SUMMARY: '', STRESS_GATE_PARALLEL_JVMS: '1' });

describe('faults through real Maven', () => {
  it('a repetition JVM that died running a candidate (System.exit) is that candidate failing, and blocks in enforce', async () => {
    await reset(false);
    const out: string[] = [];
    const code = await main(['mvn', ...MVN_ARGS, 'test', '--stress-new-tests', 'enforce'], { ...realDeps(baseEnv()), cwd: dir, out: (t) => out.push(t), err: () => undefined });
    const report = JSON.parse(await readFile(path.join(dir, 'target/stress-gate/report.json'), 'utf8'));
    expect(code).toBe(1);
    const exits = report.candidates.find((c: { name: string }) => c.name === 'exits');
    expect(exits).toMatchObject({ module: ':', outcome: 'failed', crashed: 1, failures: 1 });
    expect(exits.recorded[2]).toEqual({ repetition: 3, status: 'failure', durationMs: 0, crashed: true });
    // Why: its JVM exited with code 3 (System.exit), no crash file.
    expect(exits.evidence.failures).toEqual([expect.objectContaining({ repetition: 3, kind: 'crash', exitCode: 3, signal: null, hsErrFile: null })]);
    expect(out.join('')).toContain('     its JVM exited with code 3\n');
    // The root module is ":", which the report leaves out before the class.
    expect(out.join('')).toContain('\n  FaultTest.exits    10 repetitions, 1 failed (its JVM died once)\n');
    expect(report).toMatchObject({ outcome: 'failed', blocked: true });
  }, 600_000);

  it('SIGTERM during the stress pass: the repetition JVM stopped, report "cancelled", temp folder removed, exit 143', async () => {
    await reset(true);
    const tmp = await mkdtemp(path.join(os.tmpdir(), 'stress-gate-signal-'));
    const child = spawn(process.execPath, [BIN, 'mvn', ...MVN_ARGS, 'test', '--stress-new-tests', 'enforce'], { cwd: dir, env: { ...baseEnv(), TMPDIR: tmp }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const deadline = Date.now() + 300_000;
    while (!(await access(path.join(dir, 'sleeping')).then(() => true, () => false))) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the test never started sleeping: ${stdout}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    const report = JSON.parse(await readFile(path.join(dir, 'target/stress-gate/report.json'), 'utf8'));
    expect(report).toMatchObject({ outcome: 'cancelled', stop: { kind: 'cancelled', signal: 'SIGTERM' }, exitCode: 143, blocked: false });
    expect(stdout).toContain('Cancelled by SIGTERM');
    expect((await readdir(tmp)).filter((n) => n.startsWith('stress-gate-'))).toEqual([]);
    await rm(tmp, { recursive: true, force: true });
  }, 600_000);

  it('new tests no repetition JVM can find: the pass stops after its first JVMs with one gate error, says why once, and never blocks', async () => {
    await reset(false);
    newSuite = 'com.shop.GeneratedCasesTest';
    try {
      const out: string[] = [];
      const started = Date.now();
      const code = await main(['mvn', ...MVN_ARGS, 'test', '--stress-new-tests', 'enforce'], { ...realDeps(baseEnv()), cwd: dir, out: (t) => out.push(t), err: () => undefined });
      const report = JSON.parse(await readFile(path.join(dir, 'target/stress-gate/report.json'), 'utf8'));
      const text = out.join('').replace(/\n {3}/g, ' ');
      // Fails open: the first pass's exit code, the outcome incomplete, nothing passed, nothing blocked.
      expect({ code, outcome: report.outcome, blocked: report.blocked }).toEqual({ code: 0, outcome: 'incomplete', blocked: false });
      expect(report.candidates).toHaveLength(10);
      expect(report.candidates.every((c: { outcome: string }) => c.outcome === 'error')).toBe(true);
      // Five methods, two new dynamic tests each: five groups; the first three JVMs found none, and the pass stopped.
      const cause = 'the JUnit Platform found no such test; test engines on the class path: junit-jupiter 5.14.4';
      expect(report.stressPass).toMatchObject({ jvms: 3, halted: { cause, targets: 3 }, cut: false });
      expect(text).toContain(`The stress pass stopped early: its first 3 JVMs ran none of their tests, all for one reason: ${cause}.`);
      expect(text).toContain('The other 4 new test cases were not run');
      // One line per method, not per dynamic test; no line per repetition.
      expect(text).toMatch(/GeneratedCasesTest\.discounts\(\) +2 invocations, 10 repetitions each, 2 not stressed \(gate error: the JUnit Platform found no such test/);
      expect(report.problems).toEqual([]);
      // Seconds, not the ten minutes of the ceiling.
      expect(report.stressPass.wallClockMs).toBeLessThan(60_000);
      console.log(`maven-faults: a pass that could not find its tests stopped after ${report.stressPass.jvms} JVMs, ${Math.round(report.stressPass.wallClockMs / 100) / 10} s (${Math.round((Date.now() - started) / 1000)} s with the build)`);
    } finally {
      newSuite = 'com.shop.FaultTest';
    }
  }, 600_000);

  it('a new test that failed every repetition after passing in the build: what its JVM did not reproduce is named (a gate error), or that nothing differs (a failure)', async () => {
    const project = await writeTree(mismatchProject());
    try {
      newSuite = 'com.shop.PricingTest';
      const out: string[] = [];
      const code = await main(['mvn', ...MVN_ARGS, `-Dmaven.test.additionalClasspath=${path.join(project, 'target', 'fixture-cp')}`, 'package', '--stress-new-tests', 'enforce'], { ...realDeps(baseEnv()), cwd: project, out: (t) => out.push(t), err: () => undefined });
      const report = JSON.parse(await readFile(path.join(project, 'target/stress-gate/report.json'), 'utf8'));
      // The folder the build removed after its tests: named, a gate error, never a block.
      const gone = path.join(project, 'target', 'fixture-cp');
      expect(report.candidates[0]).toMatchObject({ name: 'readsItsCurrency', outcome: 'error', failures: 10, mismatch: [`class path entry ${JSON.stringify(gone)} no longer exists (removed after the build ran)`] });
      expect(out.join('').replace(/\n {3}/g, ' ')).toContain(`PricingTest.readsItsCurrency It failed every repetition although it passed in the build, and its repetitions' JVM differed from the build's: class path entry ${JSON.stringify(gone)} no longer exists (removed after the build ran).`);
      expect({ code, outcome: report.outcome, blocked: report.blocked }).toEqual({ code: 0, outcome: 'incomplete', blocked: false });

      // Passed only after its class's other test: the JVM is the build's, so the test failed, and the report says where to look.
      await reset(false);
      newSuite = 'com.shop.OrderedTest';
      const ordered: string[] = [];
      const orderedCode = await main(['mvn', ...MVN_ARGS, 'test', '--stress-new-tests', 'enforce'], { ...realDeps(baseEnv()), cwd: dir, out: (t) => ordered.push(t), err: () => undefined });
      const orderedReport = JSON.parse(await readFile(path.join(dir, 'target/stress-gate/report.json'), 'utf8'));
      const byName = (n: string) => orderedReport.candidates.find((c: { name: string }) => c.name === n);
      expect(byName('a_warms')).toMatchObject({ outcome: 'passed' });
      expect(byName('b_needsWarm')).toMatchObject({ outcome: 'failed', failures: 10, mismatch: [] });
      expect(ordered.join('').replace(/\n {3}/g, ' ')).toContain('it may depend on a test that ran before it in the build\'s JVM');
      expect({ code: orderedCode, blocked: orderedReport.blocked }).toEqual({ code: 1, blocked: true });
    } finally {
      newSuite = 'com.shop.FaultTest';
      await rm(project, { recursive: true, force: true });
    }
  }, 600_000);

  it('a new test that fails only while its copies run side by side: passed alone, reported as timing-sensitive with what failed, not blocking', async () => {
    await reset(false);
    newSuite = 'com.shop.LockTest';
    try {
      const out: string[] = [];
      const code = await main(['mvn', ...MVN_ARGS, 'test', '--stress-new-tests', 'enforce'], { ...realDeps({ ...baseEnv(), STRESS_GATE_PARALLEL_JVMS: '2' }), cwd: dir, out: (t) => out.push(t), err: () => undefined });
      const report = JSON.parse(await readFile(path.join(dir, 'target/stress-gate/report.json'), 'utf8'));
      const lock = report.candidates[0];
      expect(lock).toMatchObject({ name: 'holdsTheLedger', outcome: 'passed', failures: 0, timingSensitive: { repetitions: 10 } });
      expect(lock.timingSensitive.failures).toBeGreaterThan(0);
      expect(lock.timingSensitive.evidence.failures[0].message).toContain('the ledger is held by another process');
      const text = out.join('').replace(/\n {3}/g, ' ');
      expect(text).toMatch(/LockTest\.holdsTheLedger +10 repetitions, passed alone, failed \d+ of 10 side by side: timing-sensitive/);
      expect(text).toContain('it passed all 10 repetitions run again alone, so it does not block this merge request');
      expect(text).toContain('--stress-tests com.shop.LockTest.holdsTheLedger --repetitions 50');
      // Every JVM counted: ten side by side, ten again alone.
      expect(report.stressPass).toMatchObject({ jvms: 20, jvmsAlone: 10, confirmedAlone: 1 });
      expect({ code, blocked: report.blocked }).toEqual({ code: 0, blocked: false });
    } finally {
      newSuite = 'com.shop.FaultTest';
    }
  }, 600_000);
});
