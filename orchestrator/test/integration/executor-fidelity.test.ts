// Fidelity before speed: the same probe test under both executors (direct: the orchestrator's own
// JVMs; gradle: one Test task per repetition), through real Gradle 4.4 and the real plugin, for
// every runner kind: JUnit 4, TestNG, and the JUnit Platform (through JUnit 4's JUnitPlatform
// runner, which Gradle 4.4's own filter cannot select: the direct executor against the first pass). Every
// repetition JVM writes what it observes (system properties and JVM arguments set on the Test task,
// an environment variable, the working directory, a Java agent, a test-classpath resource, the
// java executable, a relative write); both executors must observe exactly the same thing, and the
// same as the first pass. Also: a test that writes a fixed relative file is not reported flaky
// because the direct executor ran its repetitions side by side.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { main, realDeps } from '../../src/cli.js';
import { cannedVerdict, startFakeVerdictServer, type FakeVerdictServer } from '../support/fake-verdict-server.js';
import { writeTree } from '../support/fixture-project.js';
import { gradleFiles, PLATFORM_JARS, TESTNG_JARS, warmGradleJars } from '../support/gradle-jars.js';

const JUNIT4 = ['/usr/share/java/junit4.jar', '/usr/share/java/hamcrest-core.jar'];
const JUNIT = gradleFiles(JUNIT4);

/** The runner kinds of the fidelity check. */
type Kind = 'junit4' | 'testng' | 'platform';
const KIND: Record<Kind, { dependencies: string; framework: string; imports: string; header: string }> = {
  junit4: { dependencies: JUNIT, framework: '', imports: 'import org.junit.Test;', header: '' },
  testng: { dependencies: gradleFiles(TESTNG_JARS), framework: '  useTestNG()\n', imports: 'import org.testng.annotations.Test;', header: '' },
  platform: {
    dependencies: gradleFiles([...JUNIT4, ...PLATFORM_JARS]),
    framework: '',
    imports: 'import org.junit.jupiter.api.Test;\nimport org.junit.platform.runner.JUnitPlatform;\nimport org.junit.runner.RunWith;',
    header: '@RunWith(JUnitPlatform.class)\n',
  },
};

/** The probe project for `kind`: the same probe test in that framework (the fixed-file test is JUnit 4's). */
function probeProject(kind: Kind): Record<string, string> {
  const k = KIND[kind];
  const tree = { ...PROBE };
  tree['app/build.gradle'] = tree['app/build.gradle']!.replace('testCompile JUNIT', `testCompile ${k.dependencies}`).replace('test {\n', `test {\n${k.framework}`);
  tree['app/src/test/java/com/probe/ProbeTest.java'] = tree['app/src/test/java/com/probe/ProbeTest.java']!.replace('import org.junit.Test;', k.imports).replace('public class ProbeTest', `${k.header}public class ProbeTest`).replace('@Test public void observes()', kind === 'platform' ? '@Test void observes()' : '@Test public void observes()');
  if (kind !== 'junit4') delete tree['app/src/test/java/com/probe/FixedFileTest.java'];
  return tree;
}

const PROBE: Record<string, string> = {
  'settings.gradle': "rootProject.name = 'fidelity'\ninclude 'app'\n",
  'build.gradle': '',
  'agent/ProbeAgent.java': `public class ProbeAgent {
  public static void premain(String args) { System.setProperty("probe.agent", "loaded:" + args); }
}
`,
  'agent/MANIFEST.MF': 'Premain-Class: ProbeAgent\n',
  'app/build.gradle': `apply plugin: 'java'
dependencies { testCompile JUNIT }
test {
  systemProperty 'probe.flag', 'from-task'
  systemProperty 'probe.out', rootProject.file('observations').absolutePath
  jvmArgs '-XX:+UseSerialGC', '-Dprobe.jvmarg=yes', "-javaagent:\${rootProject.file('agent/agent.jar')}=hello"
  maxHeapSize = '256m'
  environment 'PROBE_ENV', 'from-task'
  workingDir = file('work')
}
`,
  'app/work/README': 'the Test task runs here\n',
  'app/src/test/resources/probe.txt': 'a resource on the test classpath\n',
  'app/src/test/java/com/probe/ProbeTest.java': `package com.probe;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.util.*;
import org.junit.Test;
public class ProbeTest {
  @Test public void observes() throws Exception {
    List<String> lines = new ArrayList<>();
    lines.add("probe.flag=" + System.getProperty("probe.flag"));
    lines.add("probe.jvmarg=" + System.getProperty("probe.jvmarg"));
    lines.add("probe.agent=" + System.getProperty("probe.agent"));
    lines.add("env.PROBE_ENV=" + System.getenv("PROBE_ENV"));
    lines.add("cwd=" + new File(".").getCanonicalPath());
    lines.add("user.dir=" + System.getProperty("user.dir"));
    lines.add("java.home=" + System.getProperty("java.home"));
    lines.add("maxHeapMb=" + Runtime.getRuntime().maxMemory() / (1024 * 1024) / 16);
    List<String> args = new ArrayList<>();
    for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (a.startsWith("-XX:+UseSerialGC") || a.startsWith("-Xmx") || a.startsWith("-javaagent") || a.startsWith("-Dprobe.")) args.add(a);
    }
    Collections.sort(args);
    lines.add("jvmArgs=" + args);
    java.io.InputStream in = getClass().getResourceAsStream("/probe.txt");
    lines.add("resource=" + (in == null ? null : new Scanner(in, "UTF-8").useDelimiter("\\\\A").next().trim()));
    File rel = new File("relative-write.txt");
    Files.write(rel.toPath(), "x".getBytes());
    lines.add("relative=" + rel.getCanonicalPath() + " exists=" + rel.exists());
    File out = new File(System.getProperty("probe.out"));
    out.mkdirs();
    Files.write(new File(out, System.nanoTime() + "-" + ManagementFactory.getRuntimeMXBean().getName() + ".txt").toPath(), String.join("\\n", lines).getBytes("UTF-8"));
  }
}
`,
  'app/src/test/java/com/probe/FixedFileTest.java': `package com.probe;
import java.io.File;
import java.nio.file.Files;
import org.junit.Test;
import static org.junit.Assert.*;
public class FixedFileTest {
  // Writes a fixed relative file, waits, reads it back: correct alone, but two copies running at
  // once in one working directory overwrite each other's file.
  @Test public void writesFixedFile() throws Exception {
    File f = new File("fixed-output.txt");
    String mine = String.valueOf(System.nanoTime());
    Files.write(f.toPath(), mine.getBytes());
    Thread.sleep(150);
    assertEquals(mine, new String(Files.readAllBytes(f.toPath())));
    Thread.sleep(150);
    f.delete();
  }
}
`,
};

let server: FakeVerdictServer;
const dirs: Partial<Record<Kind, string>> = {};

async function project(kind: Kind): Promise<string> {
  if (dirs[kind]) return dirs[kind]!;
  const dir = await writeTree(probeProject(kind));
  const agent = path.join(dir, 'agent');
  execFileSync('javac', ['--release', '8', '-d', agent, path.join(agent, 'ProbeAgent.java')], { stdio: 'ignore' });
  execFileSync('jar', ['cfm', path.join(agent, 'agent.jar'), path.join(agent, 'MANIFEST.MF'), '-C', agent, 'ProbeAgent.class']);
  return (dirs[kind] = dir);
}

beforeAll(async () => {
  await warmGradleJars();
  server = await startFakeVerdictServer((posted) => cannedVerdict(posted, (p) => p.suite.startsWith('com.probe.')));
}, 300_000);
afterAll(async () => {
  await server.close();
  for (const dir of Object.values(dirs)) await rm(dir, { recursive: true, force: true });
});

async function gate(executor: string, extraEnv: Record<string, string> = {}, kind: Kind = 'junit4') {
  const dir = await project(kind);
  await rm(path.join(dir, 'observations'), { recursive: true, force: true });
  await mkdir(path.join(dir, 'observations'));
  const out: string[] = [];
  const env: NodeJS.ProcessEnv = { ...process.env, STRESS_GATE_TOKEN: 't', STRESS_GATE_LOG_LEVEL: 'warn', STRESS_GATE_EXECUTOR: executor, STRESS_GATE_PARALLEL_JVMS: '2', ...extraEnv };
  delete env['GITHUB_STEP_SUMMARY'];
  const code = await main(
    ['gradle', '--offline', '-q', ':app:cleanTest', ':app:test', '--stress-new-tests', 'enforce', '--server-url', server.url, '--project', 'p'],
    { ...realDeps(env), cwd: dir, out: (t) => out.push(t), err: () => undefined },
  );
  const report = JSON.parse(await readFile(path.join(dir, 'build/stress-gate/report.json'), 'utf8'));
  const files = await readdir(path.join(dir, 'observations'));
  const observations = await Promise.all(files.map((f) => readFile(path.join(dir, 'observations', f), 'utf8')));
  return { code, out: out.join(''), report, observations, probeRuns: await probeRuns(path.join(dir, 'build', 'stress-gate', 'order-probe')) };
}

/** How many times the order probe's JVMs ran ProbeTest.observes (each run writes one observation too). */
async function probeRuns(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  let n = 0;
  for (const e of entries.filter((f) => f.endsWith('results.jsonl'))) {
    const text = await readFile(path.join(dir, e), 'utf8');
    n += text.split('\n').filter((l) => l.includes('"event":"finished"') && /"name":"observes(\(\))?"/.test(l)).length;
  }
  return n;
}

describe('executor fidelity: direct and gradle observe the same JVM', () => {
  it.each<Kind>(['junit4', 'testng', 'platform'])('every repetition under either executor observes what the first pass observed (%s)', async (kind) => {
    const dir = await project(kind);
    const direct = await gate('direct', {}, kind);
    // Gradle 4.4's filter cannot select a test run by JUnit 4's JUnitPlatform runner: the direct
    // executor is then held to the first pass alone (each observation below includes it).
    const gradle = kind === 'platform' ? null : await gate('gradle', {}, kind);
    expect(direct.report.stressPass).toMatchObject({ executor: 'direct', jvmsAtATime: 2 });
    expect(direct.report.problems).toEqual([]);
    if (gradle) expect(gradle.report.stressPass).toMatchObject({ executor: 'gradle', jvmsAtATime: 1 });
    for (const run of gradle ? [direct, gradle] : [direct]) {
      // first pass + 10 repetitions + the order probe's runs of it (its JVMs are the build's too), all alike;
      // the JUnit 4 module has a second test class to run it beside, the others none.
      if (kind === 'junit4') expect(run.probeRuns).toBeGreaterThan(0);
      else expect(run.report.orderProbe).toMatchObject({ jvms: 0, why: "no other test passed in the new tests' test tasks" });
      expect(run.observations).toHaveLength(11 + run.probeRuns);
      expect(new Set(run.observations).size).toBe(1);
    }
    if (gradle) expect(direct.observations[0]).toBe(gradle.observations[0]);
    const seen = Object.fromEntries(direct.observations[0]!.split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
    const work = path.join(await import('node:fs/promises').then((fs) => fs.realpath(dir)), 'app', 'work');
    expect(seen).toMatchObject({
      'probe.flag': 'from-task',
      'probe.jvmarg': 'yes',
      'probe.agent': 'loaded:hello',
      'env.PROBE_ENV': 'from-task',
      cwd: work,
      resource: 'a resource on the test classpath',
      relative: `${path.join(work, 'relative-write.txt')} exists=true`,
    });
    expect(seen['jvmArgs']).toContain('-XX:+UseSerialGC');
    expect(seen['jvmArgs']).toContain('-Xmx256m');
  }, 300_000);

  it('the class archive: made by the first repetition of one pass, mapped by the next JVMs and every JVM of the next pass, which all observe the same JVM', async () => {
    const cache = path.join(await project('junit4'), 'class-archive-cache');
    const first = await gate('direct', { STRESS_GATE_CACHE_DIR: cache });
    expect(first.report.stressPass).toMatchObject({ executor: 'direct', classArchive: 'made' });
    // One archive, for this JDK, the task's -X options (-XX:+UseSerialGC -Xmx256m) and its jars.
    expect((await readdir(path.join(cache, 'class-archives'))).filter((f) => f.endsWith('.jsa'))).toHaveLength(1);
    const second = await gate('direct', { STRESS_GATE_CACHE_DIR: cache });
    expect(second.report.stressPass).toMatchObject({ executor: 'direct', classArchive: 'used' });
    expect(second.observations).toHaveLength(11 + second.probeRuns);
    expect(new Set([...first.observations, ...second.observations]).size).toBe(1);
    expect(second.code).toBe(0);
  }, 300_000);

  it('a test writing a fixed relative file is not reported flaky because repetitions ran side by side', async () => {
    const direct = await gate('direct');
    const fixed = direct.report.candidates.find((c: { name: string }) => c.name === 'writesFixedFile');
    expect(fixed).toMatchObject({ outcome: 'passed', failures: 0 });
    expect(fixed.recorded).toHaveLength(10);
    expect(direct.report.outcome).toBe('passed');
    expect(direct.code).toBe(0);
  }, 300_000);
});
