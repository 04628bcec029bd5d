// JUnit Platform identities under Gradle, through real parts: Debian's Gradle 4.4.1 (which has no
// useJUnitPlatform()) running JUnit 5 tests through JUnit 4's `@RunWith(JUnitPlatform.class)`
// runner (jars from ~/.m2 in a files(...) dependency), the real plugin, the real CLI process and
// the real verdict API (embedded chDB). The runner starts the platform launcher, which
// service-loads the stress gate's listener that the plugin put into the test JVM; the uploaded
// identities are then the ones Maven gives (class, legacy reporting name), where Gradle's own XML
// mangles them. A plain JUnit 4 project of the same build is left alone.
// Not covered here: Gradle 4.6+ with useJUnitPlatform() (not installable on this machine). The
// stress pass selects the new invocation by unique ID in the direct executor.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { access, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { gitlabCiEnv } from '../support/ci-env.js';
import { writeTree } from '../support/fixture-project.js';
import { PLATFORM_JARS } from '../support/gradle-jars.js';
import { startVerdictApi, type VerdictApiProcess } from '../support/verdict-api-process.js';

const BIN = fileURLToPath(new URL('../../bin/stress-orchestrator.js', import.meta.url));
const M2 = path.join(os.homedir(), '.m2', 'repository');
// The JUnit 4 runner of the platform and Jupiter (test/support/gradle-jars.ts), and Jupiter's parameterized tests.
const JARS = [...PLATFORM_JARS, 'org/junit/jupiter/junit-jupiter-params/5.13.4/junit-jupiter-params-5.13.4.jar'].map((j) => path.join(M2, j));
const JUNIT4 = ['/usr/share/java/junit4.jar', '/usr/share/java/hamcrest-core.jar'];
const groovyFiles = (files: string[]) => `files(${files.map((f) => `'${f}'`).join(', ')})`;

let api: VerdictApiProcess;
let dir: string;
let tmp: string;

function additionTest(values: string): string {
  return `package com.shop;
import static org.junit.jupiter.api.Assertions.assertEquals;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.platform.runner.JUnitPlatform;
import org.junit.runner.RunWith;
@RunWith(JUnitPlatform.class)
public class AdditionTest {
  @ParameterizedTest(name = "{0} + {1} = {2}")
  @CsvSource({ ${values} })
  void adds(int a, int b, int sum) { assertEquals(sum, a + b); }
  @Test @DisplayName("zero is neutral ✓") void zero() { assertEquals(1, 1 + 0); }
  @Nested class Negative { @Test void negates() { assertEquals(-1, 0 - 1); } }
}
`;
}

function project(): Record<string, string> {
  return {
    'settings.gradle': "include 'app', 'legacy'\n",
    'build.gradle': `subprojects {
  apply plugin: 'java'
  sourceCompatibility = '1.8'
  targetCompatibility = '1.8'
}
`,
    'app/build.gradle': `dependencies { testCompile ${groovyFiles([...JUNIT4, ...JARS])} }\n`,
    'app/src/test/java/com/shop/AdditionTest.java': additionTest('"1, 1, 2", "2, 2, 4"'),
    'legacy/build.gradle': `dependencies { testCompile ${groovyFiles(JUNIT4)} }\n`,
    'legacy/src/test/java/com/lib/OldTest.java': `package com.lib;
import org.junit.Test;
import static org.junit.Assert.assertTrue;
public class OldTest { @Test public void works() { assertTrue(true); } }
`,
  };
}

/** Resolves the pinned jars into ~/.m2 with Maven, online, when any is missing (once per machine). */
async function warmJars(): Promise<void> {
  const missing = async () => (await Promise.all(JARS.map((j) => access(j).then(() => false, () => true)))).some(Boolean);
  if (!(await missing())) return;
  for (const artifact of ['org.junit.platform:junit-platform-runner:1.13.4', 'org.junit.jupiter:junit-jupiter-engine:5.13.4', 'org.junit.jupiter:junit-jupiter-params:5.13.4']) {
    const r = await execa('mvn', ['-q', '-B', 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1:get', `-Dartifact=${artifact}`], { reject: false, stdin: 'ignore' });
    if (r.exitCode !== 0) throw new Error(`resolving ${artifact} into ~/.m2 failed (mvn exit ${r.exitCode}):\n${String(r.stdout).slice(-2000)}`);
  }
  if (await missing()) throw new Error(`still missing from ~/.m2: ${JARS.join(', ')}`);
}

beforeAll(async () => {
  await warmJars();
  api = await startVerdictApi();
  dir = await writeTree(project(), 'stress-gate-platform44-');
  tmp = await mkdtemp(path.join(os.tmpdir(), 'stress-gate-platform44-tmp-'));
}, 120_000);
afterAll(async () => {
  await api?.stop();
  await rm(dir, { recursive: true, force: true });
  await rm(tmp, { recursive: true, force: true });
});

/** One CI job: the CLI as a process (its TMPDIR is this test's, its temp folder kept). */
async function ciJob(branch: string, mode: string) {
  const env = { ...gitlabCiEnv(branch, mode, api), TMPDIR: tmp, STRESS_GATE_KEEP_TEMP: '1' };
  const r = await execa(process.execPath, [BIN, 'gradle', '--offline', '-q', 'cleanTest', 'test'], { cwd: dir, env, extendEnv: false, reject: false, stdin: 'ignore' });
  const report = JSON.parse(await readFile(path.join(dir, 'build/stress-gate/report.json'), 'utf8'));
  return { code: r.exitCode, out: String(r.stdout), err: String(r.stderr), report };
}

async function runCases(runId: string): Promise<string[]> {
  const res = await fetch(`${api.url}/api/v1/projects/${api.project}/runs/${runId}`, { headers: { Authorization: `Bearer ${api.token}` } });
  const run = (await res.json()) as { testCases: { module: string; suite: string; name: string; status: string }[] };
  return run.testCases.map((t) => `${t.module} ${t.suite} ${t.name} ${t.status}`).sort();
}

describe('JUnit Platform identities on Gradle 4.4 (JUnit 4\'s JUnitPlatform runner): real Gradle, real verdict API', () => {
  it('uploads the platform\'s identities (class, legacy reporting name) where Gradle\'s XML mangles them; a JUnit 4 project is left alone', async () => {
    const r = await ciJob('main', 'report');
    expect(r.code).toBe(0);
    expect(r.report).toMatchObject({ outcome: 'no_candidates', firstPass: { testCases: 5 } });
    // What Gradle 4.4 itself wrote for the platform's tests: not a usable identity.
    const xml = await readFile(path.join(dir, 'app/build/test-results/test/TEST-Negative.xml'), 'utf8');
    expect(xml).toContain('classname="Negative"');
    expect(await runCases(r.report.runId)).toEqual([
      ':app com.shop.AdditionTest adds(int, int, int)[1] success',
      ':app com.shop.AdditionTest adds(int, int, int)[2] success',
      ':app com.shop.AdditionTest zero success',
      ':app com.shop.AdditionTest$Negative negates success',
      ':legacy com.lib.OldTest works success',
    ]);
    expect(r.err).toContain(':app:test: its JUnit XML does not carry the JUnit Platform\'s class and test names');
    // The plugin wrote platform logs for :app:test only: :legacy:test has no launcher on its classpath.
    const work = (await readdir(tmp)).filter((n) => n.startsWith('stress-gate-'));
    expect(work).toHaveLength(1);
    expect(await readdir(path.join(tmp, work[0]!, 'manifest.platform'))).toEqual(['app_test']);
  }, 300_000);

  it('a new invocation is the only new identity, and the direct executor stresses exactly it by unique ID', async () => {
    await writeFile(path.join(dir, 'app/src/test/java/com/shop/AdditionTest.java'), additionTest('"1, 1, 2", "2, 2, 4", "3, 3, 6"'));
    const r = await ciJob('feature/adds', 'report');
    expect(r.code).toBe(0);
    expect(r.report.candidates.map((c: { module: string; suite: string; name: string }) => `${c.module} ${c.suite} ${c.name}`)).toEqual([':app com.shop.AdditionTest adds(int, int, int)[3]']);
    // Selected by the unique ID the listener recorded (Gradle 4.4's XML mangles its names): each
    // repetition ran exactly that invocation, in a fresh JVM of its own.
    expect(r.report.candidates[0]).toMatchObject({ outcome: 'passed', failures: 0, expected: 10 });
    expect(r.report.candidates[0].recorded).toHaveLength(10);
    expect(r.report).toMatchObject({ outcome: 'passed', problems: [], stressPass: { executor: 'direct', fallback: null } });
    const folders = await readdir(path.join(dir, 'build/stress-gate/repetitions'));
    expect(folders).toHaveLength(1);
    expect((await readdir(path.join(dir, 'build/stress-gate/repetitions', folders[0]!))).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `rep-${i + 1}`).sort());
    const request = await readFile(path.join(dir, 'build/stress-gate/repetitions', folders[0]!, 'rep-1', 'request.txt'), 'utf8');
    expect(request).toMatch(/^kind platform\n/);
    expect(request).toContain('select [engine:junit-jupiter]/[class:com.shop.AdditionTest]/[test-template:adds(int, int, int)]/[test-template-invocation:#3]');
  }, 300_000);
});
