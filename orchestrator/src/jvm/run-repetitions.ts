// The direct executor, for every build tool: each repetition of each target is one fresh JVM the
// orchestrator starts itself (as the build started its test JVM: jvm/stress-target.ts), with the
// runner selecting exactly that target's candidates, up to `concurrency` JVMs at a time, all
// within the ceiling. A candidate never shares a JVM with another test but its own method's new
// invocations: each runs first in a cold JVM every time, as it does in CI.
//
// Isolation: concurrent JVMs share the build's working directory (part of what the test sees, so
// never changed) and may collide on files a test writes at fixed paths. So a target that failed
// while JVMs ran side by side runs again alone, one JVM at a time, and that run is its verdict;
// what failed side by side is kept and reported beside it (timing-sensitive).
//
// A pass that cannot produce a result stops early: a candidate the runner cannot find or start
// gets no more JVMs after its first, and when the first candidates all fail that way for one
// cause, the pass stops and says why once.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import type { Logger } from '../base/log.js';
import { HALTED_WHY, type RecordedRepetition, type RepetitionTiming } from '../repetitions/stress-pass-result.js';
import { type ArchivedStart, ArchiveSession, type ClassArchive } from './class-archive.js';
import type { JvmLauncher } from './launch-jvm.js';
import type { Progress } from './progress.js';
import { readRepetition, type RepetitionFiles } from './read-repetition.js';
import type { JvmFacts } from './runner-log.js';
import { errorFileArgs, jvmCommand, requestText, withRunner } from './runner-request.js';
import { targetRepetitions, type StressTarget } from './stress-target.js';

/** What the scheduler runs. */
export interface RepetitionsInput {
  targets: readonly StressTarget[];
  runnerJar: string;
  /** Where each JVM's request, results and output go (kept after the run: the author reads them). */
  outputDir: string;
  concurrency: number;
  /** The ceiling, from the pass's start; null: none. */
  deadlineMs: number | null;
  /** Per jvmKey, how its JVMs use the class archive and lay out their class path (none: no archive). */
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

/** The pass stopped before its end because its first targets could not run, all for one cause. */
export interface Halt {
  cause: string;
  /** Targets whose first JVM failed that way. */
  targets: number;
}

/** What it recorded. */
export interface RepetitionsOutcome {
  /** Per candidate testCaseId, in repetition order (of the alone run, for a candidate run again alone). */
  repetitions: Map<string, RecordedRepetition[]>;
  /** Per candidate run again alone: what its repetitions recorded side by side. */
  sideBySide: Map<string, RecordedRepetition[]>;
  /** Candidates the runner could not run, and why: no more JVMs were started for them. */
  unrunnable: Map<string, string>;
  halted: Halt | null;
  cut: boolean;
  /** Stopped at the first failed repetition (untilFailure). */
  stoppedAtFailure: boolean;
  cancelled: boolean;
  problems: string[];
  /** Candidates run again alone because they failed while JVMs ran side by side. */
  confirmed: number;
  wallClockMs: number;
  /** JVMs started, side by side and alone. */
  jvms: number;
  /** Of those, started to run candidates again alone. */
  jvmsAlone: number;
  /** The wall clock of running them again alone (ms; part of wallClockMs). */
  aloneMs: number;
  /** Per target (index in `targets`), the first repetition JVM's description of itself. */
  facts: Map<number, JvmFacts>;
  /** The class archives being made from this pass's class lists (awaited before the run ends). */
  archiving: Promise<void>;
  /** How the pass's JVMs used their class archives (class-archive.ts). */
  classArchive: ReturnType<ArchiveSession['state']>;
  /** Where the repetition JVMs' time went, summed over those that reported it. */
  timing: RepetitionTiming;
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
  unrunnable: Map<string, string>;
  /** Targets that recorded anything (a result or a crash). */
  ran: Set<number>;
  /** Causes of targets whose first JVM ran none of their candidates, in order. */
  firstCauses: string[];
  judged: Set<number>;
  halted: Halt | null;
  facts: Map<number, JvmFacts>;
  started: number;
  timing: RepetitionTiming;
}

/** How many targets must fail their first JVM for one cause, with none that ran, before the pass stops. */
export const HALT_AFTER = 3;

/** Runs every repetition; never throws for a JVM's trouble (it is a missing or failed result). */
export async function runRepetitions(input: RepetitionsInput, deps: RepetitionsDeps): Promise<RepetitionsOutcome> {
  const started = Date.now();
  const deadlineAt = input.deadlineMs === null ? null : started + input.deadlineMs;
  const state: PassState = { stop: new AbortController(), cut: false, stoppedAtFailure: false, cancelled: false, problems: [], unrunnable: new Map(), ran: new Set(), firstCauses: [], judged: new Set(), halted: null, facts: new Map(), started: 0, timing: { jvms: 0, startMs: 0, discoveryMs: 0, testsMs: 0, exitMs: 0 } };
  const timer = input.deadlineMs === null ? undefined : setTimeout(() => {
    state.cut = !state.cancelled && !state.stoppedAtFailure && !state.halted;
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
    const session = new ArchiveSession(input.archives ?? new Map());
    const recorded = await runJobs(jobs, input.concurrency, input, deps, state, progress, session);
    progress?.end();
    const sideBySide = new Map<string, RecordedRepetition[]>();
    let confirmed = 0;
    const aloneBefore = state.started;
    const aloneFrom = Date.now();
    if (input.concurrency > 1 && !state.cut && !state.cancelled && !state.halted && !input.untilFailure) {
      const again = input.targets.filter((t) => targetRepetitions(t) > 1 && t.members.some((m) => (recorded.get(m.candidate.testCaseId) ?? []).some((r) => r.status === 'failure')));
      if (again.length) {
        confirmed = again.reduce((n, t) => n + t.members.length, 0);
        deps.logger.info({ candidates: confirmed }, 'failed while JVMs ran side by side: running them again alone');
        const aloneJobs = jobsOf(again, input.outputDir, 'alone', input.targets);
        // Its own progress line: a rerun of 50 slow repetitions must not look like a hang either.
        const aloneProgress = deps.progress?.(aloneJobs.length, deadlineAt, 'stress pass, again alone');
        const alone = await runJobs(aloneJobs, 1, input, deps, state, aloneProgress, session);
        aloneProgress?.end();
        for (const [id, reps] of alone) {
          sideBySide.set(id, recorded.get(id) ?? []);
          recorded.set(id, reps);
        }
      }
    }
    if (state.halted) {
      const why = HALTED_WHY;
      for (const t of input.targets) for (const m of t.members) if (!(recorded.get(m.candidate.testCaseId) ?? []).length && !state.unrunnable.has(m.candidate.testCaseId)) state.unrunnable.set(m.candidate.testCaseId, why);
    }
    const wallClockMs = Date.now() - started;
    // Made after the pass, beside the rest of the run.
    const archiving = session.finish(state.cut || state.cancelled || state.stoppedAtFailure || state.halted !== null, deps.signal);
    return {
      repetitions: recorded,
      sideBySide,
      unrunnable: state.unrunnable,
      halted: state.halted,
      cut: state.cut,
      stoppedAtFailure: state.stoppedAtFailure,
      cancelled: state.cancelled,
      problems: state.problems,
      confirmed,
      wallClockMs,
      jvms: state.started,
      jvmsAlone: state.started - aloneBefore,
      aloneMs: state.started > aloneBefore ? Date.now() - aloneFrom : 0,
      facts: state.facts,
      archiving,
      classArchive: session.state(),
      timing: state.timing,
    };
  } finally {
    clearTimeout(timer);
    deps.signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * Every job, ordered by repetition then target, so each target's early repetitions start first;
 * the new tests' before the modified tests' (diff/), so that a ceiling that cuts the pass cuts
 * those the merge request only changed, not the ones it adds.
 */
function jobsOf(targets: readonly StressTarget[], outputDir: string, phase: string, all: readonly StressTarget[] = targets): Job[] {
  const jobs: Job[] = [];
  const modified = (t: StressTarget) => t.members.every((m) => m.candidate.origin === 'modified');
  for (const tier of [targets.filter((t) => !modified(t)), targets.filter(modified)]) {
    const max = Math.max(0, ...tier.map(targetRepetitions));
    for (let k = 1; k <= max; k++) {
      for (const target of tier) {
        const index = all.indexOf(target);
        if (targetRepetitions(target) >= k) jobs.push({ target, index, k, dir: path.join(outputDir, folderName(index, target), `${phase}-${k}`) });
      }
    }
  }
  return jobs;
}

/** `3-CheckoutTest.appliesDiscount`: readable, short, safe on any file system. */
function folderName(index: number, t: StressTarget): string {
  const c = t.members[0]!.candidate;
  const simple = c.suite.slice(c.suite.lastIndexOf('.') + 1);
  return `${index + 1}-${`${simple}.${c.name}`.replace(/[^\p{L}\p{N}._-]+/gu, '_').slice(0, 80)}`;
}

async function runJobs(
  jobs: Job[],
  concurrency: number,
  input: RepetitionsInput,
  deps: RepetitionsDeps,
  state: PassState,
  progress: Progress | undefined,
  session: ArchiveSession,
): Promise<Map<string, RecordedRepetition[]>> {
  // Per key, the JVMs still to start: whether an archive made now repays its dump.
  const left = new Map<string, number>();
  for (const j of jobs) left.set(j.target.jvmKey, (left.get(j.target.jvmKey) ?? 0) + 1);
  const out = new Map<string, RecordedRepetition[]>(jobs.flatMap((j) => j.target.members.map((m) => [m.candidate.testCaseId, []] as [string, RecordedRepetition[]])));
  // A slot is held only while its JVM lives, so the next JVM starts the moment one exits (the
  // pass is CPU-bound; a gap between JVMs leaves a core idle). Files are written inside the slot:
  // a pass of thousands of JVMs writes nothing it will not run.
  const limit = pLimit(Math.max(1, concurrency));
  await Promise.all(
    jobs.map((job) =>
      limit(async () => {
        // Candidates the runner could not run get no more JVMs.
        const key = job.target.jvmKey;
        left.set(key, left.get(key)! - 1);
        const members = job.target.members.filter((m) => !state.unrunnable.has(m.candidate.testCaseId));
        if (state.stop.signal.aborted || members.length === 0) return;
        const start = session.start(key);
        // Only until a JVM of the target has described itself (the runner's description loads the JDK's management classes).
        const files = await prepare(job, members, input, start, !state.facts.has(job.index));
        state.started++;
        const spawnedAt = Date.now();
        const exit = await deps.launch(files.command, files, state.stop.signal).done;
        const exitedAt = Date.now();
        const reading = await readRepetition(members, job.k, files, exit, job.target.jvm.java);
        if (reading.facts && !state.facts.has(job.index)) state.facts.set(job.index, reading.facts);
        if (reading.phases && !exit.killed) addTiming(state.timing, reading.phases, spawnedAt, exitedAt);
        // The key's first JVM recorded its class list: the archive is made in this slot, and the JVMs after it map it.
        if (start.recording && !exit.killed && exit.exitCode === 0) await session.recorded(key, left.get(key)!, state.stop.signal);
        let failures = 0;
        const causes: string[] = [];
        reading.members.forEach((r, i) => {
          const id = members[i]!.candidate.testCaseId;
          if (r.kind === 'recorded') {
            out.get(id)!.push(r.repetition);
            if (r.repetition.status === 'failure') failures++;
          } else if (r.kind === 'unrunnable') {
            causes.push(r.cause);
            // Never ran: it cannot be selected in a fresh JVM, and will not be in the next one either.
            if (!(out.get(id) ?? []).length) state.unrunnable.set(id, r.cause);
            else state.problems.push(`repetition ${job.k} of ${members[i]!.candidate.suite}.${members[i]!.candidate.name}: ${r.cause}; see ${files.stderr}.`);
          }
        });
        const ranAny = reading.members.some((r) => r.kind === 'recorded' || r.kind === 'skipped');
        if (ranAny) state.ran.add(job.index);
        if (!exit.killed) judgeFirst(job.index, ranAny ? null : (causes[0] ?? null), state, input.targets.length, deps.logger);
        progress?.finished(failures);
        if (failures && input.untilFailure && !state.stop.signal.aborted) {
          state.stoppedAtFailure = true;
          state.stop.abort();
        }
      }),
    ),
  );
  for (const reps of out.values()) reps.sort((a, b) => a.repetition - b.repetition);
  return out;
}

/** A target's first JVM that ended by itself: when the first ones ran nothing, all for one cause, the pass stops. */
function judgeFirst(index: number, cause: string | null, state: PassState, targets: number, logger: Logger): void {
  if (state.judged.has(index)) return;
  state.judged.add(index);
  if (cause === null) return;
  state.firstCauses.push(cause);
  const needed = Math.min(HALT_AFTER, targets);
  const same = state.firstCauses.filter((c) => c === cause).length;
  if (state.ran.size === 0 && same >= needed && !state.halted && !state.stop.signal.aborted) {
    state.halted = { cause, targets: same };
    logger.warn({ cause, targets: same }, 'the first targets could not run for one cause: stopping the stress pass');
    state.stop.abort();
  }
}

/** Adds one JVM's phases; a clock step (a phase below zero) leaves it out. */
function addTiming(t: RepetitionTiming, p: { startedAt: number; discoveredAt: number; finishedAt: number }, spawnedAt: number, exitedAt: number): void {
  const phases = [p.startedAt - spawnedAt, p.discoveredAt - p.startedAt, p.finishedAt - p.discoveredAt, exitedAt - p.finishedAt];
  if (phases.some((x) => x < 0)) return;
  t.jvms++;
  t.startMs += phases[0]!;
  t.discoveryMs += phases[1]!;
  t.testsMs += phases[2]!;
  t.exitMs += phases[3]!;
}

async function prepare(job: Job, members: StressTarget['members'], input: RepetitionsInput, start: ArchivedStart, describe: boolean): Promise<RepetitionFiles & { command: ReturnType<typeof jvmCommand> }> {
  await mkdir(job.dir, { recursive: true });
  const files = {
    dir: job.dir,
    request: path.join(job.dir, 'request.txt'),
    results: path.join(job.dir, 'results.jsonl'),
    stdout: path.join(job.dir, 'stdout.log'),
    stderr: path.join(job.dir, 'stderr.log'),
  };
  const { target } = job;
  const classpath = withRunner(target.jvm.classpath, input.runnerJar);
  // A class path laid out for the archive: a test reading java.class.path still sees the build's order (unless the build's booter set it).
  const systemProperties = start.reordered && target.jvm.systemProperties['java.class.path'] === undefined ? { ...target.jvm.systemProperties, 'java.class.path': classpath.join(path.delimiter) } : target.jvm.systemProperties;
  await writeFile(files.request, requestText({ selections: members.map((m) => m.selection), configurationParameters: target.configurationParameters, systemProperties, describe }, files.results));
  const errorFile = errorFileArgs(target.jvm.jvmArgs, job.dir, path.join);
  const jvm = start.classpath ? { ...target.jvm, classpath: [...start.classpath] } : target.jvm;
  const command = jvmCommand(jvm, input.runnerJar, files.request, [...start.args, ...errorFile], path.delimiter);
  return { ...files, command };
}
