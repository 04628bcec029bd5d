// The stress pass's two executors side by side, through real Gradle (Debian's 4.4.1, --offline,
// warm daemon) and a fake verdict API on loopback:
//   fast:  3 fast new tests × 10 repetitions, each in a JVM of its own (30 JVMs), with the
//          parallel bare-JVM floor = JVMs × bare `java … JUnitCore` start / cores (the target
//          of 2.0 s on 2 cores was set when the 3 tests shared each repetition's JVM: 10 JVMs);
//   heavy: 1 CPU-bound new test of ~2 s × 10 repetitions (target: direct ≤ 0.6 × gradle);
//   suite: 5 fast new tests in a generated suite of 20, 250 and 2,000 test classes (target: the
//          stress pass within 15% across the three sizes).
// Each figure is stressPass.wallClockMs from the gate's JSON report, median of --runs.
// Needs: npm run build, the plugin jar (make plugin), gradle and java on PATH.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { GateReport } from '../orchestrator/dist/report/gate-report.js';
import { jvmTimeWords } from '../orchestrator/dist/report/report-document.js';
import { startFakeVerdict } from './bench-fake-verdict.js';
import { check, CLI, flags, intFlag, JAR, JUNIT_CP, load, log, median, ROOT, run, sec } from './bench-gradle-common.js';

const JUNIT = `files(${JUNIT_CP.map((p) => `'${p}'`).join(', ')})`;

function writeTree(dir: string, tree: Record<string, string>): void {
  for (const [rel, content] of Object.entries(tree)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
}

/** :app with NewTest (the candidates' methods) and `oldClasses` generated old classes of 4 tests. */
function project(newMethods: string, oldClasses: number): Record<string, string> {
  const tree: Record<string, string> = {
    'settings.gradle': "rootProject.name = 'bench'\ninclude 'app'\n",
    'build.gradle': '',
    'app/build.gradle': `apply plugin: 'java'\ndependencies { testCompile ${JUNIT} }\n`,
    'app/src/test/java/com/bench/NewTest.java': `package com.bench;\nimport java.util.*;\nimport org.junit.Test;\nimport static org.junit.Assert.*;\npublic class NewTest {\n${newMethods}\n}\n`,
    'app/src/test/java/com/bench/OldTest.java': 'package com.bench;\nimport org.junit.Test;\npublic class OldTest { @Test public void existing() {} }\n',
  };
  for (let i = 0; i < oldClasses; i++) {
    const methods = [0, 1, 2, 3].map((m) => `  @Test public void case${m}() { org.junit.Assert.assertEquals(${m * 2}, ${m} + ${m}); }`).join('\n');
    tree[`app/src/test/java/com/bench/old/Old${i}Test.java`] = `package com.bench.old;\nimport org.junit.Test;\npublic class Old${i}Test {\n${methods}\n}\n`;
  }
  return tree;
}

const FAST = ['addsNumbers', 'joinsStrings', 'sortsList', 'reversesList', 'hashesText'];
const fastMethods = (n: number) =>
  FAST.slice(0, n)
    .map((m, i) => `  @Test public void ${m}() throws Exception { long s = 0; for (int i = 0; i < 100000; i++) s += i * ${i + 1}; assertTrue(s > 0); Thread.sleep(3); }`)
    .join('\n');
const HEAVY = `  @Test public void crunchesNumbers() { long end = System.nanoTime() + 2_000_000_000L; long s = 0; while (System.nanoTime() < end) { for (int i = 0; i < 10000; i++) s += i ^ s; } assertTrue(s != 42); }`;

/** Debian's jars of a real module's test class path: JUnit 4, Guava, Commons Lang and IO, Gson, SLF4J, ASM, Objenesis. */
const MODULE_LIBS = ['guava', 'commons-lang3', 'commons-io', 'gson', 'slf4j-api', 'asm', 'objenesis'].map((j) => `/usr/share/java/${j}.jar`);

/**
 * A real-size module: 10 new tests that use its libraries, beside `oldClasses` old classes of 5
 * tests each that take `oldMs` each (the first pass's bulk).
 */
function moduleProject(oldClasses: number, oldMs: number): Record<string, string> {
  const libs = `files(${[...JUNIT_CP, ...MODULE_LIBS].map((p) => `'${p}'`).join(', ')})`;
  const bodies = [
    'assertEquals(3, com.google.common.collect.ImmutableList.of(1, 2, 3).size());',
    'assertEquals("a,b", com.google.common.base.Joiner.on(",").join("a", "b"));',
    'assertTrue(org.apache.commons.lang3.StringUtils.isBlank("  "));',
    'assertEquals("cba", org.apache.commons.lang3.StringUtils.reverse("abc"));',
    'assertEquals("{\\"a\\":1}", new com.google.gson.Gson().toJson(java.util.Collections.singletonMap("a", 1)));',
    'assertEquals(2, new com.google.gson.Gson().fromJson("[1,2]", java.util.List.class).size());',
    'assertEquals("x", org.apache.commons.io.FilenameUtils.getBaseName("/d/x.txt"));',
    'assertNotNull(org.slf4j.LoggerFactory.getLogger("bench"));',
    'assertEquals(Object.class, org.objenesis.ObjenesisHelper.newInstance(Object.class).getClass());',
    'assertTrue(com.google.common.hash.Hashing.sha256().hashString("x", java.nio.charset.StandardCharsets.UTF_8).bits() == 256);',
  ];
  const methods = bodies.map((b, i) => `  @Test public void uses${i}() { ${b} }`).join('\n');
  const tree: Record<string, string> = {
    'settings.gradle': "rootProject.name = 'bench'\ninclude 'app'\n",
    'build.gradle': '',
    'app/build.gradle': `apply plugin: 'java'\ndependencies { testCompile ${libs} }\n`,
    'app/src/test/java/com/bench/NewTest.java': `package com.bench;\nimport org.junit.Test;\nimport static org.junit.Assert.*;\npublic class NewTest {\n${methods}\n}\n`,
  };
  for (let i = 0; i < oldClasses; i++) {
    const old = [0, 1, 2, 3, 4].map((m) => `  @Test public void case${m}() throws Exception { Thread.sleep(${oldMs}); org.junit.Assert.assertEquals(${m * 2}, ${m} + ${m}); }`).join('\n');
    tree[`app/src/test/java/com/bench/old/Old${i}Test.java`] = `package com.bench.old;\nimport org.junit.Test;\npublic class Old${i}Test {\n${old}\n}\n`;
  }
  return tree;
}

interface GateJson {
  overhead?: { firstPassMs: number } | null;
  stressPass: (NonNullable<GateReport['stressPass']> & { wallClockMs: number }) | null;
  candidates: { name: string; outcome: string; recorded: unknown[] }[];
}

/** Per project dir, the last run's first pass (the build, ms). */
const lastFirstPass = new Map<string, number>();

/** --jvms: JVMs at a time (default: the CLI's own choice). */
let jvmsAtATime = 0;

/** Per project dir, where the last direct run's JVM time went (the report's line). */
const lastTiming = new Map<string, string>();
const timingOf = (dir: string): string => (lastTiming.has(dir) ? `; ${lastTiming.get(dir)}` : '');

/** One gate run (report mode) of `dir` with `executor`; its stressPass.wallClockMs. */
async function gateOnce(dir: string, url: string, executor: string, expectCandidates: number): Promise<number> {
  const report = join(dir, 'report.json');
  const env: NodeJS.ProcessEnv = { ...process.env, STRESS_GATE_URL: url, STRESS_GATE_PROJECT: 'bench', STRESS_GATE_TOKEN: 't', STRESS_GATE_PLUGIN_JAR: JAR, STRESS_GATE_EXECUTOR: executor };
  for (const k of ['STRESS_NEW_TESTS', 'GITHUB_ACTIONS', 'GITLAB_CI', 'GITHUB_STEP_SUMMARY', 'STRESS_GATE_PARALLEL_JVMS']) delete env[k];
  if (jvmsAtATime) env.STRESS_GATE_PARALLEL_JVMS = String(jvmsAtATime);
  const args = [CLI, 'gradle', '--offline', '-q', ':app:cleanTest', ':app:test', '--stress-new-tests', 'report', '--report-file', report];
  check(await run(process.execPath, args, { cwd: dir, env }), `gate (${executor})`);
  const r = JSON.parse(readFileSync(report, 'utf8')) as GateJson;
  if (!r.stressPass || r.candidates.length !== expectCandidates || r.candidates.some((c) => c.outcome !== 'passed')) {
    throw new Error(`unexpected report (${executor}): ${JSON.stringify({ stressPass: r.stressPass, candidates: r.candidates.map((c) => [c.name, c.outcome, c.recorded.length]) })}`);
  }
  if (r.stressPass.executor !== executor) throw new Error(`asked for ${executor}, ran ${r.stressPass.executor}`);
  const timing = jvmTimeWords(r.stressPass);
  if (timing) lastTiming.set(dir, timing);
  if (r.overhead) lastFirstPass.set(dir, r.overhead.firstPassMs);
  return r.stressPass.wallClockMs;
}

/** Checks that a measured direct run mapped the class archive (the warm-up made it if missing). */
function checkArchive(dir: string, executor: string): void {
  if (executor !== 'direct' || process.env.STRESS_GATE_CLASS_ARCHIVE === '0') return;
  const r = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as GateJson;
  if (r.stressPass?.classArchive !== 'used') throw new Error(`direct run without the class archive (${r.stressPass?.classArchive}); see docs/gradle.md`);
}

/** A warm-up, then `runs` measured gate runs. */
async function gateRuns(dir: string, url: string, executor: string, runs: number, expectCandidates: number): Promise<number[]> {
  await gateOnce(dir, url, executor, expectCandidates);
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    out.push(await gateOnce(dir, url, executor, expectCandidates));
    checkArchive(dir, executor);
  }
  return out;
}

async function bareJvmMs(dir: string, samples: number): Promise<number> {
  const cp = [join(dir, 'app/build/classes/java/test'), ...JUNIT_CP].join(':');
  const xs: number[] = [];
  for (let i = 0; i < samples; i++) {
    const r = check(await run('java', ['-cp', cp, 'org.junit.runner.JUnitCore', 'com.bench.OldTest'], { cwd: dir }), 'bare java');
    const junitSec = Number(r.stdout.match(/Time: ([\d.,]+)/)?.[1]?.replace(',', '') ?? 0);
    xs.push(r.ms - junitSec * 1000);
  }
  return median(xs);
}

/** The same bare JVMs started `atATime` at a time, as the pass starts its own: the wall clock of all `jvms`. */
async function parallelBareMs(dir: string, jvms: number, atATime: number): Promise<number> {
  const cp = [join(dir, 'app/build/classes/java/test'), ...JUNIT_CP].join(':');
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: atATime }, async () => {
    while (next++ < jvms) check(await run('java', ['-cp', cp, 'org.junit.runner.JUnitCore', 'com.bench.OldTest'], { cwd: dir }), 'bare java');
  }));
  return performance.now() - t0;
}

async function main(): Promise<void> {
  const f = flags(process.argv.slice(2));
  const runs = intFlag(f, 'runs', 3);
  jvmsAtATime = intFlag(f, 'jvms', 0);
  const only = f.get('only') ?? 'fast,heavy,suite';
  const sizes = (f.get('sizes') ?? '20,250,2000').split(',').map(Number);
  if (!existsSync(JAR)) throw new Error(`${JAR} is missing: make plugin`);
  if (!existsSync(join(ROOT, 'orchestrator/dist/cli.js'))) throw new Error('orchestrator/dist is missing: npm run build');
  const cores = availableParallelism();
  const work = mkdtempSync(join(tmpdir(), 'stress-gate-bench-exec-'));
  const fake = await startFakeVerdict((p) => p.suite === 'com.bench.NewTest');
  log(`executor benchmark: ${cores} cores, --runs ${runs}, load ${load()}`);
  try {
    if (only.includes('fast')) {
      const dir = join(work, 'fast');
      writeTree(dir, project(fastMethods(3), 0));
      const direct = await gateRuns(dir, fake.url, 'direct', runs, 3);
      const gradle = await gateRuns(dir, fake.url, 'gradle', runs, 3);
      const bare = await bareJvmMs(dir, 5);
      const jvms = 3 * 10;
      const floor = (jvms * bare) / cores;
      const bareParallel = median([await parallelBareMs(dir, jvms, cores), await parallelBareMs(dir, jvms, cores), await parallelBareMs(dir, jvms, cores)]);
      log(`fast: 3 candidates × 10 repetitions, ${jvms} JVMs (load ${load()})`);
      log(`  direct  ${sec(median(direct))} (runs ${direct.map(sec).join(', ')}; ${(median(direct) / jvms).toFixed(0)} ms per JVM)  ÷ parallel bare-JVM floor ${(median(direct) / floor).toFixed(2)}×  target ≤ 0.80×: ${median(direct) / floor <= 0.8 ? 'MET' : 'MISSED'}${timingOf(dir)}`);
      log(`  gradle  ${sec(median(gradle))} (runs ${gradle.map(sec).join(', ')}; ${(median(gradle) / jvms).toFixed(0)} ms per JVM)  ÷ floor ${(median(gradle) / floor).toFixed(2)}×`);
      log(`  floor   ${sec(floor)} = ${jvms} × bare JVM ${bare.toFixed(0)} ms / ${cores} cores; direct ÷ gradle ${(median(direct) / median(gradle)).toFixed(2)}×`);
      log(`  the same ${jvms} bare JUnitCore JVMs started ${cores} at a time: ${sec(bareParallel)} (median of 3); direct ÷ that ${(median(direct) / bareParallel).toFixed(2)}×`);
    }
    if (only.includes('heavy')) {
      const dir = join(work, 'heavy');
      writeTree(dir, project(HEAVY, 0));
      const direct = await gateRuns(dir, fake.url, 'direct', runs, 1);
      const gradle = await gateRuns(dir, fake.url, 'gradle', runs, 1);
      log(`heavy: 1 CPU-bound candidate of ~2 s × 10 repetitions (load ${load()})`);
      log(`  direct  ${sec(median(direct))} (runs ${direct.map(sec).join(', ')})`);
      log(`  gradle  ${sec(median(gradle))} (runs ${gradle.map(sec).join(', ')})`);
      const ratio = median(direct) / median(gradle);
      log(`  direct ÷ gradle ${ratio.toFixed(2)}×  target ≤ 0.60×: ${ratio <= 0.6 ? 'MET' : 'MISSED'}`);
    }
    if (only.includes('module')) {
      // A module whose first pass takes about 20 s on 2 cores (200 old classes × 5 tests of 19 ms, the build around them).
      const dir = join(work, 'module');
      writeTree(dir, moduleProject(intFlag(f, 'old-classes', 200, 5000), intFlag(f, 'old-ms', 19, 1000)));
      await gateOnce(dir, fake.url, 'direct', 10);
      const rows: [number, number][] = [];
      for (let i = 0; i < runs; i++) rows.push([await gateOnce(dir, fake.url, 'direct', 10), lastFirstPass.get(dir) ?? NaN]);
      const ratio = median(rows.map(([s, fp]) => s / fp));
      log(`module: 10 new tests beside 1,000 old ones, its libraries on the class path (load ${load()})`);
      log(`  runs: ${rows.map(([s, fp]) => `stress pass ${sec(s)} after a first pass of ${sec(fp)}`).join('; ')}${timingOf(dir)}`);
      log(`  stress pass ÷ first pass ${ratio.toFixed(2)}× (median)  target ≤ 1×: ${ratio <= 1 ? 'MET' : 'MISSED'}`);
    }
    if (only.includes('suite')) {
      // Interleaved: every round runs each size once, so the machine's drift (±15% within minutes
      // on a shared 2-core host) falls on all sizes alike rather than on whichever ran last.
      const dirs = sizes.map((n) => join(work, `suite-${n}`));
      sizes.forEach((n, i) => writeTree(dirs[i]!, project(fastMethods(5), n)));
      const ms = new Map<string, number[]>();
      for (const executor of ['direct', 'gradle']) {
        for (const dir of dirs) await gateOnce(dir, fake.url, executor, 5);
        for (let r = 0; r < runs; r++) {
          for (const [i, dir] of dirs.entries()) {
            const key = `${executor} ${sizes[i]}`;
            (ms.get(key) ?? ms.set(key, []).get(key)!).push(await gateOnce(dir, fake.url, executor, 5));
            checkArchive(dir, executor);
          }
        }
      }
      const rows = sizes.map((n) => [n, median(ms.get(`direct ${n}`)!), median(ms.get(`gradle ${n}`)!)] as const);
      for (const [n, direct, gradle] of rows) {
        log(`suite of ${n} test classes (+2): 5 candidates × 10 repetitions: direct ${sec(direct)} (${ms.get(`direct ${n}`)!.map(sec).join(', ')}), gradle ${sec(gradle)} (${ms.get(`gradle ${n}`)!.map(sec).join(', ')})`);
      }
      log(`  (rounds interleaved across sizes; load ${load()})`);
      for (const col of [1, 2] as const) {
        const xs = rows.map((r) => r[col]);
        const spread = Math.max(...xs) / Math.min(...xs) - 1;
        log(`  ${col === 1 ? 'direct' : 'gradle'}: max/min − 1 across sizes = ${(spread * 100).toFixed(0)}%  target ≤ 15%: ${spread <= 0.15 ? 'MET' : 'MISSED'}`);
      }
    }
  } finally {
    await fake.close();
    if (process.env.BENCH_KEEP) log(`kept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
}

await main();
