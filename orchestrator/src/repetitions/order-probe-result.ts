// What the order probe found (order-probe/), whatever build tool ran its JVMs: per candidate, the
// pairs confirmed in fresh JVMs and what else it saw; for the run, its seed, price and time. The
// report, the upload and the decision read only this.
import type { RepetitionFailure, TestCaseIdentity } from '#contract';
import type { CaseSource } from '../first-pass/test-case-result.js';
import type { FailureDetail } from './stress-pass-result.js';

/** Why the probe ran nothing: no new test had another test in its task to run beside. */
export const NO_PARTNERS = "no other test passed in the new tests' test tasks";

/** A test the probe can run: its identity and where the first pass ran it. */
export interface ProbeTest extends TestCaseIdentity {
  testCaseId: string;
  durationMs: number;
  source: CaseSource;
}

/** One confirmed order dependence. */
export interface ProbeFinding {
  role: 'victim' | 'polluter';
  other: ProbeTest;
  /** Polluter: the other test passed alone in every fresh JVM (a reported polluter always did); null for a victim. */
  otherPassesAlone: boolean | null;
  replays: number;
  replayFailures: number;
  /**
   * The failing test's failure in the last replay, as the runner caught it; the gate turns it into
   * `evidence` (bounded, trimmed) and drops it, so a report never carries whole traces.
   */
  failure?: FailureDetail;
  /** That replay's files (request, results, output). */
  dir: string;
  /** The command that replays exactly this order, and the failure as evidence (both set by the gate). */
  reproduce?: string;
  evidence?: RepetitionFailure;
}

/** What the probe did for one candidate. */
export interface CandidateProbe {
  status: 'probed' | 'cut' | 'not_run';
  why: string | null;
  seed: number;
  partners: number;
  /** Partners whose both pairs (before and after the candidate) ran. */
  partnersRun: number;
  classPartnersLeftOut: number;
  sampledClasses: number;
  moduleClasses: number;
  findings: ProbeFinding[];
  /** What failed in a shared JVM and was not confirmed as a pair, in words. */
  notes: string[];
}

/** The probe as a whole, for the report. */
export interface ProbeSummary {
  seed: number;
  candidates: number;
  pairs: number;
  jvms: number;
  predictedMs: number;
  budgetMs: number;
  wallClockMs: number;
  /** Its budget (or the ceiling) stopped it. */
  cut: boolean;
  cancelled: boolean;
  /** Why it could not run at all, when it could not. */
  why: string | null;
}
