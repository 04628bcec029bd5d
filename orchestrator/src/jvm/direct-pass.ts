// The direct executor's stress pass, as both build adapters run it: each target's JDK class
// archive planned, progress on stderr, every repetition run by the one scheduler
// (run-repetitions.ts), and the outcome as the core reads it.
import type { GateCandidate } from '../candidates/gate-candidate.js';
import type { Logger } from '../log.js';
import type { StressPassResult } from '../repetitions/stress-pass-result.js';
import { archiveState, type ClassArchive, planClassArchive } from './class-archive.js';
import { launchJvm, type JvmLauncher } from './launch-jvm.js';
import { createProgress } from './progress.js';
import { runRepetitions } from './run-repetitions.js';
import type { StressTarget } from './stress-target.js';

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

/** How many repetition JVMs a direct pass runs at once: the request's bound, at most one a repetition. */
export function directConcurrency(stress: readonly GateCandidate[], parallelJvms: number): number {
  return Math.max(1, Math.min(parallelJvms, stress.reduce((n, c) => n + (c.repetitions ?? 0), 0)));
}

/** What an adapter holds for every direct pass of its invocation. */
export type AdapterPassContext = Pick<DirectPassOptions, 'runnerJar' | 'workDir' | 'outputDir' | 'env' | 'logger' | 'err'> & { errIsTTY?: boolean };

/** A direct pass as an adapter runs it: its invocation's context, the plan's concurrency and the core's options. */
export function runAdapterDirectPass(
  targets: readonly StressTarget[],
  unrunnable: readonly { candidate: GateCandidate; why: string }[],
  context: AdapterPassContext,
  pass: { concurrency: number; ceilingSeconds: number | null; signal?: AbortSignal | undefined; untilFailure?: boolean | undefined },
): Promise<StressPassResult> {
  return runDirectPass(targets, unrunnable, {
    ...context,
    errIsTTY: context.errIsTTY ?? false,
    concurrency: pass.concurrency,
    ceilingSeconds: pass.ceilingSeconds,
    ...(pass.signal ? { signal: pass.signal } : {}),
    ...(pass.untilFailure ? { untilFailure: true } : {}),
  });
}

/** Runs every target's repetitions; candidates the adapter could not select are named as problems. */
export async function runDirectPass(targets: readonly StressTarget[], unrunnable: readonly { candidate: GateCandidate; why: string }[], o: DirectPassOptions): Promise<StressPassResult> {
  const archives = new Map<string, ClassArchive>();
  for (const t of targets) {
    if (archives.has(t.jvmKey)) continue;
    const archive = await planClassArchive({ executable: t.jvm.java, jvmArgs: t.jvm.jvmArgs }, o.workDir, o.env, o.logger);
    if (archive.state === 'off') o.logger.debug({ jvm: t.jvmKey, why: archive.why }, 'no JDK class archive for these JVMs');
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
  const problems = [...unrunnable.map((u) => `${u.candidate.suite}.${u.candidate.name} cannot be selected in a fresh JVM: ${u.why}.`), ...pass.problems];
  for (const u of unrunnable) pass.repetitions.set(u.candidate.testCaseId, []);
  return {
    repetitions: pass.repetitions,
    cut: pass.cut,
    stoppedAtFailure: pass.stoppedAtFailure,
    cancelled: pass.cancelled,
    wallClockMs: pass.wallClockMs,
    gradleExitCode: null,
    problems,
    executor: 'direct',
    concurrency: Math.max(1, Math.min(o.concurrency, pass.jvms)),
    fallback: null,
    confirmedAlone: pass.confirmed,
    jvms: pass.jvms,
    archiving: pass.archiving,
    classArchive: archiveState(archives),
  };
}
