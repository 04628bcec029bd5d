// Benchmark of the Maven stress pass (fresh JVMs started directly, as the first pass's Surefire
// fork was started) against its floors and against the naive loop, on a copy of
// examples/maven-multi (JUnit 5), 3 fast tests of :app × 10 repetitions:
//   (a) the stress pass: runMavenStressPass's wall clock, median of --runs runs;
//   (b) floors: repetitions × a bare JVM start (`java Hello`), and repetitions × a JUnit Platform
//       runner JVM that selects nothing (the unavoidable cost of a fresh test JVM);
//   (c) the naive loop: one `mvn -o -q -pl app -am test -Dtest=…` per repetition (--naive runs,
//       scaled to --reps); a bare `surefire:test` goal cannot resolve :core inside the reactor.
// Needs: npm run build, make plugin (the runner jar), mvn and java on PATH, ~/.m2 warm (it runs
// `mvn -o`: run `make demo` or the Maven tests once first).
import { cpSync, mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBuild } from '../orchestrator/dist/build-tool/run-build.js';
import { silentLogger } from '../orchestrator/dist/log.js';
import { runMavenFirstPass } from '../orchestrator/dist/maven/maven-first-pass.js';
import { prepareMaven } from '../orchestrator/dist/maven/maven-setup.js';
import { runMavenStressPass } from '../orchestrator/dist/maven/maven-stress-pass.js';
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
  const dir = mkdtempSync(join(tmpdir(), 'stress-gate-bench-maven-'));
  const logger = silentLogger();
  try {
    cpSync(join(ROOT, 'examples/maven-multi'), dir, { recursive: true });
    log(`load before: ${load()}  (2 cores shared; figures are wall clock)`);
    const setup = await prepareMaven(process.env);
    const pass = await runMavenFirstPass(['-o', '-q', '-B', '-Dsurefire.printSummary=false', '-Dexample.slowMs=1', 'test'], {
      isMuted: () => false, isSkipped: () => false, skippedTests: [], now: Date.now,
    }, { runMaven: runBuild, executable: 'mvn', setup, projectDir: dir, env: process.env, logger });
    if (!pass.first.passed) throw new Error('first pass failed');
    const candidates: GateCandidate[] = PICK.map(([suite, name], i) => {
      const c = pass.first.cases.find((x) => x.suite === suite && x.name === name);
      if (!c) throw new Error(`not in the first pass: ${suite} ${name}`);
      return { module: c.module, suite, name, testCaseId: `t${i}`, durationMs: c.durationMs, repetitions: reps, excluded: null, muted: false,
        source: { task: c.task, xmlName: c.xmlName, occurrence: c.occurrence } };
    });

    const stressMs: number[] = [];
    for (let i = 0; i < runs; i++) {
      // With the JDK class archive, as the CLI runs it (STRESS_GATE_CLASS_ARCHIVE=0: without); a run that made it waits for it here.
      const r = await runMavenStressPass(candidates, 600, { setup, sources: pass.sources, projectDir: dir, logger, env: process.env });
      await r.archiving;
      const all = [...r.repetitions.values()].every((x) => x.length === reps && x.every((y) => y.status === 'success'));
      if (!all || r.problems.length) throw new Error(`stress pass incomplete: ${r.problems.join('; ')}`);
      stressMs.push(r.wallClockMs);
      log(`stress pass run ${i + 1}: ${sec(r.wallClockMs)}, JDK class archive ${r.classArchive ?? 'off'} (load ${load()})`);
    }

    // Floors: the same number of JVMs, doing nothing (bare), or starting the runner with no selection.
    const hello = join(dir, 'hello');
    mkdirSync(hello);
    writeFileSync(join(hello, 'Hello.java'), 'public class Hello { public static void main(String[] a) {} }\n');
    check(await run('javac', ['Hello.java'], { cwd: hello }), 'javac');
    const bare: number[] = [];
    for (let i = 0; i < reps; i++) bare.push(check(await run('java', ['-cp', hello, 'Hello'], { cwd: hello }), 'java Hello').ms);
    const emptyMs: number[] = [];
    // One runner JVM per repetition with no unique ID selected: launcher and engines start, nothing runs.
    const source = [...pass.sources.values()].find((s) => s.fork.userDir.endsWith('app'))!;
    const { jvmCommand, requestText } = await import('../orchestrator/dist/maven/jvm-request.js');
    for (let i = 0; i < reps; i++) {
      const req = join(dir, `empty-${i}.request`);
      writeFileSync(req, requestText(source.fork, [], join(dir, `empty-${i}.jsonl`)));
      const cmd = jvmCommand(source.fork, setup.runnerJar, req);
      emptyMs.push(check(await run(cmd.file, cmd.args, { cwd: cmd.cwd, env: cmd.env }), 'empty runner').ms);
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
    const bareFloor = bare.reduce((a, b) => a + b, 0);
    const platformFloor = emptyMs.reduce((a, b) => a + b, 0);
    const naiveTotal = (naive.reduce((a, b) => a + b, 0) / naiveRuns) * reps;
    log('');
    log(`3 fast JUnit 5 tests × ${reps} repetitions, each repetition one fresh JVM (load after: ${load()})`);
    log(`  stress pass (direct JVMs), median of ${runs}:         ${sec(stress)}`);
    log(`  floor, ${reps} × bare JVM start (java Hello):          ${sec(bareFloor)}  → stress pass = ${(stress / bareFloor).toFixed(2)}× this floor`);
    log(`  floor, ${reps} × JUnit Platform JVM selecting nothing: ${sec(platformFloor)}  → stress pass = ${(stress / platformFloor).toFixed(2)}× this floor`);
    log(`  naive, ${reps} × mvn -o -pl app -am test -Dtest=… (${naiveRuns} run${naiveRuns === 1 ? '' : 's'} scaled): ${sec(naiveTotal)}  → ${(naiveTotal / stress).toFixed(2)}× slower than the stress pass`);
    log(`  (the naive -Dtest selects whole methods: AdditionTest#adds runs both invocations)`);
    rmSync(setup.workDir, { recursive: true, force: true });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
