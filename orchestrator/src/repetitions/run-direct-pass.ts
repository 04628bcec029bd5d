// The direct executor: the orchestrator starts every repetition's fresh JVM itself, with the
// Test task's own fork settings (exported by the plugin in the first pass) and the runner in the
// plugin jar, up to `concurrency` JVMs at a time, all within the ceiling. No Gradle invocation.
//
// Isolation: concurrent repetitions share the Test task's working directory (it is part of what
// the test observes, so it is never changed), and may collide on files a test writes at fixed
// paths. So a candidate that failed while its repetitions ran side by side is run again alone,
// one JVM at a time (the reference executor's conditions), and that run is its verdict: the gate
// never reports a failure that only its own concurrency caused.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import type { GateCandidate } from '../candidates/gate-candidate.js';
import { parseResultsLog } from '../first-pass/results-log.js';
import type { Logger } from '../log.js';
import { archiveArgs, type ClassArchive, makeArchives } from './class-archive.js';
import type { ForkSpec } from './fork-spec.js';
import type { Progress } from './progress.js';
import { assignRepetitions, type RepetitionReport } from './read-repetitions.js';
import { jvmCommand, repetitionJobs, runnerSpec, type RepetitionJob } from './repetition-jobs.js';
import type { JvmExit, JvmLaunch, JvmRunner } from './run-jvm.js';
import type { StressPlan } from './stress-plan.js';

/** What the direct executor needs. */
export interface DirectPassInput {
  plan: StressPlan;
  stress: readonly GateCandidate[];
  specs: ReadonlyMap<string, ForkSpec>;
  runnerJar: string;
  concurrency: number;
  deadlineMs: number;
  /** Per task path, how its JVMs use the JDK class archive (none: no archive). */
  archives?: ReadonlyMap<string, ClassArchive>;
}

/** Its adapters. */
export interface DirectPassDeps {
  runJvm: JvmRunner;
  logger: Logger;
  signal?: AbortSignal;
  /** A progress reporter for `total` repetitions finishing `batch` at a time. */
  progress?: (total: number, batch: number, deadlineAt: number) => Progress;
}

/** What it recorded. */
export interface DirectPassOutcome {
  reports: RepetitionReport[];
  cut: boolean;
  cancelled: boolean;
  problems: string[];
  /** Candidates re-run alone because they failed while their repetitions overlapped. */
  confirmed: number;
  wallClockMs: number;
  /** The JDK class archives being made from this pass's class lists (awaited before the run ends). */
  archiving: Promise<void>;
}

interface PassState {
  stop: AbortController;
  cut: boolean;
  cancelled: boolean;
  problems: string[];
}

/** Runs every repetition of the plan; never throws for a JVM's trouble (it is a missing result). */
export async function runDirectPass(input: DirectPassInput, deps: DirectPassDeps): Promise<DirectPassOutcome> {
  const started = Date.now();
  const deadlineAt = started + input.deadlineMs;
  const state: PassState = { stop: new AbortController(), cut: false, cancelled: false, problems: [] };
  const timer = setTimeout(() => {
    state.cut = !state.cancelled;
    deps.logger.info({ deadlineMs: input.deadlineMs }, 'ceiling reached: stopping the repetition JVMs');
    state.stop.abort();
  }, input.deadlineMs);
  const onAbort = () => {
    state.cancelled = true;
    state.stop.abort();
  };
  if (deps.signal?.aborted) onAbort();
  else deps.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const jobs = repetitionJobs(input.plan);
    const progress = deps.progress?.(jobs.length, input.concurrency, deadlineAt);
    let reports = await runJobs(jobs, 'rep', input.concurrency, input, deps, state, progress);
    progress?.end();
    let confirmed = 0;
    if (input.concurrency > 1 && !state.cut && !state.cancelled) {
      const again = failedSideBySide(input, reports);
      if (again.keys.size) {
        confirmed = again.count;
        const alone = await runJobs(repetitionJobs(again.plan), 'alone', 1, input, deps, state, undefined);
        reports = [...reports.map((r) => withoutKeys(r, again.keys)), ...alone];
      }
    }
    reports.sort((a, b) => (a.taskPath === b.taskPath ? a.repetition - b.repetition : a.taskPath < b.taskPath ? -1 : 1));
    const wallClockMs = Date.now() - started;
    // Made after the pass, beside the rest of the run.
    const archiving = makeArchives(input.archives ?? new Map(), state.cut || state.cancelled, deps.signal);
    return { reports, cut: state.cut, cancelled: state.cancelled, problems: state.problems, confirmed, wallClockMs, archiving };
  } finally {
    clearTimeout(timer);
    deps.signal?.removeEventListener('abort', onAbort);
  }
}

async function runJobs(
  jobs: RepetitionJob[],
  dirName: string,
  concurrency: number,
  input: DirectPassInput,
  deps: DirectPassDeps,
  state: PassState,
  progress: Progress | undefined,
): Promise<RepetitionReport[]> {
  // Every JVM's folder and spec are written before the first starts, and a JVM's results are read
  // after its slot is free: a slot is held only while its JVM lives, so the next JVM starts the
  // moment one exits (the pass is CPU-bound; a gap between JVMs leaves a core idle).
  const extra = archiveArgs(input.archives ?? new Map());
  const launches = await Promise.all(jobs.map((job) => prepareJob(job, dirName, input, extra(job.taskPath))));
  const limit = pLimit(Math.max(1, concurrency));
  const ran = await Promise.all(
    launches.map(async (l) => {
      const exit = await limit(() => (state.stop.signal.aborted ? null : deps.runJvm({ ...l.launch, stop: state.stop.signal })));
      return exit === null ? null : readJob(l, exit, state, progress);
    }),
  );
  return ran.filter((r): r is RepetitionReport => r !== null);
}

interface PreparedJob {
  job: RepetitionJob;
  spec: ForkSpec;
  results: string;
  launch: Omit<JvmLaunch, 'stop'>;
}

async function prepareJob(job: RepetitionJob, dirName: string, input: DirectPassInput, extraJvmArgs: readonly string[]): Promise<PreparedJob> {
  const spec = input.specs.get(job.taskPath)!;
  const dir = path.join(input.plan.resultsDir, job.id, `${dirName}-${job.repetition}`);
  await mkdir(dir, { recursive: true });
  const files = { spec: path.join(dir, 'spec.txt'), results: path.join(dir, 'results.jsonl') };
  await writeFile(files.spec, runnerSpec(job));
  const cmd = jvmCommand(spec, input.runnerJar, files, job.label, path.delimiter, extraJvmArgs);
  return { job, spec, results: files.results, launch: { ...cmd, cwd: spec.workingDir, env: spec.environment, logFile: path.join(dir, 'output.log') } };
}

async function readJob({ job, spec, results, launch }: PreparedJob, exit: JvmExit, state: PassState, progress: Progress | undefined): Promise<RepetitionReport> {
  const log = parseResultsLog(await readFile(results, 'utf8').catch(() => ''));
  const cases = log.byTask.get(job.label) ?? [];
  const done = new Set(cases.map((c) => JSON.stringify([c.suite, c.name])));
  // Started and never finished: the JVM died under the test, unless the gate itself killed it.
  const crashed = exit.killed ? [] : (log.startedByTask.get(job.label) ?? []).filter((s) => !done.has(JSON.stringify([s.suite, s.name])));
  const where = `repetition ${job.repetition} of ${job.taskPath}`;
  if (exit.startError) state.problems.push(`${where}: could not start ${spec.executable}: ${exit.startError}.`);
  else if (!exit.killed && exit.exitCode !== 0 && cases.length === 0 && crashed.length === 0) {
    state.problems.push(`${where}: the JVM exited with code ${exit.exitCode} before any candidate ran; see ${launch.logFile}.`);
  }
  progress?.finished(cases.filter((c) => c.status === 'failure').length + crashed.length);
  return { taskPath: job.taskPath, repetition: job.repetition, cases, crashed };
}

/** The candidates that failed while their repetitions overlapped, as a plan to run them alone. */
function failedSideBySide(input: DirectPassInput, reports: RepetitionReport[]): { plan: StressPlan; keys: Set<string>; count: number } {
  const recorded = assignRepetitions(input.stress, reports);
  const keys = new Set<string>();
  let count = 0;
  for (const c of input.stress) {
    if (!c.source || (c.repetitions ?? 0) < 2) continue;
    if (!(recorded.get(c.testCaseId) ?? []).some((r) => r.status === 'failure')) continue;
    const key = JSON.stringify([c.source.task, c.suite, c.source.xmlName]);
    if (!keys.has(key)) count++;
    keys.add(key);
  }
  const tasks = input.plan.tasks
    .map((t) => ({ ...t, candidates: t.candidates.filter((pc) => keys.has(JSON.stringify([t.path, pc.suite, pc.name]))) }))
    .filter((t) => t.candidates.length > 0);
  return { plan: { resultsDir: input.plan.resultsDir, tasks }, keys, count };
}

function withoutKeys(r: RepetitionReport, keys: Set<string>): RepetitionReport {
  const keep = (s: { suite: string; name: string }) => !keys.has(JSON.stringify([r.taskPath, s.suite, s.name]));
  return { ...r, cases: r.cases.filter(keep), crashed: r.crashed.filter(keep) };
}
