// Detection power of the stress gate, measured: the real CLI and real Gradle run the gate on a
// corpus of flaky archetypes (scripts/flaky-archetypes, JUnit 4) many times, against a fake
// verdict API on loopback that names the archetypes as new. Two halves:
//  - repetitions (:app): per archetype the measured catch rate (Wilson 95% interval), the
//    expectation 1-(1-p)^r for r repetitions, and the catch rate of a same-process retry loop of
//    the same count (one JVM: the first execution, then r retries, as same-process retrying tools do);
//  - order (:order, bench-detection-order.ts): the order probe's catch rate per order archetype
//    against the sampling probability, and its false findings on stable new tests.
// Loopback only; every child has a kill timer.
//
// Usage: npm run bench:detection [-- --trials 5 --retry-trials 100 --p 0.2 --order-trials 20 --seed N --only repetitions|order]
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_STRESS_PARAMETERS } from '../verdict-api/dist/contract.js';
import { startFakeVerdict } from './bench-fake-verdict.js';
import { orderTrials } from './bench-detection-order.js';
import { CLI, flags, JAR, JUNIT_CP, load, log, pct, range, ROOT, run, table, wilson } from './bench-gradle-common.js';

type Kind = 'self-contained' | 'per-process' | 'order';

interface Archetype {
  label: string;
  suite: string;
  name: string;
  kind: Kind;
  /** The gate's expected catch rate with r clean-first-pass repetitions; null: no expectation (known limit). */
  expected: (r: number, p: number) => number | null;
  /** What the expectation assumes. */
  model: string;
}

const indep = (r: number, p: number) => 1 - (1 - p) ** r;
const ARCHETYPES: Archetype[] = [
  { label: 'random per execution', suite: 'archetypes.RandomFlakeTest', name: 'failsWithProbabilityP', kind: 'self-contained', expected: indep, model: '1-(1-p)^r' },
  { label: 'thread race', suite: 'archetypes.RaceFlakeTest', name: 'readsBeforeTheWorkerFinishes', kind: 'self-contained', expected: indep, model: '1-(1-p)^r' },
  { label: 'clock slot (time of day)', suite: 'archetypes.ClockFlakeTest', name: 'failsInOneClockSlotOfFive', kind: 'per-process', expected: indep, model: '1-(1-p)^r' },
  { label: 'static init, per-process seed', suite: 'archetypes.StaticInitFlakeTest', name: 'dependsOnAPerProcessDraw', kind: 'per-process', expected: indep, model: '1-(1-p)^r' },
  // Every fifth process fails, in turn: r >= 5 consecutive processes always include one.
  { label: 'temp file shared by processes', suite: 'archetypes.SharedTempFileTest', name: 'assumesTheTempFileIsItsOwn', kind: 'per-process', expected: (r) => Math.min(1, r / 5), model: 'cycle of 5' },
  // The order probe runs beside these too: the leftover's writer is in :base (another test task,
  // which the probe does not reach), and no test of :app binds the leaked port (nothing to find).
  { label: "another test's leftovers (order)", suite: 'archetypes.LeftoverReaderTest', name: 'needsAnotherTestsLeftover', kind: 'order', expected: () => null, model: 'known limit' },
  { label: 'resource leaked across tests', suite: 'archetypes.LeakedPortTest', name: 'bindsAndNeverCloses', kind: 'order', expected: () => null, model: 'known limit' },
];
const NEW_SUITES = new Set(ARCHETYPES.map((a) => a.suite));

interface Tally {
  trials: number;
  caught: number;
  retryTrials: number;
  retryCaught: number;
  reps: number;
  /** Gate runs in which the order probe reported it order-dependent (it passed its repetitions). */
  orderFindings: number;
}

async function main(): Promise<void> {
  const f = flags(process.argv.slice(2));
  // Each flag's environment key is BENCH_ and its name: BENCH_TRIALS, BENCH_RETRY_TRIALS, BENCH_P, BENCH_ORDER_TRIALS, BENCH_SEED.
  const num = (name: string, fallback: number) => {
    const n = Number(f.get(name) ?? process.env[`BENCH_${name.toUpperCase().replaceAll('-', '_')}`] ?? fallback);
    if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a non-negative number`);
    return n;
  };
  const trials = num('trials', 5);
  const orderTrialCount = num('order-trials', 20);
  const seed = num('seed', Math.floor(Math.random() * 2 ** 32));
  const only = f.get('only') ?? 'repetitions,order';
  if (!only.split(',').every((x) => x === 'repetitions' || x === 'order')) throw new Error('--only: repetitions, order or both');
  const retryTrials = num('retry-trials', 100);
  const p = num('p', 0.2);
  // The archetypes tell the first pass from a repetition by the Test task's name (archetype.task),
  // which only the Gradle executor's repetition tasks carry: the direct executor reuses the first
  // pass's fork settings, so it is measured through the Gradle executor here (see README).
  const executor = f.get('executor') ?? 'gradle';
  if (executor !== 'gradle') throw new Error('--executor: the archetypes can only be measured through the gradle executor');
  // The order archetypes need no task name (a repetition runs them alone, and passes): their half
  // runs through the default direct executor, which starts the probe's JVMs as it starts its own.
  const orderExecutor = f.get('order-executor') ?? 'direct';
  if (orderExecutor !== 'gradle' && orderExecutor !== 'direct') throw new Error('--order-executor: direct or gradle');
  if (!existsSync(JAR)) throw new Error(`${JAR} is missing: make plugin`);
  if (!existsSync(join(ROOT, 'orchestrator/dist/cli.js'))) throw new Error('orchestrator/dist is missing: npm run build');

  const work = mkdtempSync(join(tmpdir(), 'stress-gate-bench-detection-'));
  const project = join(work, 'project');
  cpSync(join(ROOT, 'scripts/flaky-archetypes'), project, { recursive: true });
  const counter = `stress-gate-archetype-${process.pid}.count`;
  const port = String(40000 + (process.pid % 20000));
  const sysProps = [`-Darchetype.p=${p}`, `-Darchetype.counter=${counter}`, `-Darchetype.port=${port}`];
  // -D reaches Gradle's JVM, not the test JVMs: an init script (kept by the stress pass) sets them there.
  const props = join(work, 'props.init.gradle');
  writeFileSync(props, `allprojects { tasks.withType(Test).all { systemProperty 'archetype.p', '${p}'; systemProperty 'archetype.counter', '${counter}'; systemProperty 'archetype.port', '${port}' } }\n`);
  const env: NodeJS.ProcessEnv = { ...process.env, STRESS_GATE_PROJECT: 'bench', STRESS_GATE_TOKEN: 'bench-token', STRESS_GATE_PLUGIN_JAR: JAR, STRESS_GATE_EXECUTOR: executor };
  for (const k of ['STRESS_NEW_TESTS', 'GITHUB_ACTIONS', 'GITLAB_CI', 'GITHUB_STEP_SUMMARY', 'CI', 'STRESS_GATE_ORDER_SEED', 'STRESS_GATE_ORDER_PROBE', 'STRESS_GATE_ORDER_PROBE_SECONDS']) delete env[k];
  const t0 = performance.now();
  let wrong = 0;
  try {
    if (only.includes('repetitions')) wrong += await repetitionTrials({ project, work, trials, retryTrials, p, sysProps, props, env });
    if (only.includes('order')) {
      if (only.includes('repetitions')) log('');
      wrong += await orderTrials({ project, work, trials: orderTrialCount, seed, executor: orderExecutor, env, initScript: props });
    }
    log('');
    log(`bench:detection: ${((performance.now() - t0) / 60000).toFixed(1)} min in all; load ${load()}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
    rmSync(join(tmpdir(), counter), { force: true });
  }
  if (wrong) process.exitCode = 1;
}

/** The repetitions' half on :app (and :base, whose leftover :app reads); returns the order findings, all false, on these archetypes. */
async function repetitionTrials(o: { project: string; work: string; trials: number; retryTrials: number; p: number; sysProps: string[]; props: string; env: NodeJS.ProcessEnv }): Promise<number> {
  const { project, trials, retryTrials, p } = o;
  // The guards are the server's, with a floor above the corpus so bulk change never fires.
  const fake = await startFakeVerdict((x) => NEW_SUITES.has(x.suite), { ...DEFAULT_STRESS_PARAMETERS, bulkChangeFloor: 1000 });
  const env: NodeJS.ProcessEnv = { ...o.env, STRESS_GATE_URL: fake.url };
  const tally = new Map<string, Tally>(ARCHETYPES.map((a) => [a.suite, { trials: 0, caught: 0, retryTrials: 0, retryCaught: 0, reps: 0, orderFindings: 0 }]));
  const t0 = performance.now();
  try {
    log(`bench:detection (${env.STRESS_GATE_EXECUTOR} executor): ${trials} gate runs x ${ARCHETYPES.length} archetypes (p = ${p}), ${retryTrials} same-process retry loops each; load ${load()}`);
    const reportFile = join(o.work, 'report.json');
    const tasks = [':base:cleanTest', ':base:test', ':app:cleanTest', ':app:test'];
    for (let i = 0; i < trials; i++) {
      const r = await run(process.execPath, [CLI, 'gradle', '--offline', '-q', '-I', o.props, ...tasks, '--stress-new-tests', 'report', '--report-file', reportFile], { cwd: project, env });
      if (r.code !== 0) throw new Error(`gate run ${i + 1} exited ${r.code}\n${r.stdout.slice(-2000)}\n${r.stderr.slice(-3000)}`);
      const report = JSON.parse(readFileSync(reportFile, 'utf8')) as { candidates: { suite: string; outcome: string; expected: number; failures: number; recorded: unknown[] }[] };
      for (const c of report.candidates) {
        const t = tally.get(c.suite);
        if (!t || (c.outcome !== 'passed' && c.outcome !== 'failed' && c.outcome !== 'order_dependent')) continue;
        t.trials++;
        t.reps = c.expected;
        if (c.outcome === 'failed') t.caught++;
        // It passed its repetitions, and the probe blamed it: no test of :app depends on another's order.
        if (c.outcome === 'order_dependent') t.orderFindings++;
      }
      if ((i + 1) % 5 === 0) log(`  ${i + 1}/${trials} gate runs (${((performance.now() - t0) / 1000).toFixed(0)} s, load ${load()})`);
    }
  } finally {
    await fake.close();
  }

  // Same-process retries: one JVM runs each archetype once, then r more times. A first
  // execution that fails is no candidate (as in the gate); that archetype goes again in a new JVM.
  const r = ARCHETYPES.map((a) => tally.get(a.suite)!.reps).find((n) => n > 0) ?? 10;
  const cp = [join(project, 'app/build/classes/java/test'), ...JUNIT_CP].join(':');
  const need = new Map(ARCHETYPES.map((a) => [`${a.suite}#${a.name}`, retryTrials]));
  let jvms = 0;
  while ([...need.values()].some((n) => n > 0) && jvms < retryTrials * 4) {
    jvms++;
    const targets = [...need].filter(([, n]) => n > 0).map(([k]) => k);
    const out = await run('java', ['-cp', cp, `-Darchetype.root=${project}`, ...o.sysProps, 'archetypes.SameProcessRetry', String(r), ...targets], { cwd: project });
    for (const line of out.stdout.trim().split('\n')) {
      const [target, result] = line.split(' ');
      if (!target || !result || result === 'FIRST_FAILED' || !need.has(target)) continue;
      const t = tally.get(target.split('#')[0]!)!;
      t.retryTrials++;
      if (Number(result) > 0) t.retryCaught++;
      need.set(target, need.get(target)! - 1);
    }
  }

  log('');
  log(`Catch rate per archetype: the gate (r fresh JVMs) vs a same-process retry loop of r (${((performance.now() - t0) / 60000).toFixed(1)} min)`);
  log('');
  const rows = ARCHETYPES.map((a) => {
    const t = tally.get(a.suite)!;
    const measured = t.trials ? t.caught / t.trials : NaN;
    const ci = wilson(t.caught, t.trials);
    const e = a.expected(t.reps || r, p);
    const within = e === null ? 'known limit' : e >= ci[0] && e <= ci[1] ? 'yes' : 'NO';
    return [a.label, a.kind, String(t.reps || r), `${t.caught}/${t.trials} = ${pct(measured)}`, range(ci), e === null ? '—' : `${pct(e)} (${a.model})`, within, `${t.retryCaught}/${t.retryTrials} = ${pct(t.retryCaught / t.retryTrials)}`, String(t.orderFindings)];
  });
  table(['archetype', 'kind', 'r', 'gate caught', 'Wilson 95%', 'expected', 'within', 'same-process retry', 'order findings'], rows);
  log('');
  log(`p = ${p} per execution (per process for the per-process kinds). The first pass always passes (the gate only stresses`);
  log('tests that passed it); a retry loop whose first execution failed is discarded and redrawn in a new JVM.');
  log('Order archetypes here: the leftover is written by :base, another test task the order probe does not reach, and');
  log('no test of :app uses the leaked port, so the probe has nothing to find (order findings must stay 0). The leaked port');
  log('"caught" by same-process retries is the loop colliding with its own leak: a false alarm about this test.');
  log('The order probe runs these archetypes as the first pass does (its JVMs carry no archetype.task), so they do not misbehave there.');
  return [...tally.values()].reduce((n, t) => n + t.orderFindings, 0);
}

main().catch((e: unknown) => {
  process.stderr.write(`bench:detection: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
