// Failsafe through real parts: a one-module Maven build whose integration tests (`*IT`) run under
// maven-failsafe-plugin in `mvn verify` (Failsafe 3.5.4, the version family of the Surefire the
// examples use), the real CLI process and the real verdict API (embedded chDB). The feature branch
// adds a stable IT that passes only in a JVM set up as the Failsafe fork (argLine, system
// property, environment), an IT that is flaky across processes only, and a new invocation of an
// old parameterised IT. Exactly those invocations are stressed, with the Failsafe fork's
// configuration; the flaky one is caught: report exits 0, enforce 1.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { gitlabCiEnv } from '../support/ci-env.js';
import { writeTree } from '../support/fixture-project.js';
import { startVerdictApi, type VerdictApiProcess } from '../support/verdict-api-process.js';

const BIN = fileURLToPath(new URL('../../bin/stress-orchestrator.js', import.meta.url));
const MVN = ['-o', '-q', '-B', '-Dsurefire.printSummary=false', '-Dfailsafe.printSummary=false'];
const PKG = 'dev/stressgate/fixture';
let api: VerdictApiProcess;
let dir: string;
let tmp: string;

const POM = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>dev.stressgate.fixture</groupId>
  <artifactId>failsafe-module</artifactId>
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
      <plugin><artifactId>maven-jar-plugin</artifactId><version>3.4.2</version></plugin>
      <plugin><artifactId>maven-surefire-plugin</artifactId><version>3.5.4</version></plugin>
      <plugin>
        <artifactId>maven-failsafe-plugin</artifactId>
        <version>3.5.4</version>
        <!-- The Failsafe fork's own configuration, which every stress repetition must reproduce. -->
        <configuration>
          <argLine>-Dit.fromArgLine=yes -Xmx200m</argLine>
          <systemPropertyVariables><it.dir>\${project.build.directory}/it-state</it.dir></systemPropertyVariables>
          <environmentVariables><IT_ENV>from-failsafe</IT_ENV></environmentVariables>
        </configuration>
        <executions>
          <execution><goals><goal>integration-test</goal><goal>verify</goal></goals></execution>
        </executions>
      </plugin>
    </plugins>
  </build>
</project>
`;

/** The default branch: one unit test (Surefire) and two ITs (Failsafe), one parameterised. */
function defaultBranch(): Record<string, string> {
  return {
    'pom.xml': POM,
    [`src/main/java/${PKG}/Clock.java`]: `package dev.stressgate.fixture;
public class Clock { public int hours() { return 24; } }
`,
    [`src/test/java/${PKG}/ClockTest.java`]: `package dev.stressgate.fixture;
import static org.junit.jupiter.api.Assertions.assertEquals;
import org.junit.jupiter.api.Test;
class ClockTest { @Test void hasHours() { assertEquals(24, new Clock().hours()); } }
`,
    [`src/test/java/${PKG}/ServerIT.java`]: `package dev.stressgate.fixture;
import static org.junit.jupiter.api.Assertions.assertTrue;
import org.junit.jupiter.api.Test;
class ServerIT { @Test void starts() { assertTrue(new Clock().hours() > 0); } }
`,
    [`src/test/java/${PKG}/RangeIT.java`]: rangeIt('1, 2'),
  };
}

function rangeIt(values: string): string {
  return `package dev.stressgate.fixture;
import static org.junit.jupiter.api.Assertions.assertTrue;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
class RangeIT {
  @ParameterizedTest @ValueSource(ints = { ${values} })
  void inRange(int h) { assertTrue(h > 0 && h <= new Clock().hours()); }
}
`;
}

/** The feature branch: a stable IT that needs the Failsafe fork's setup, a cross-process flake, RangeIT's [3]. */
function featureBranch(): Record<string, string> {
  return {
    [`src/test/java/${PKG}/RangeIT.java`]: rangeIt('1, 2, 3'),
    [`src/test/java/${PKG}/ForkSetupIT.java`]: `package dev.stressgate.fixture;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import org.junit.jupiter.api.Test;
/** Passes only in a JVM set up as Failsafe sets up its fork: argLine, system property, environment, working directory. */
class ForkSetupIT {
  @Test void seesTheFailsafeFork() {
    assertEquals("yes", System.getProperty("it.fromArgLine"));
    assertTrue(System.getProperty("it.dir", "").endsWith("it-state"), "it.dir");
    assertEquals("from-failsafe", System.getenv("IT_ENV"));
    assertTrue(new java.io.File("pom.xml").isFile(), "the working directory is the module");
  }
}
`,
    [`src/test/java/${PKG}/CounterIT.java`]: `package dev.stressgate.fixture;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;
/** Flaky across processes only: counts its runs in a file under it.dir (cleaned by mvn clean) and fails every third. */
class CounterIT {
  @Test void failsEveryThirdRun() throws Exception {
    Path dir = Paths.get(System.getProperty("it.dir"));
    Files.createDirectories(dir);
    Path counter = dir.resolve("CounterIT.count");
    int n = Files.exists(counter) ? Integer.parseInt(Files.readString(counter).trim()) + 1 : 1;
    Files.writeString(counter, String.valueOf(n));
    assertNotEquals(0, n % 3, "run " + n);
  }
}
`,
  };
}

beforeAll(async () => {
  dir = await writeTree(defaultBranch(), 'stress-gate-failsafe-');
  tmp = await mkdtemp(path.join(os.tmpdir(), 'stress-gate-failsafe-tmp-'));
  // Resolves Failsafe and its providers into ~/.m2 once (online); the CI jobs below run -o.
  const warm = await execa('mvn', ['-q', '-B', 'verify'], { cwd: dir, reject: false, stdin: 'ignore' });
  if (warm.exitCode !== 0) throw new Error(`warming ~/.m2 for Failsafe failed (mvn exit ${warm.exitCode}):\n${String(warm.stdout).slice(-3000)}`);
  api = await startVerdictApi();
}, 600_000);
afterAll(async () => {
  await api?.stop();
  await rm(dir, { recursive: true, force: true });
  await rm(tmp, { recursive: true, force: true });
});

/** One CI job: `stress-orchestrator mvn -o … clean verify` as a process (its TMPDIR is this test's). */
async function ciJob(branch: string, mode: string, extraEnv: Record<string, string> = {}) {
  // One repetition JVM at a time: the counter IT's failures then fall on exact repetitions (in
  // parallel, the candidate that failed side by side runs again alone, a later stretch of the count).
  const env = { ...gitlabCiEnv(branch, mode, api), TMPDIR: tmp, STRESS_GATE_PARALLEL_JVMS: '1', ...extraEnv };
  const r = await execa(process.execPath, [BIN, 'mvn', ...MVN, 'clean', 'verify'], { cwd: dir, env, extendEnv: false, reject: false, stdin: 'ignore' });
  const report = JSON.parse(await readFile(path.join(dir, 'target/stress-gate/report.json'), 'utf8'));
  return { code: r.exitCode, out: String(r.stdout).replace(/\n {3}/g, ' '), err: String(r.stderr), report };
}

/** Every repetition JVM's request and results, kept under target/stress-gate/repetitions/. */
async function stressFiles(): Promise<{ requests: string[]; ran: string[] }> {
  const requests: string[] = [];
  const ran: string[] = [];
  const root = path.join(dir, 'target', 'stress-gate', 'repetitions');
  for (const candidate of await readdir(root)) {
    for (const rep of await readdir(path.join(root, candidate))) {
      requests.push(await readFile(path.join(root, candidate, rep, 'request.txt'), 'utf8'));
      const text = await readFile(path.join(root, candidate, rep, 'results.jsonl'), 'utf8');
      for (const line of text.trim().split('\n')) if (JSON.parse(line).event === 'finished') ran.push(JSON.parse(line).legacyName);
    }
  }
  return { requests, ran };
}

const NEW = [
  [':integration-test', 'dev.stressgate.fixture.CounterIT', 'failsEveryThirdRun'],
  [':integration-test', 'dev.stressgate.fixture.ForkSetupIT', 'seesTheFailsafeFork'],
  [':integration-test', 'dev.stressgate.fixture.RangeIT', 'inRange(int)[3]'],
];

describe('the gate on Failsafe integration tests: real Maven (mvn verify), real verdict API', () => {
  it('records Failsafe results under their own module on the default branch', async () => {
    const r = await ciJob('main', 'report');
    expect(r.code).toBe(0);
    expect(r.report).toMatchObject({ outcome: 'no_candidates', exitCode: 0, firstPass: { testCases: 4 } });
    const res = await fetch(`${api.url}/api/v1/projects/${api.project}/runs/${r.report.runId}`, { headers: { Authorization: `Bearer ${api.token}` } });
    const run = (await res.json()) as { testCases: { module: string; suite: string; name: string; status: string }[] };
    expect(run.testCases.map((t) => `${t.module} ${t.suite.replace('dev.stressgate.fixture.', '')} ${t.name} ${t.status}`).sort()).toEqual([
      ': ClockTest hasHours success',
      ':integration-test RangeIT inRange(int)[1] success',
      ':integration-test RangeIT inRange(int)[2] success',
      ':integration-test ServerIT starts success',
    ]);
  }, 600_000);

  it('stresses exactly the new IT invocations in fresh JVMs set up like the Failsafe fork and reports the cross-process flake (report: exit 0)', async () => {
    for (const [rel, text] of Object.entries(featureBranch())) await writeFile(path.join(dir, rel), text);
    const r = await ciJob('feature/its', 'report', { STRESS_GATE_KEEP_TEMP: '1' });
    expect(r.code).toBe(0);
    expect(r.report.candidates.map((c: { module: string; suite: string; name: string }) => [c.module, c.suite, c.name])).toEqual(NEW);
    for (const c of r.report.candidates) {
      if (c.name === 'failsEveryThirdRun') expect(c.recorded.map((x: { status: string }) => x.status[0]).join('')).toBe('sfssfssfss');
      else expect(c).toMatchObject({ outcome: 'passed', failures: 0 });
      expect(c.recorded).toHaveLength(10);
    }
    expect(r.out).toMatch(/:integration-test CounterIT\.failsEveryThirdRun +10 repetitions, 3 failed\n/);
    expect(r.out.replace(/\n {3}/g, ' ')).toContain('CounterIT.failsEveryThirdRun failed 3 of 10 repetitions and would have blocked this merge request.');
    expect(r.report).toMatchObject({ mode: 'report', outcome: 'failed', blocked: false, wouldHaveBlocked: true, exitCode: 0 });
    const { requests, ran } = await stressFiles();
    // Exactly the new invocations, ten times each: never ServerIT, RangeIT [1]/[2] or the unit test.
    expect([...new Set(ran)].sort()).toEqual(['failsEveryThirdRun()', 'inRange(int)[3]', 'seesTheFailsafeFork()']);
    expect(ran).toHaveLength(30);
    // One JVM per candidate and repetition; each got the Failsafe fork's system property (and
    // ForkSetupIT passing shows its argLine and environment).
    expect(requests).toHaveLength(30);
    for (const q of requests) expect(q).toMatch(/^property it\.dir=.*it-state$/m);
  }, 600_000);

  it('blocks in enforce mode with the exit code of a failed test run', async () => {
    const r = await ciJob('feature/its', 'enforce');
    expect(r.code).toBe(1);
    expect(r.out.replace(/\n {3}/g, ' ')).toContain(' ! CounterIT.failsEveryThirdRun failed 3 of 10 repetitions and blocked this merge request.');
    expect(r.report).toMatchObject({ mode: 'enforce', outcome: 'failed', blocked: true, exitCode: 1 });
  }, 600_000);
});
