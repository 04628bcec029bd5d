// The seam between the gate's core and a build tool: how the first pass runs and is read, how the
// stress pass is planned (its targets, and the figures the ceiling guard, the report and telemetry
// share), and how that plan runs each candidate's repetitions in fresh JVMs. gradle/ and maven/
// implement it. Plan, then run the plan: every first-pass case carries its adapter's locator
// (first-pass/test-case-result.ts: CaseSource), opaque to the core, which hands it back with the
// candidates; the adapter plans from the locators alone and keeps no first-pass state of its own.
import type { TestCaseIdentity } from '#contract';
import type { GateCandidate } from '../candidates/gate-candidate.js';
import type { FirstPass } from '../first-pass/first-pass.js';
import type { MutedCheck } from '../quarantine/quarantine-source.js';
import type { InOrderRunner } from '../repetitions/sequence-run.js';
import type { Executor, StressPassResult } from '../repetitions/stress-pass-result.js';
import type { StressPlan } from '../repetitions/stress-plan.js';

/** What the first pass needs from the core: the quarantine, the clock, cancellation. */
export interface BuildFirstPassOptions {
  isMuted: MutedCheck;
  /** Quarantined as skip: kept out of the build where the tool can, ignored if it ran anyway. */
  isSkipped: MutedCheck;
  skippedTests: readonly TestCaseIdentity[];
  now: () => number;
  signal?: AbortSignal;
}

/** What the core asks of the stress pass's plan: the executor asked for and how many JVMs may run at a time. */
export interface StressPlanRequest {
  executor: Executor;
  parallelJvms: number;
}

/** How the stress pass runs besides its plan. */
export interface StressPassOptions {
  signal?: AbortSignal;
  /** Stop at the first failed repetition (`--stress-tests --until-failure`; the direct executor only). */
  untilFailure?: boolean;
}

/**
 * One build tool, prepared for one invocation of the CLI. `Targets`: what its plans hold (opaque
 * to the core, which only hands a plan from `planStress` back to `stressPass`).
 */
export interface BuildAdapter<Targets = unknown> {
  /** The invocation's temp dir (removed at the end unless STRESS_GATE_KEEP_TEMP). */
  workDir: string;
  /** Runs the user's command as given and reads its results, each case with its unit and this adapter's locator. */
  firstPass(args: readonly string[], options: BuildFirstPassOptions): Promise<FirstPass>;
  /** Plans the stress pass of `stress` (candidates with a source, their locators this adapter's): its targets, what cannot run and why, its executor and JVMs at a time. */
  planStress(stress: readonly GateCandidate[], request: StressPlanRequest): Promise<StressPlan<Targets>>;
  /** Runs exactly `plan` (one of this adapter's) within `ceilingSeconds` (null: no ceiling); `args`: the user's build arguments. */
  stressPass(plan: StressPlan<Targets>, args: readonly string[], ceilingSeconds: number | null, options?: StressPassOptions): Promise<StressPassResult>;
  /**
   * Runs each sequence of tests (the first pass's) in one fresh JVM, each test on its own and in
   * that order (the order probe, order-probe/). Called after `stressPass`.
   */
  runInOrder: InOrderRunner;
  /** Awaits what the stress pass left running (never rejects); before the temp dir goes. */
  settle?(): Promise<void>;
}
