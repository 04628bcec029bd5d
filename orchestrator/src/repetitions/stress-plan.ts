// The stress pass as the build adapter plans it, before the guards: what it will run, what it
// cannot, and the figures the ceiling guard, the report and telemetry share. The adapter's
// `stressPass` runs exactly this plan.
import type { GateCandidate } from '../candidates/gate-candidate.js';
import type { Executor } from './stress-pass-result.js';

/** How the stress pass will run: the figures the ceiling guard, the report and telemetry share. */
export interface StressPlanFigures {
  executor: Executor;
  /** Repetition JVMs at a time. */
  concurrency: number;
  /** Why the executor asked for cannot run (the Gradle one will), if so. */
  fallback: string | null;
}

/** A planned candidate that cannot be selected in a fresh JVM, and why in words. */
export interface UnrunnableCandidate {
  candidate: GateCandidate;
  why: string;
}

/**
 * One planned stress pass. `Targets` is the adapter's own account of what it runs (repetition
 * JVMs, or a build's repetition tasks): opaque to the core, which only hands the plan back.
 */
export interface StressPlan<Targets = unknown> extends StressPlanFigures {
  /** The candidates planned, as given to the planner. */
  stress: readonly GateCandidate[];
  targets: Targets;
  /** Planned candidates the executor cannot select; the pass reports them unrunnable. */
  unrunnable: readonly UnrunnableCandidate[];
}

/**
 * The planned candidates the pass can run: not unrunnable, and found in the first pass (a candidate
 * without a source, the server naming a test this run does not have, runs nothing). JVMs at a time
 * and the ceiling's prediction count these only: a candidate that cannot run costs no JVM.
 */
export function runnableCandidates(plan: Pick<StressPlan, 'stress' | 'unrunnable'>): GateCandidate[] {
  const cannot = new Set(plan.unrunnable.map((u) => u.candidate));
  return plan.stress.filter((c) => c.source !== null && !cannot.has(c));
}
