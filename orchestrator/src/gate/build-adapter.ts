// The seam between the gate's core and a build system: how the first pass runs and is read, and
// how the stress pass runs each candidate's repetitions in fresh JVMs. Gradle and Maven implement it.
import type { TestCaseIdentity } from '#contract';
import type { GateCandidate } from '../candidates/gate-candidate.js';
import type { FirstPass } from '../first-pass/run-first-pass.js';
import type { MutedCheck } from '../quarantine/quarantine-source.js';
import type { Executor, StressPassResult } from '../repetitions/run-stress-pass.js';

/** What the first pass needs from the core: the quarantine, the clock, cancellation. */
export interface BuildFirstPassOptions {
  isMuted: MutedCheck;
  /** Quarantined as skip: kept out of the build where the tool can, ignored if it ran anyway. */
  isSkipped: MutedCheck;
  skippedTests: readonly TestCaseIdentity[];
  now: () => number;
  signal?: AbortSignal;
}

/** How the core asks for the stress pass: the executor and how many JVMs at a time, cancellation. */
export interface BuildStressOptions {
  executor: Executor;
  concurrency: number;
  signal?: AbortSignal;
}

/** One build system, prepared for one invocation of the CLI. */
export interface BuildAdapter {
  /** The invocation's temp dir (removed at the end unless STRESS_GATE_KEEP_TEMP). */
  workDir: string;
  /** Runs the user's command as given and reads its results. */
  firstPass(args: readonly string[], options: BuildFirstPassOptions): Promise<FirstPass>;
  /** Runs the repetitions of `stress` (candidates with a source) within `ceilingSeconds`. */
  stressPass(stress: readonly GateCandidate[], args: readonly string[], ceilingSeconds: number, options: BuildStressOptions): Promise<StressPassResult>;
  /** Awaits what the stress pass left running (never rejects); before the temp dir goes. */
  settle?(): Promise<void>;
}
