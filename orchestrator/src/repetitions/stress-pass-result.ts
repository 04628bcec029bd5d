// What a stress pass recorded, whatever build tool and executor ran it: the gate's core reads
// only this.
import type { Repetition } from '#contract';

/** Why a candidate of a stopped pass did not run (the report says the cause once). */
export const HALTED_WHY = 'not run: the stress pass stopped early (below)';

/** How repetitions ran: fresh JVMs the orchestrator starts itself, or one Gradle Test task each (the reference). */
export type Executor = 'direct' | 'gradle';

/** Why one repetition failed: what the runner caught, or how its JVM ended. */
export interface FailureDetail {
  kind: 'failure' | 'crash';
  type: string | null;
  message: string | null;
  /** The whole stack trace as the runner printed it (trimmed and bounded when reported). */
  trace: string | null;
  /** The tail of the repetition JVM's standard output and error (one candidate per JVM). */
  stdoutTail: string | null;
  stderrTail: string | null;
  exitCode: number | null;
  signal: string | null;
  /** An hs_err_pid*.log the JVM wrote when it crashed. */
  hsErrFile: string | null;
}

/** A repetition as the stress pass recorded it; `crashed` when its JVM died running it. */
export interface RecordedRepetition extends Repetition {
  crashed?: boolean;
  /** Why it failed, when it did and the pass could tell. */
  failure?: FailureDetail;
}

/** What the stress pass recorded, per candidate test_case_id. */
export interface StressPassResult {
  repetitions: Map<string, RecordedRepetition[]>;
  /** Candidates run again alone after failing side by side: what they recorded side by side (their verdict is the alone run's). */
  sideBySide?: Map<string, RecordedRepetition[]>;
  /** Candidates the pass could not run, and why in words (the runner's, or the adapter's); none of them passed. */
  unrunnable?: Map<string, string>;
  /** The pass stopped early: its first candidates could not run, all for this cause. */
  halted?: { cause: string; targets: number } | null;
  /**
   * Candidates that failed every repetition although they passed in the build: what the repetition
   * JVM did not reproduce of the build's test JVM (empty: nothing the gate can see).
   */
  mismatches?: Map<string, string[]>;
  cut: boolean;
  /** Stopped at the first failed repetition, as asked (`--until-failure`). */
  stoppedAtFailure?: boolean;
  /** The run was cancelled (SIGINT or SIGTERM) during the stress pass. */
  cancelled: boolean;
  wallClockMs: number;
  /** The exit code of the build the executor ran (the Gradle executor's); null when it ran none (the direct executor). */
  buildExitCode: number | null;
  problems: string[];
  /** The executor that ran, and how many repetition JVMs it ran at a time. */
  executor: Executor;
  concurrency: number;
  /** Why the direct executor was asked for and the Gradle one ran, if so. */
  fallback: string | null;
  /** Candidates re-run alone because they failed while their repetitions ran side by side. */
  confirmedAlone: number;
  /** Repetition JVMs started (side by side, and again alone). */
  jvms: number;
  /** Of those, started to run failed candidates again alone. */
  jvmsAlone?: number;
  /** The wall clock of that second run (ms; part of wallClockMs): the ceiling's prediction cannot know it in advance. */
  aloneMs?: number;
  /** Work the pass left running (the class archive being made): awaited before the run ends. */
  archiving?: Promise<void>;
  /** The direct executor's class archive (jvm/class-archive.ts); absent under the Gradle executor. */
  classArchive?: 'used' | 'made' | 'recorded' | 'off';
  /** Where the direct executor's repetition JVMs spent their time; absent under the Gradle executor. */
  timing?: RepetitionTiming;
}

/** Sums over the repetition JVMs that reported their phases (ms): spawn to the runner's main, discovery, the tests, their end to the JVM's exit. */
export interface RepetitionTiming {
  jvms: number;
  startMs: number;
  discoveryMs: number;
  testsMs: number;
  exitMs: number;
}
