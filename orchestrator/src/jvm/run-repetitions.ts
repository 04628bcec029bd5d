// The direct executor, for every build tool: each repetition of each candidate is one fresh JVM
// the orchestrator starts itself (as the build started its test JVM: jvm/stress-target.ts), with
// the runner selecting exactly that candidate, up to `concurrency` JVMs at a time, all within the
// ceiling. A candidate never shares a JVM with another: each runs first in a cold JVM every time,
// as it does in CI, and no other candidate's static state reaches it.
//
// Isolation: concurrent JVMs share the build's working directory (part of what the test sees, so
// never changed) and may collide on files a test writes at fixed paths. So a candidate that failed
// while JVMs ran side by side runs again alone, one JVM at a time, and that run is its verdict:
// the gate never reports a failure that only its own concurrency caused.
import { mkdir, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import type { Logger } from '../log.js';
import type { FailureDetail, RecordedRepetition } from '../repetitions/stress-pass-result.js';
import { archiveArgs, type ClassArchive, makeArchives } from './class-archive.js';
import type { JvmExit, JvmLauncher } from './launch-jvm.js';
import type { Progress } from './progress.js';
import { parseRunnerLog, type RunnerResult } from './runner-log.js';
import { jvmCommand, requestText } from './runner-request.js';
import { selects, type StressTarget } from './stress-target.js';

/** What the scheduler runs. */
export interface RepetitionsInput {
  targets: readonly StressTarget[];
  runnerJar: string;
  /** Where each JVM's request, results and output go (kept after the run: the author reads them). */
  outputDir: string;
  concurrency: number;
  /** The ceiling, from the pass's start; null: none. */
  deadlineMs: number | null;
  /** Per jvmKey, how its JVMs use the JDK class archive (none: no archive). */
  archives?: ReadonlyMap<string, ClassArchive>;
  /** Stop every JVM at the first failed repetition (no running again alone either). */
  untilFailure?: boolean;
}

/** Its adapters. */
export interface RepetitionsDeps {
  launch: JvmLauncher;
  logger: Logger;
  signal?: AbortSignal;
  /** A progress reporter for `total` repetitions; `title` names a pass other than the first. */
  progress?: (total: number, deadlineAt: number | null, title?: string) => Progress;
}

/** What it recorded. */
export interface RepetitionsOutcome {
  /** Per candidate testCaseId, in repetition order. */
  repetitions: Map<string, RecordedRepetition[]>;
  cut: boolean;
  /** Stopped at the first failed repetition (untilFailure). */
  stoppedAtFailure: boolean;
  cancelled: boolean;
  problems: string[];
  /** Candidates run again alone because they failed while JVMs ran side by side. */
  confirmed: number;
  wallClockMs: number;
  /** JVMs planned (one per candidate and repetition). */
  jvms: number;
  /** The JDK class archives being made from this pass's class lists (awaited before the run ends). */
  archiving: Promise<void>;
}

/** One JVM to start: repetition `k` of one target. */
interface Job {
  target: StressTarget;
  index: number;
  k: number;
  dir: string;
}

interface PassState {
  stop: AbortController;
  cut: boolean;
  stoppedAtFailure: boolean;
  cancelled: boolean;
  problems: string[];
}

/** The most bytes of a JVM's output read back for its tail. */
const TAIL_BYTES = 16 * 1024;

/** Runs every repetition; never throws for a JVM's trouble (it is a missing or failed result). */
export async function runRepetitions(input: RepetitionsInput, deps: RepetitionsDeps): Promise<RepetitionsOutcome> {
  const started = Date.now();
  const deadlineAt = input.deadlineMs === null ? null : started + input.deadlineMs;
  const state: PassState = { stop: new AbortController(), cut: false, stoppedAtFailure: false, cancelled: false, problems: [] };
  const timer = input.deadlineMs === null ? undefined : setTimeout(() => {
    state.cut = !state.cancelled && !state.stoppedAtFailure;
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
    await rm(input.outputDir, { recursive: true, force: true });
    const jobs = jobsOf(input.targets, input.outputDir, 'rep');
    const progress = deps.progress?.(jobs.length, deadlineAt);
    const extra = archiveArgs(input.archives ?? new Map());
    const recorded = await runJobs(jobs, input.concurrency, input, deps, state, progress, extra);
    progress?.end();
    let confirmed = 0;
    if (input.concurrency > 1 && !state.cut && !state.cancelled && !input.untilFailure) {
      const again = input.targets.filter((t) => (t.candidate.repetitions ?? 0) > 1 && (recorded.get(t.candidate.testCaseId) ?? []).some((r) => r.status === 'failure'));
      if (again.length) {
        confirmed = again.length;
        deps.logger.info({ candidates: again.length }, 'failed while JVMs ran side by side: running them again alone');
        const aloneJobs = jobsOf(again, input.outputDir, 'alone');
        // Its own progress line: a rerun of 50 slow repetitions must not look like a hang either.
        const aloneProgress = deps.progress?.(aloneJobs.length, deadlineAt, 'stress pass, again alone');
        const alone = await runJobs(aloneJobs, 1, input, deps, state, aloneProgress, extra);
        aloneProgress?.end();
        for (const [id, reps] of alone) recorded.set(id, reps);
      }
    }
    const wallClockMs = Date.now() - started;
    // Made after the pass, beside the rest of the run.
    const archiving = makeArchives(input.archives ?? new Map(), state.cut || state.cancelled || state.stoppedAtFailure, deps.signal);
    return { repetitions: recorded, cut: state.cut, stoppedAtFailure: state.stoppedAtFailure, cancelled: state.cancelled, problems: state.problems, confirmed, wallClockMs, jvms: jobs.length, archiving };
  } finally {
    clearTimeout(timer);
    deps.signal?.removeEventListener('abort', onAbort);
  }
}

/** Every job, ordered by repetition then target, so each candidate's early repetitions start first. */
function jobsOf(targets: readonly StressTarget[], outputDir: string, phase: string): Job[] {
  const jobs: Job[] = [];
  const max = Math.max(0, ...targets.map((t) => t.candidate.repetitions ?? 0));
  for (let k = 1; k <= max; k++) {
    targets.forEach((target, index) => {
      if ((target.candidate.repetitions ?? 0) >= k) jobs.push({ target, index, k, dir: path.join(outputDir, folderName(index, target), `${phase}-${k}`) });
    });
  }
  return jobs;
}

/** `3-CheckoutTest.appliesDiscount`: readable, short, safe on any file system. */
function folderName(index: number, t: StressTarget): string {
  const simple = t.candidate.suite.slice(t.candidate.suite.lastIndexOf('.') + 1);
  return `${index + 1}-${`${simple}.${t.candidate.name}`.replace(/[^\p{L}\p{N}._-]+/gu, '_').slice(0, 80)}`;
}

async function runJobs(
  jobs: Job[],
  concurrency: number,
  input: RepetitionsInput,
  deps: RepetitionsDeps,
  state: PassState,
  progress: Progress | undefined,
  extra: (key: string) => readonly string[],
): Promise<Map<string, RecordedRepetition[]>> {
  const out = new Map<string, RecordedRepetition[]>(jobs.map((j) => [j.target.candidate.testCaseId, []]));
  // A slot is held only while its JVM lives, so the next JVM starts the moment one exits (the
  // pass is CPU-bound; a gap between JVMs leaves a core idle). Files are written inside the slot:
  // a pass of thousands of JVMs writes nothing it will not run.
  const limit = pLimit(Math.max(1, concurrency));
  await Promise.all(
    jobs.map((job) =>
      limit(async () => {
        if (state.stop.signal.aborted) return;
        const files = await prepare(job, input, extra(job.target.jvmKey));
        const exit = await deps.launch(files.command, files, state.stop.signal).done;
        const rep = await readJob(job, files, exit, state);
        progress?.finished(rep?.status === 'failure' ? 1 : 0);
        if (rep?.status === 'failure' && input.untilFailure && !state.stop.signal.aborted) {
          state.stoppedAtFailure = true;
          state.stop.abort();
        }
        if (rep) out.get(job.target.candidate.testCaseId)!.push(rep);
      }),
    ),
  );
  for (const reps of out.values()) reps.sort((a, b) => a.repetition - b.repetition);
  return out;
}

async function prepare(job: Job, input: RepetitionsInput, extraJvmArgs: readonly string[]) {
  await mkdir(job.dir, { recursive: true });
  const files = {
    request: path.join(job.dir, 'request.txt'),
    results: path.join(job.dir, 'results.jsonl'),
    stdout: path.join(job.dir, 'stdout.log'),
    stderr: path.join(job.dir, 'stderr.log'),
  };
  await writeFile(files.request, requestText(job.target.selection, job.target.jvm.systemProperties, files.results));
  // A JVM that crashes writes its hs_err file here rather than into the build's working directory.
  const errorFile = job.target.jvm.jvmArgs.some((a) => a.startsWith('-XX:ErrorFile=')) ? [] : [`-XX:ErrorFile=${path.join(job.dir, 'hs_err_pid%p.log')}`];
  const command = jvmCommand(job.target.jvm, input.runnerJar, files.request, [...extraJvmArgs, ...errorFile], path.delimiter);
  return { ...files, command };
}

async function readJob(job: Job, files: { results: string; stdout: string; stderr: string }, exit: JvmExit, state: PassState): Promise<RecordedRepetition | null> {
  const { target, k } = job;
  const log = parseRunnerLog(await readFile(files.results, 'utf8').catch(() => ''), files.results);
  const mine: RunnerResult | undefined = log.finished.filter((r) => selects(target.selection, r))[target.occurrence - 1];
  const where = `repetition ${k} of ${target.candidate.suite}.${target.candidate.name}`;
  if (mine) {
    // Skipped (an assumption failed, or ignored): it did not run; absent, like a missing result.
    if (mine.status === 'skipped') return null;
    const rep: RecordedRepetition = { repetition: k, status: mine.status, durationMs: mine.durationMs };
    if (mine.status === 'failure') {
      rep.failure = { kind: 'failure', type: mine.failure?.type ?? null, message: mine.failure?.message ?? null, trace: mine.failure?.trace ?? null, ...(await outputOf(files)), exitCode: null, signal: null, hsErrFile: null };
    }
    return rep;
  }
  if (exit.startError) {
    state.problems.push(`${where}: could not start ${target.jvm.java}: ${exit.startError}.`);
    return null;
  }
  if (exit.killed) return null; // the gate stopped it (ceiling, cancellation): not the test's doing
  const ranIt = log.started.some((s) => selects(target.selection, s));
  if (ranIt) {
    // It started and never finished: its JVM died under it (System.exit, an OOM kill, a crash).
    const failure: FailureDetail = { kind: 'crash', type: null, message: null, trace: null, ...(await outputOf(files)), exitCode: exit.exitCode, signal: exit.signal, hsErrFile: await hsErrFile(job.dir, exit.pid) };
    return { repetition: k, status: 'failure', durationMs: 0, crashed: true, failure };
  }
  state.problems.push(
    exit.exitCode === 0
      ? `${where}: the runner found no such test; see ${files.stderr}.`
      : `${where}: the JVM exited with ${exit.signal ? `signal ${exit.signal}` : `code ${exit.exitCode}`} before the test ran; see ${files.stderr}.`,
  );
  return null;
}

async function outputOf(files: { stdout: string; stderr: string }): Promise<Pick<FailureDetail, 'stdoutTail' | 'stderrTail'>> {
  return { stdoutTail: await tail(files.stdout), stderrTail: await tail(files.stderr) };
}

/** The last TAIL_BYTES of a file, from a line start when it was cut; null when empty or absent. */
async function tail(file: string): Promise<string | null> {
  const handle = await open(file, 'r').catch(() => null);
  if (!handle) return null;
  try {
    const size = (await handle.stat()).size;
    if (size === 0) return null;
    const length = Math.min(size, TAIL_BYTES);
    const buf = Buffer.alloc(length);
    await handle.read(buf, 0, length, size - length);
    const text = buf.toString('utf8');
    return size > length ? text.slice(text.indexOf('\n') + 1) : text;
  } finally {
    await handle.close();
  }
}

async function hsErrFile(dir: string, pid: number | null): Promise<string | null> {
  if (pid === null) return null;
  const file = path.join(dir, `hs_err_pid${pid}.log`);
  return (await stat(file).catch(() => null)) ? file : null;
}
