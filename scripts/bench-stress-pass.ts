// Benchmark of the stress pass against its floor and against the naive loop, through real Gradle
// (Debian's 4.4.1, --offline, warm daemon) on a temp project with 3 fast new tests × 10 repetitions:
//   (a) the gate in report mode (fake verdict API on loopback naming the 3 tests as new):
//       stressPass.wallClockMs from the JSON report, per run;
//   (b) the floor: repetitions × (one fresh-JVM Test task's fixed cost + Σ candidates' durations),
//       the fixed cost MEASURED here as (Test task wall time − Σ its test times) for a Test task
//       running one trivial test, warm daemon; a bare `java … JUnitCore` start is printed beside it;
//   (c) the naive loop: 10 × `gradle --offline -q :app:cleanTest :app:test --tests …` (warm daemon),
//       and a few --no-daemon invocations, extrapolated to 10.
// Task wall times come from a tiny init script (taskGraph.beforeTask/afterTask, Test.afterTest)
// passed with -I; the orchestrator keeps -I for its stress pass, so its repetition tasks are timed too.
// Needs: npm run build, gradle-plugin/build/libs/stress-gate-gradle-plugin.jar, gradle and java on PATH.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
// The fake verdict API prices and guards with the server's own functions.
import { startFakeVerdict } from './bench-fake-verdict.js';
import { check, CLI, flags, intFlag, JAR, JUNIT_CP, load, log, median, ROOT, run, sec } from './bench-gradle-common.js';

const NEW_SUITE = 'com.bench.NewTest';
const NEW_TESTS = ['addsNumbers', 'joinsStrings', 'sortsList'];

// ---------------------------------------------------------------------------------------------
// The project: :app with 3 new fast tests and one known trivial test.

function writeProject(dir: string): void {
  const junit = `files(${JUNIT_CP.map((p) => `'${p}'`).join(', ')})`;
  const tree: Record<string, string> = {
    'settings.gradle': "rootProject.name = 'bench'\ninclude 'app'\n",
    'build.gradle': '',
    'app/build.gradle': `apply plugin: 'java'\ndependencies { testCompile ${junit} }\n`,
    'app/src/test/java/com/bench/NewTest.java': `package com.bench;
import java.util.*;
import org.junit.Test;
import static org.junit.Assert.*;
public class NewTest {
  @Test public void addsNumbers() throws Exception { long s = 0; for (int i = 0; i < 100000; i++) s += i; assertEquals(4999950000L, s); Thread.sleep(3); }
  @Test public void joinsStrings() throws Exception { StringBuilder b = new StringBuilder(); for (int i = 0; i < 1000; i++) b.append(i % 10); assertEquals(1000, b.length()); Thread.sleep(3); }
  @Test public void sortsList() throws Exception { List<Integer> l = new ArrayList<>(); for (int i = 1000; i > 0; i--) l.add(i); Collections.sort(l); assertEquals(1, (int) l.get(0)); Thread.sleep(3); }
}
`,
    'app/src/test/java/com/bench/OldTest.java': `package com.bench;
import org.junit.Test;
import static org.junit.Assert.*;
public class OldTest {
  @Test public void existing() { assertTrue(true); }
}
`,
  };
  for (const [rel, content] of Object.entries(tree)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
}

/** An init script appending one line per finished Test task: path, task ms, Σ test ms, tests. */
function writeTimingInit(file: string, out: string): void {
  writeFileSync(
    file,
    `def benchOut = new File('${out}')
def benchStart = [:]
def benchTests = [:].withDefault { [0L, 0] }
gradle.taskGraph.beforeTask { t -> benchStart[t.path] = System.currentTimeMillis() }
gradle.taskGraph.afterTask { t, state ->
  if (t instanceof org.gradle.api.tasks.testing.Test) {
    def s = benchTests[t.path]
    benchOut << "\${t.path}\\t\${System.currentTimeMillis() - benchStart[t.path]}\\t\${s[0]}\\t\${s[1]}\\n"
  }
}
allprojects {
  tasks.withType(org.gradle.api.tasks.testing.Test) { task ->
    task.afterTest { d, r -> def s = benchTests[task.path]; s[0] += (r.endTime - r.startTime); s[1] += 1 }
  }
}
`,
  );
}

interface TaskTiming {
  path: string;
  taskMs: number;
  testMs: number;
  tests: number;
}
function readTimings(file: string): TaskTiming[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [path, a, b, c] = l.split('\t');
      return { path: path!, taskMs: Number(a), testMs: Number(b), tests: Number(c) };
    });
}

// ---------------------------------------------------------------------------------------------

interface GateJson {
  outcome: string;
  stressPass: { wallClockMs: number; cut: boolean; gradleExitCode: number | null } | null;
  candidates: { name: string; durationMs: number; expected: number; outcome: string; recorded: { repetition: number; durationMs: number }[] }[];
}

async function main(): Promise<void> {
  const f = flags(process.argv.slice(2));
  const gateRuns = intFlag(f, 'runs', 3);
  const naiveRuns = intFlag(f, 'naive', 10);
  const noDaemonRuns = intFlag(f, 'no-daemon', 2);
  const jvmSamples = intFlag(f, 'jvm-samples', 5);
  if (!existsSync(JAR)) throw new Error(`${JAR} is missing: cd gradle-plugin && gradle --offline -q jar`);
  if (!existsSync(join(ROOT, 'orchestrator/dist/cli.js'))) throw new Error('orchestrator/dist is missing: npm run build');

  const work = mkdtempSync(join(tmpdir(), 'stress-gate-bench-stress-'));
  const project = join(work, 'project');
  const timingsFile = join(work, 'timings.tsv');
  const timingInit = join(work, 'timing.init.gradle');
  const reportFile = join(work, 'report.json');
  writeProject(project);
  writeTimingInit(timingInit, timingsFile);
  const fake = await startFakeVerdict((p) => p.suite === NEW_SUITE);
  const env: NodeJS.ProcessEnv = { ...process.env, STRESS_GATE_URL: fake.url, STRESS_GATE_PROJECT: 'bench', STRESS_GATE_TOKEN: 'bench-token', STRESS_GATE_PLUGIN_JAR: JAR };
  for (const k of ['STRESS_NEW_TESTS', 'GITHUB_ACTIONS', 'GITLAB_CI', 'GITHUB_STEP_SUMMARY']) delete env[k];
  const gradle = (args: string[], extraEnv: NodeJS.ProcessEnv = {}) => run('gradle', args, { cwd: project, env: { ...env, ...extraEnv } });
  const filters = NEW_TESTS.flatMap((t) => ['--tests', `${NEW_SUITE}.${t}`]);
  const loads: string[] = [];

  try {
    log(`stress pass benchmark: 3 new tests (${NEW_TESTS.join(', ')}), Gradle ${(await run('gradle', ['--version'], { cwd: project })).stdout.match(/Gradle (\S+)/)?.[1] ?? '?'}, load ${load()}`);
    // Warm-up: compiles, starts or reuses a daemon, runs the gate once end to end.
    log('warm-up (compile, daemon, one gate run)…');
    check(await gradle(['--offline', '-q', ':app:testClasses']), 'gradle testClasses');
    const gateArgs = [CLI, 'gradle', '--offline', '-q', '-I', timingInit, ':app:cleanTest', ':app:test', '--stress-new-tests', 'report', '--report-file', reportFile];
    check(await run(process.execPath, gateArgs, { cwd: project, env }), 'warm-up gate run');

    // (a) the gate's stress pass.
    const gate: { wallMs: number; repTasks: TaskTiming[]; report: GateJson; totalMs: number }[] = [];
    for (let i = 0; i < gateRuns; i++) {
      rmSync(timingsFile, { force: true });
      rmSync(reportFile, { force: true });
      loads.push(load());
      const r = check(await run(process.execPath, gateArgs, { cwd: project, env }), 'gate run');
      const report = JSON.parse(readFileSync(reportFile, 'utf8')) as GateJson;
      if (!report.stressPass || report.candidates.length !== 3 || report.candidates.some((c) => c.outcome !== 'passed' || c.recorded.length !== 10)) {
        throw new Error(`unexpected report: ${JSON.stringify({ outcome: report.outcome, stressPass: report.stressPass, candidates: report.candidates.map((c) => [c.name, c.outcome, c.recorded.length]) })}`);
      }
      const repTasks = readTimings(timingsFile).filter((t) => /stressGate.*Rep\d+$/.test(t.path));
      gate.push({ wallMs: report.stressPass.wallClockMs, repTasks, report, totalMs: r.ms });
      log(`  gate run ${i + 1}: stress pass ${sec(report.stressPass.wallClockMs)} (whole CLI ${sec(r.ms)}), ${repTasks.length} repetition tasks timed`);
    }
    const reps = gate[0]!.report.candidates[0]!.expected;

    // (b) the floor. Fixed cost of one fresh-JVM Test task: a Test task running one trivial test,
    // warm daemon, (task wall time − Σ test time); median of jvmSamples.
    const fixed: number[] = [];
    for (let i = 0; i < jvmSamples; i++) {
      rmSync(timingsFile, { force: true });
      check(await gradle(['--offline', '-q', '-I', timingInit, ':app:cleanTest', ':app:test', '--tests', 'com.bench.OldTest']), 'trivial Test task');
      const t = readTimings(timingsFile).find((x) => x.path === ':app:test');
      if (!t || t.tests !== 1) throw new Error(`trivial Test task not timed: ${JSON.stringify(t)}`);
      fixed.push(t.taskMs - t.testMs);
    }
    const testTaskFixedMs = median(fixed);
    // A bare JVM (no Gradle): `java -cp … JUnitCore com.bench.OldTest` wall time minus JUnit's "Time:".
    const cp = [join(project, 'app/build/classes/java/test'), ...JUNIT_CP].join(':');
    const bare: number[] = [];
    for (let i = 0; i < jvmSamples; i++) {
      const r = check(await run('java', ['-cp', cp, 'org.junit.runner.JUnitCore', 'com.bench.OldTest'], { cwd: project }), 'bare java');
      const junitSec = Number(r.stdout.match(/Time: ([\d.,]+)/)?.[1]?.replace(',', '') ?? 0);
      bare.push(r.ms - junitSec * 1000);
    }
    const bareJvmMs = median(bare);
    // Candidates' measured durations: per candidate, the median of its 10 recorded repetition
    // durations (all gate runs pooled), summed over the 3 candidates.
    const candMs = NEW_TESTS.map((name) => median(gate.flatMap((g) => g.report.candidates.filter((c) => c.name === name).flatMap((c) => c.recorded.map((x) => x.durationMs)))));
    const sumCandMs = candMs.reduce((a, b) => a + b, 0);
    const floorMs = reps * (testTaskFixedMs + sumCandMs);
    const bareFloorMs = reps * (bareJvmMs + sumCandMs);
    // The stress pass's own per-repetition cost: each repetition task's wall time − its test time.
    const repTaskOverhead = median(gate.flatMap((g) => g.repTasks.map((t) => t.taskMs - t.testMs)));
    const repTaskSum = median(gate.map((g) => g.repTasks.reduce((a, t) => a + t.taskMs, 0)));

    // (c) the naive loop: one Gradle invocation per repetition, warm daemon.
    loads.push(load());
    const naive: number[] = [];
    const naiveT0 = performance.now();
    for (let i = 0; i < naiveRuns; i++) {
      naive.push(check(await gradle(['--offline', '-q', ':app:cleanTest', ':app:test', ...filters]), 'naive gradle').ms);
    }
    const naiveMs = performance.now() - naiveT0;
    const noDaemon: number[] = [];
    for (let i = 0; i < noDaemonRuns; i++) {
      noDaemon.push(check(await gradle(['--offline', '-q', '--no-daemon', ':app:cleanTest', ':app:test', ...filters]), 'naive gradle --no-daemon').ms);
    }
    loads.push(load());

    const stressMs = median(gate.map((g) => g.wallMs));
    log('');
    log(`repetitions: ${reps}; candidates' median measured durations: ${NEW_TESTS.map((n, i) => `${n} ${candMs[i]} ms`).join(', ')} (Σ ${sumCandMs} ms)`);
    log(`fresh-JVM Test task fixed cost (floor's "JVM start"): median of ${jvmSamples} × [:app:test wall time − its test time] for one trivial test, warm daemon, timed by an init script's beforeTask/afterTask = ${testTaskFixedMs.toFixed(0)} ms (samples ${fixed.join(', ')})`);
    log(`  reference: bare \`java -cp … JUnitCore\` process wall − JUnit's own Time, median of ${jvmSamples} = ${bareJvmMs.toFixed(0)} ms (floor with it: ${sec(bareFloorMs)})`);
    log(`  stress pass's own repetition tasks: median task wall − test time = ${repTaskOverhead.toFixed(0)} ms; Σ of the ${reps} repetition tasks = ${sec(repTaskSum)} (the rest of the pass is the Gradle client, configuration, the plan)`);
    log(`naive per invocation (warm daemon): median ${sec(median(naive))}; --no-daemon: ${noDaemon.map((x) => sec(x)).join(', ') || 'not run'}`);
    log(`load average (1/5/15 min) before the gate runs … after: ${loads.join(' | ')}`);
    log('');
    const rows: [string, number, string][] = [
      [`stress pass (gate, median of ${gateRuns} runs: ${gate.map((g) => sec(g.wallMs)).join(', ')})`, stressMs, ''],
      [`floor: ${reps} × (${testTaskFixedMs.toFixed(0)} + ${sumCandMs}) ms`, floorMs, ''],
      [`naive loop, ${naiveRuns} invocations, warm daemon (measured)`, naiveMs * (reps / Math.max(1, naiveRuns)), naiveRuns === reps ? '' : ` (extrapolated from ${naiveRuns})`],
    ];
    if (noDaemonRuns > 0) rows.push([`naive loop, --no-daemon, EXTRAPOLATED from ${noDaemonRuns} invocations × ${reps / noDaemonRuns}`, median(noDaemon) * reps, '']);
    const w = Math.max(...rows.map((r) => r[0].length));
    log(`${'what'.padEnd(w)}   wall clock   ÷ floor   ÷ stress pass (speedup)`);
    for (const [what, msv, note] of rows) {
      log(`${what.padEnd(w)}   ${sec(msv).padStart(10)}   ${(msv / floorMs).toFixed(2).padStart(6)}×   ${(msv / stressMs).toFixed(2).padStart(6)}×${note}`);
    }
    log('');
    const ratio = stressMs / floorMs;
    const speedup = (naiveMs * (reps / Math.max(1, naiveRuns))) / stressMs;
    log(`target: stress pass ≤ 1.5× floor: ${ratio.toFixed(2)}× ${ratio <= 1.5 ? 'MET' : 'MISSED'}; ≥ 2× faster than the naive warm-daemon loop: ${speedup.toFixed(2)}× ${speedup >= 2 ? 'MET' : 'MISSED'}`);
  } finally {
    await fake.close();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
