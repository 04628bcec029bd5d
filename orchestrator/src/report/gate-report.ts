// The gate's result as data: what the printed report, the JSON report file, the job summary and
// the gated-observation upload are all rendered from.
import type { GateOutcome } from '#contract';
import type { RenamedTest } from '../diff/diff-candidates.js';
import type { FiredGuard } from '../guard/apply-guards.js';
import type { CandidateResult } from '../enforce/outcome.js';
import type { ProbeSummary } from '../repetitions/order-probe-result.js';
import type { DetectionPower } from './detection-power.js';

/** Why the gate did not get as far as a verdict on candidates, when it did not. */
export type GateStop =
  | { kind: 'first_pass_failed' }
  | { kind: 'not_configured'; missing: string[] }
  | { kind: 'server_unavailable'; problem: string }
  | { kind: 'broken_results'; errors: string[] }
  | { kind: 'not_entitled' }
  | { kind: 'no_candidates' }
  /** The gate's own trouble after the first pass (a bug, an unreadable file): it fails open. */
  | { kind: 'gate_error'; problem: string }
  /** SIGINT or SIGTERM (a cancelled CI job) stopped the run. */
  | { kind: 'cancelled'; signal: 'SIGINT' | 'SIGTERM' };

/** Everything about one gated run. */
export interface GateReport {
  /** The gate's mode; `local`: `--stress-tests`, no server and no merge request (exit 1 when a test disagreed). */
  mode: 'report' | 'enforce' | 'local';
  runId: string;
  outcome: GateOutcome | 'server_unavailable' | 'not_configured' | 'broken_results';
  stop: GateStop | null;
  firstPass: { exitCode: number; passed: boolean; testCases: number; failures: number; maskedFailures: number };
  /** Upper bound of the curve (ms): slower tests are excluded. */
  slowLimitMs: number | null;
  ceilingSeconds: number | null;
  guard: FiredGuard | null;
  candidates: CandidateResult[];
  counts: { examined: number; stressed: number; excluded: number; notStressed: number; errors: number; orderDependent?: number };
  stressPass: {
    wallClockMs: number;
    cut: boolean;
    /** Stopped at the first failure, as `--until-failure` asks. */
    stoppedAtFailure?: boolean;
    /**
     * The Gradle executor's exit code; null for the direct executor (no build in the pass). A field
     * of the JSON report file, so it keeps its name (the stress pass's `buildExitCode`).
     */
    gradleExitCode: number | null;
    executor?: 'direct' | 'gradle';
    /** Repetition JVMs started (side by side and again alone), and how many ran at a time. */
    jvms?: number;
    /** Of those, started to run failed candidates again alone, and the wall clock that took (ms, part of wallClockMs). */
    jvmsAlone?: number;
    aloneMs?: number;
    jvmsAtATime?: number;
    /** The pass stopped early: its first candidates could not run, all for this cause. */
    halted?: { cause: string; targets: number };
    /** Candidates re-run alone, one JVM at a time, after failing side by side. */
    confirmedAlone?: number;
    /** Why the direct executor was asked for and the Gradle one ran. */
    fallback?: string | null;
    /** The direct executor's class archive: mapped by every JVM, made by this pass and mapped by its later JVMs, recorded for the next pass, or not used. */
    classArchive?: 'used' | 'made' | 'recorded' | 'off';
    /** Where a repetition JVM's time went on average (ms), over the `jvms` that said: starting to the runner's main, finding the tests, running them, exiting. */
    perJvmMs?: { jvms: number; start: number; discovery: number; tests: number; exit: number };
  } | null;
  /**
   * The merge request's diff (diff/): analysed against a merge base, or skipped and why (`quiet`:
   * nothing to warn about, e.g. a run of the default branch). `dayOne`: no default-branch history,
   * so the candidates are the tests the diff added. `modifiedBlocks`: the project's policy on modified tests.
   */
  diff?: { status: 'analysed' | 'skipped'; why: string | null; quiet: boolean; base: string | null; ref: string | null; fetched: boolean; added: number; modified: number; dayOne: boolean; modifiedBlocks: boolean } | null;
  /** Tests not stressed because they are known tests renamed or moved (the verdict's fingerprints, or the diff's on day one). */
  renamed?: RenamedTest[];
  /** The order probe after the repetitions (null: it did not run); `blocks`: the project's policy on its findings. */
  orderProbe?: (ProbeSummary & { blocks: boolean }) | null;
  /** The gate's own problems in the stress pass (broken or missing repetition XML, a failed build). */
  problems: string[];
  notes: string[];
  blocked: boolean;
  wouldHaveBlocked: boolean;
  exitCode: number;
  /** How strong the clean results are: the failure rate ruled out by the fewest clean repetitions (null: none passed). */
  detection?: DetectionPower | null;
  /** Telemetry: the ceiling prediction made before the pass and the JVM start it assumed (null: no prediction). */
  timing?: { predictedMs: number; jvmStartMs: number; concurrency: number; jvms: number } | null;
  /**
   * The gate's own time around the first pass (ms): from the process's start to the build's, the
   * build's own (the first pass), and from the build's end to the start of the stress pass (or to the
   * decision, when nothing is stressed): reading the results, the verdict and the guards. Not in
   * the report when the gate stopped early.
   */
  overhead?: { beforeFirstPassMs: number; firstPassMs: number; afterFirstPassMs: number } | null;
}

/** Counts as the report prints them: stressed = candidates with a verdict (passed or failed). */
export function countCandidates(candidates: readonly CandidateResult[]): GateReport['counts'] {
  const n = (o: CandidateResult['outcome']) => candidates.filter((c) => c.outcome === o).length;
  return {
    examined: candidates.length,
    stressed: n('passed') + n('failed') + n('order_dependent'),
    excluded: n('excluded'),
    notStressed: n('not_stressed'),
    errors: n('error'),
    orderDependent: n('order_dependent'),
  };
}
