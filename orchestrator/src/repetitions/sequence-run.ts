// What the order probe's JVMs recorded (order-probe/), whatever build tool ran them: for each JVM,
// what each of its steps did, in order. The core reads only this.
import type { ProbeTest } from './order-probe-result.js';
import type { FailureDetail } from './stress-pass-result.js';

/** What one step did. */
export type StepResult =
  | { status: 'success'; durationMs: number }
  | { status: 'failure'; durationMs: number; failure: FailureDetail }
  | { status: 'skipped' }
  /** It did not run: it cannot be selected, the JVM ended before it, or the gate stopped the JVM (`killed`). */
  | { status: 'not_run'; why: string; killed: boolean };

/** What one sequence's JVM did, step by step, and where its files are. */
export interface SequenceRun {
  steps: StepResult[];
  dir: string;
}

/** The JVMs of one round of sequences. */
export interface SequencesOutcome {
  runs: SequenceRun[];
  /** The deadline stopped JVMs (some steps did not run). */
  cut: boolean;
  cancelled: boolean;
  jvms: number;
  wallClockMs: number;
}

/** How the order probe's JVMs run. */
export interface InOrderOptions {
  concurrency: number;
  /** From the round's start; null: none. */
  deadlineMs: number | null;
  /** The folder of this round's JVMs under the build's stress-gate output (e.g. `order-probe/shared`). */
  round: string;
  /** A folder (under the same output) emptied first: what an earlier run left there would read as this one's. */
  clear?: string;
  signal?: AbortSignal | undefined;
}

/** The order probe's JVMs, or why the build tool cannot run tests in a chosen order. */
export type InOrderOutcome = ({ ok: true } & SequencesOutcome) | { ok: false; why: string };

/** Runs each sequence of tests in one fresh JVM, each test on its own and in that order (a build adapter's). */
export type InOrderRunner = (sequences: readonly (readonly ProbeTest[])[], options: InOrderOptions) => Promise<InOrderOutcome>;
