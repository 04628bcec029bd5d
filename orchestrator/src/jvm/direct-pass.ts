// The direct executor's stress pass, as both build adapters run it: each target's JDK class
// archive planned, progress on stderr, every repetition run by the one scheduler
// (run-repetitions.ts), and the outcome as the core reads it.
import type { GateCandidate } from '../candidates/gate-candidate.js';
import type { Logger } from '../base/log.js';
import type { StressPassResult } from '../repetitions/stress-pass-result.js';
import { runnableCandidates, type StressPlan, type UnrunnableCandidate } from '../repetitions/stress-plan.js';
import path from 'node:path';
import { type ClassArchive, planClassArchive } from './class-archive.js';
import type { ClassPathLayout } from './class-path-layout.js';
import { compareJvm } from './compare-jvm.js';
import { launchJvm, type JvmLauncher } from './launch-jvm.js';
import { createProgress } from './progress.js';
import { runRepetitions, type RepetitionsOutcome } from './run-repetitions.js';
import { withRunner } from './runner-request.js';
import { targetRepetitions, type StressTarget } from './stress-target.js';

/** What a direct pass needs from its adapter. */
export interface DirectPassOptions {
  runnerJar: string;
  /** The invocation's temp dir (class lists for the archive). */
  workDir: string;
  /** Where each JVM's files go, kept after the run (the build's output folder). */
  outputDir: string;
  concurrency: number;
  /** null: no ceiling (`--stress-tests`). */
  ceilingSeconds: number | null;
  env: NodeJS.ProcessEnv;
  logger: Logger;
  err: (text: string) => void;
  errIsTTY: boolean;
  launch?: JvmLauncher;
  signal?: AbortSignal;
  /** Stop at the first failed repetition. */
  untilFailure?: boolean;
}

/** How many repetition JVMs a direct pass runs at once: the request's bound, at most one a JVM planned. */
export function directConcurrency(stress: readonly GateCandidate[], parallelJvms: number): number {
  return Math.max(1, Math.min(parallelJvms, plannedJvms(stress)));
}

/** JVMs a pass plans: one per repetition of each candidate, or of each group of invocations sharing JVMs. */
export function plannedJvms(stress: readonly GateCandidate[]): number {
  const groups = new Map<string, number>();
  let jvms = 0;
  for (const c of stress) {
    if (c.group === undefined) jvms += c.repetitions ?? 0;
    else groups.set(c.group, Math.max(groups.get(c.group) ?? 0, c.repetitions ?? 0));
  }
  return jvms + [...groups.values()].reduce((a, b) => a + b, 0);
}

/** A direct pass's plan: `targets` and `unrunnable` as the adapter selected them, JVMs at a time bounded by `parallelJvms`. */
export function planDirectPass(stress: readonly GateCandidate[], selected: { targets: StressTarget[]; unrunnable: UnrunnableCandidate[] }, parallelJvms: number): StressPlan<readonly StressTarget[]> {
  // JVMs at a time count the candidates that can run, as the ceiling's prediction does.
  const runnable = runnableCandidates({ stress, unrunnable: selected.unrunnable });
  return { executor: 'direct', concurrency: directConcurrency(runnable, parallelJvms), fallback: null, stress, targets: selected.targets, unrunnable: selected.unrunnable };
}

/** What an adapter holds for every direct pass of its invocation. */
export type AdapterPassContext = Pick<DirectPassOptions, 'runnerJar' | 'workDir' | 'outputDir' | 'env' | 'logger' | 'err'> & { errIsTTY?: boolean };

/** A planned direct pass as an adapter runs it: its targets, unrunnable candidates and concurrency, its invocation's context and the core's options. */
export function runAdapterDirectPass(
  plan: Pick<StressPlan<readonly StressTarget[]>, 'targets' | 'unrunnable' | 'concurrency'>,
  context: AdapterPassContext,
  pass: { ceilingSeconds: number | null; signal?: AbortSignal | undefined; untilFailure?: boolean | undefined },
): Promise<StressPassResult> {
  return runDirectPass(plan.targets, plan.unrunnable, {
    ...context,
    errIsTTY: context.errIsTTY ?? false,
    concurrency: plan.concurrency,
    ceilingSeconds: pass.ceilingSeconds,
    ...(pass.signal ? { signal: pass.signal } : {}),
    ...(pass.untilFailure ? { untilFailure: true } : {}),
  });
}

/** Runs every target's repetitions; candidates the adapter could not select are unrunnable, with why. */
export async function runDirectPass(targets: readonly StressTarget[], unrunnable: readonly UnrunnableCandidate[], o: DirectPassOptions): Promise<StressPassResult> {
  const archives = new Map<string, ClassArchive>();
  for (const t of targets) {
    if (archives.has(t.jvmKey)) continue;
    const archive = await planClassArchive({ executable: t.jvm.java, jvmArgs: t.jvm.jvmArgs, classpath: withRunner(t.jvm.classpath, o.runnerJar) }, o.workDir, o.env, o.logger);
    if (archive.state === 'off') o.logger.debug({ jvm: t.jvmKey, why: archive.why }, 'no class archive for these JVMs');
    archives.set(t.jvmKey, archive);
  }
  const pass = await runRepetitions(
    { targets, runnerJar: o.runnerJar, outputDir: o.outputDir, concurrency: o.concurrency, deadlineMs: o.ceilingSeconds === null ? null : o.ceilingSeconds * 1000, archives, ...(o.untilFailure ? { untilFailure: true } : {}) },
    {
      launch: o.launch ?? launchJvm,
      logger: o.logger,
      ...(o.signal ? { signal: o.signal } : {}),
      progress: (total, deadlineAt, title) => createProgress({ write: o.err, tty: o.errIsTTY, total, deadlineAt, now: Date.now, title }),
    },
  );
  for (const u of unrunnable) {
    pass.repetitions.set(u.candidate.testCaseId, []);
    pass.unrunnable.set(u.candidate.testCaseId, `it cannot be selected in a fresh JVM: ${u.why}`);
  }
  return {
    repetitions: pass.repetitions,
    sideBySide: pass.sideBySide,
    unrunnable: pass.unrunnable,
    halted: pass.halted,
    mismatches: await mismatches(targets, pass, o.runnerJar, archives),
    cut: pass.cut,
    stoppedAtFailure: pass.stoppedAtFailure,
    cancelled: pass.cancelled,
    wallClockMs: pass.wallClockMs,
    buildExitCode: null,
    problems: pass.problems,
    executor: 'direct',
    concurrency: Math.max(1, Math.min(o.concurrency, targets.reduce((n, t) => n + targetRepetitions(t), 0))),
    fallback: null,
    confirmedAlone: pass.confirmed,
    jvms: pass.jvms,
    jvmsAlone: pass.jvmsAlone,
    aloneMs: pass.aloneMs,
    archiving: pass.archiving,
    classArchive: pass.classArchive,
    timing: pass.timing,
  };
}

/** For each candidate that passed in the build and failed every repetition: how its JVM differed from the build's. */
async function mismatches(targets: readonly StressTarget[], pass: RepetitionsOutcome, runnerJar: string, archives: ReadonlyMap<string, ClassArchive>): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const [index, t] of targets.entries()) {
    const described = pass.facts.get(index);
    // An older runner jar does not describe its JVM: nothing to compare.
    if (!described) continue;
    const facts = { ...described, classPath: buildOrder(described.classPath, archives.get(t.jvmKey)?.layout, withRunner(t.jvm.classpath, runnerJar)) };
    for (const m of t.members) {
      const reps = pass.repetitions.get(m.candidate.testCaseId) ?? [];
      if (m.candidate.firstPassStatus !== 'success' || !reps.length || reps.some((r) => r.status !== 'failure')) continue;
      out.set(m.candidate.testCaseId, await compareJvm({ spec: t.jvm, observed: t.observed, runnerJar }, facts));
    }
  }
  return out;
}

/** The class path a repetition reported, in the build's order when it is the archive's layout of it (the gate's own order, not a difference). */
function buildOrder(reported: string, layout: ClassPathLayout | undefined, build: readonly string[]): string {
  if (!layout?.reordered || reported !== layout.runtime.join(path.delimiter)) return reported;
  return build.join(path.delimiter);
}
