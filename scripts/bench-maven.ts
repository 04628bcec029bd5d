// Benchmark of the Maven stress pass (fresh JVMs started directly, as the first pass's Surefire
// fork was started; one JVM per candidate per repetition, --jvms at a time) against its floors and
// against the naive loop, on a copy of examples/maven-multi (JUnit 5), 3 fast tests of :app × 10 repetitions:
//   (a) the stress pass: the direct executor's wall clock (what the Maven adapter runs), median of --runs runs;
//   (b) floors for the same number of JVMs: bare JVM starts (`java Hello`), and JUnit Platform
//       runner JVMs that select nothing (the unavoidable cost of a fresh test JVM), each measured
//       one at a time and divided by the JVMs at a time;
//   (c) the naive loop: one `mvn -o -q -pl app -am test -Dtest=…` per repetition (--naive runs,
//       scaled to --reps); a bare `surefire:test` goal cannot resolve :core inside the reactor.
// Needs: npm run build, make plugin (the runner jar), mvn and java on PATH, ~/.m2 warm (it runs
// `mvn -o`: run `make demo` or the Maven tests once first).
import { cpSync, mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBuild } from '../orchestrator/dist/build-tool/run-build.js';
import { silentLogger } from '../orchestrator/dist/base/log.js';
import { mavenLocator, runMavenFirstPass } from '../orchestrator/dist/maven/maven-first-pass.js';
import { prepareMaven } from '../orchestrator/dist/maven/maven-setup.js';
import { mavenTargets } from '../orchestrator/dist/maven/maven-targets.js';
import { runDirectPass } from '../orchestrator/dist/jvm/direct-pass.js';
import { jvmOfFork } from '../orchestrator/dist/jvm/fork-jvm.js';
import { jvmCommand, withRunner } from '../orchestrator/dist/jvm/runner-request.js';
import { layoutClassPath } from '../orchestrator/dist/jvm/class-path-layout.js';
import { stressPassSummary } from '../orchestrator/dist/gate/stress-pass-summary.js';
import { jvmTimeWords } from '../orchestrator/dist/report/report-document.js';
import type { GateCandidate } from '../orchestrator/dist/candidates/gate-candidate.js';
import { check, flags, intFlag, load, log, median, ROOT, run, sec } from './bench-gradle-common.js';

const PICK = [
  ['dev.stressgate.example.app.GreeterTest', 'greetsWorld'],
  ['dev.stressgate.example.app.GreeterTest', 'runsWithTheForkConfiguration'],
  ['dev.stressgate.example.app.AdditionTest', 'adds(int, int, int)[1]'],
] as const;
const NAIVE_TEST = 'GreeterTest#greetsWorld+runsWithTheForkConfiguration,AdditionTest#adds';

async function main(): Promise<void> {
  const f = flags(process.argv.slice(2));
  const reps = intFlag(f, 'reps', 10);
  const runs = intFlag(f, 'runs', 3);
  const naiveRuns = intFlag(f, 'naive', 10);
  const atATime = intFlag(f, 'jvms', availableParallelism());
  const dir = mkdtempSync(join(tmpdir(), 'stress-gate-bench-maven-'));
  const logger = silentLogger();
  try {
    cpSync(join(ROOT, 'examples/maven-multi'), dir, { recursive: true });
    log(`load before: ${load()}  (2 cores shared; figures are wall clock)`);
    const setup = await prepareMaven(process.env);
    const first = await runMavenFirstPass(['-o', '-q', '-B', '-Dsurefire.printSummary=false', '-Dexample.slowMs=1', 'test'], {
      isMuted: () => false, isSkipped: () => false, skippedTests: [], now: Date.now,
    }, { runMaven: runBuild, executable: 'mvn', setup, projectDir: dir, env: process.env, logger });
    if (!first.passed) throw new Error('first pass failed');
    const candidates: GateCandidate[] = PICK.map(([suite, name], i) => {
      const c = first.cases.find((x) => x.suite === suite && x.name === name);
      if (!c) throw new Error(`not in the first pass: ${suite} ${name}`);
      return { module: c.module, suite, name, testCaseId: `t${i}`, durationMs: c.durationMs, repetitions: reps, excluded: null, muted: false,
        source: c.source };
    });

    const stressMs: number[] = [];
    for (let i = 0; i < runs; i++) {
      // With the class archive, as the CLI runs it (STRESS_GATE_CLASS_ARCHIVE=0: without); a run that made it waits for it here.
      const { targets, unrunnable } = mavenTargets(candidates);
      const r = await runDirectPass(targets, unrunnable, {
        runnerJar: setup.runnerJar, workDir: setup.workDir, outputDir: join(dir, 'target', 'stress-gate', 'repetitions'), concurrency: atATime,
        ceilingSeconds: 600, env: process.env, logger, err: () => undefined, errIsTTY: false,
      });
      await r.archiving;
      const all = [...r.repetitions.values()].every((x) => x.length === reps && x.every((y) => y.status === 'success'));
      if (!all || r.problems.length) throw new Error(`stress pass incomplete: ${r.problems.join('; ')}`);
      stressMs.push(r.wallClockMs);
      const per = jvmTimeWords(stressPassSummary(r));
      log(`stress pass run ${i + 1}: ${sec(r.wallClockMs)}, class archive ${r.classArchive ?? 'off'}${per ? `; ${per}` : ''} (load ${load()})`);
      if (i === 0) {
        const layout = await layoutClassPath(withRunner(targets[0]!.jvm.classpath, setup.runnerJar));
        log(`  class path: ${layout.runtime.length} entries, ${layout.archived.length} archived, ${layout.reordered ? 'directories after the jars' : `the build's order${layout.kept ? ` (${layout.kept})` : ''}`}`);
      }
    }

    // Floors: the same number of JVMs, doing nothing (bare), or starting the runner with no selection.
    const hello = join(dir, 'hello');
    mkdirSync(hello);
    writeFileSync(join(hello, 'Hello.java'), 'public class Hello { public static void main(String[] a) {} }\n');
    check(await run('javac', ['Hello.java'], { cwd: hello }), 'javac');
    const jvms = reps * candidates.length;
    const bare: number[] = [];
    for (let i = 0; i < jvms; i++) bare.push(check(await run('java', ['-cp', hello, 'Hello'], { cwd: hello }), 'java Hello').ms);
    const emptyMs: number[] = [];
    // One runner JVM per candidate and repetition with no unique ID selected: launcher and engines start, nothing runs.
    const source = first.cases.map((c) => mavenLocator(c.source).fork).find((f) => f?.fork.userDir.endsWith('app'))!;
    for (let i = 0; i < jvms; i++) {
      const req = join(dir, `empty-${i}.request`);
      writeFileSync(req, `kind platform\nout ${join(dir, `empty-${i}.jsonl`)}\n`);
      const cmd = jvmCommand(jvmOfFork(source.fork, true), setup.runnerJar, req);
      emptyMs.push(check(await run(cmd.file, cmd.args, { cwd: cmd.cwd, env: Object.fromEntries(Object.entries(cmd.env).filter((e): e is [string, string] => e[1] !== null)) }), 'empty runner').ms);
    }

    const naive: number[] = [];
    for (let i = 0; i < naiveRuns; i++) {
      // In a reactor, :app needs :core resolved, so a bare `surefire:test` goal cannot run there: the
      // naive loop is `test` (compilation up to date) with the tests selected, -am for :core.
      const r = check(await run('mvn', ['-o', '-q', '-B', '-Dsurefire.printSummary=false', '-Dsurefire.failIfNoSpecifiedTests=false', '-Dexample.slowMs=1', '-pl', 'app', '-am', 'test', `-Dtest=${NAIVE_TEST}`], { cwd: dir }), 'naive mvn');
      naive.push(r.ms);
      log(`naive mvn -Dtest=… test ${i + 1}: ${sec(r.ms)}`);
    }

    const stress = median(stressMs);
    const bareFloor = bare.reduce((a, b) => a + b, 0) / atATime;
    const platformFloor = emptyMs.reduce((a, b) => a + b, 0) / atATime;
    const naiveTotal = (naive.reduce((a, b) => a + b, 0) / naiveRuns) * reps;
    log('');
    log(`3 fast JUnit 5 tests × ${reps} repetitions, each candidate's repetition one fresh JVM: ${jvms} JVMs, ${atATime} at a time (load after: ${load()})`);
    log(`  stress pass (direct JVMs), median of ${runs}:         ${sec(stress)}  (${sec(stress / jvms)} per JVM)`);
    log(`  floor, ${jvms} bare JVM starts (java Hello) / ${atATime}:        ${sec(bareFloor)}  → stress pass = ${(stress / bareFloor).toFixed(2)}× this floor`);
    log(`  floor, ${jvms} JUnit Platform JVMs selecting nothing / ${atATime}: ${sec(platformFloor)}  → stress pass = ${(stress / platformFloor).toFixed(2)}× this floor`);
    log(`  naive, ${reps} × mvn -o -pl app -am test -Dtest=… (${naiveRuns} run${naiveRuns === 1 ? '' : 's'} scaled): ${sec(naiveTotal)}  → ${(naiveTotal / stress).toFixed(2)}× slower than the stress pass`);
    log(`  (the naive -Dtest selects whole methods: AdditionTest#adds runs both invocations)`);
    rmSync(setup.workDir, { recursive: true, force: true });
  } finally {
    if (process.env.BENCH_KEEP) log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
