// Outcomes: what each candidate's repetitions say, and what the gate decides from them. Pure.
// The rules the whole gate rests on: a candidate that was meant to run and did not is never
// "passed"; it is "not_stressed" (cut by the ceiling) or "error" (the gate's own trouble: it
// should have run and left no result). Only a test that disagreed with itself can block: the
// gate's own trouble never does.
import type { GateOutcome, ReproduceParts } from '#contract';
import type { GateCandidate } from '../candidates/gate-candidate.js';
import type { FiredGuard } from '../guard/apply-guards.js';
import type { Mode } from '../config/config.js';
import { failureEvidence, type CandidateEvidence } from '../evidence/failure-evidence.js';
import type { CandidateProbe } from '../repetitions/order-probe-result.js';
import type { RecordedRepetition } from '../repetitions/stress-pass-result.js';

/** Gradle's exit code for a failed build, failed tests included; enforce reuses it. */
export const FAILED_BUILD_EXIT_CODE = 1;

/** A candidate's outcome; only 'passed' is green. */
export type CandidateOutcome = 'passed' | 'failed' | 'not_stressed' | 'error' | 'excluded' | 'order_dependent';

/** A candidate with its repetitions and outcome. */
export interface CandidateResult extends GateCandidate {
  outcome: CandidateOutcome;
  /** Repetitions planned (0 when excluded). */
  expected: number;
  /** Its repetitions (why one failed is in `evidence`, bounded). */
  recorded: Omit<RecordedRepetition, 'failure'>[];
  failures: number;
  /** Why it failed: each failed repetition and the failures grouped by signature; null when none failed. */
  evidence: CandidateEvidence | null;
  /** Failed repetitions whose JVM died while this candidate ran (System.exit, OOM, a crash). */
  crashed: number;
  /** Why it is not_stressed or error, in words (for error: the gate's own problem). */
  why: string | null;
  /** The command that reruns it as the gate did, without a server (set when it failed). */
  reproduce?: string;
  /** That command's parts, uploaded for the server to build the same command from (set with `reproduce`). */
  reproduceParts?: ReproduceParts;
  /**
   * It failed while its repetitions ran side by side and passed every one run again alone: a
   * timing-sensitive test (a 5 s timeout under load, a race). What failed side by side.
   */
  timingSensitive?: { failures: number; repetitions: number; evidence: CandidateEvidence | null };
  /**
   * It failed every repetition although it passed in the build: what the repetition JVM did not
   * reproduce of the build's test JVM (empty: the gate sees no difference).
   */
  mismatch?: string[];
  /**
   * It failed in the build (the first pass failed only on new tests): `flaky` when it also passed
   * in fresh JVMs, `broken` when it failed every repetition too (enforce/failed-in-build.ts).
   */
  failedInBuild?: 'flaky' | 'broken';
  /**
   * The order probe's result (order-probe/), for a candidate that passed every repetition; with a
   * finding its outcome is `order_dependent`.
   */
  orderProbe?: CandidateProbe;
}

/** What the stress pass knows of one candidate besides its repetitions. */
export interface CandidateFindings {
  /** The ceiling timer stopped the stress pass. */
  cut: boolean;
  /** Why the pass could not run it (the runner's words, a stopped pass). */
  unrunnable?: string | undefined;
  /** Its side-by-side repetitions, when it ran again alone. */
  sideBySide?: readonly RecordedRepetition[] | undefined;
  /** The project's setting: a timing-sensitive test fails the gate (default: reported, not blocking). */
  timingSensitiveBlocks?: boolean;
  /** How its JVM differed from the build's, when it failed every repetition after passing in the build. */
  mismatch?: string[] | undefined;
}

/** Classifies one candidate. */
export function classifyCandidate(c: GateCandidate, recorded: readonly RecordedRepetition[], found: boolean | CandidateFindings): CandidateResult {
  const f: CandidateFindings = typeof found === 'boolean' ? { cut: found } : found;
  const cut = f.cut;
  const base: Omit<CandidateResult, 'outcome' | 'expected' | 'why'> = {
    ...c,
    recorded: recorded.map(({ failure: _failure, ...r }) => r),
    evidence: failureEvidence(c.suite, recorded),
    failures: recorded.filter((r) => r.status === 'failure').length,
    crashed: recorded.filter((r) => r.crashed).length,
  };
  const aside = f.sideBySide?.filter((r) => r.status === 'failure').length ?? 0;
  if (aside && base.failures === 0) base.timingSensitive = { failures: aside, repetitions: f.sideBySide!.length, evidence: failureEvidence(c.suite, f.sideBySide!) };
  if (f.mismatch && base.failures > 0) base.mismatch = f.mismatch;
  if (c.excluded !== null || c.repetitions === null) return { ...base, outcome: 'excluded', expected: 0, why: null };
  const expected = c.repetitions;
  if (expected < 1) return { ...base, outcome: 'error', expected, why: 'the verdict gave it no repetitions' };
  if (c.source === null) {
    return { ...base, outcome: 'error', expected, why: 'the verdict named a test this run did not report' };
  }
  if (base.mismatch?.length) {
    // Passed in the build, failed every repetition, in a JVM that was not the build's: the gate's own trouble until examined.
    const n = base.mismatch.length;
    return { ...base, outcome: 'error', expected, why: `it failed every repetition although it passed in the build, in a JVM that differed from the build's (${n === 1 ? 'a difference' : `${n} differences`}, below)` };
  }
  // A failure is a finding even if the pass was cut: the test disagreed with itself.
  if (base.failures > 0) return { ...base, outcome: 'failed', expected, why: null };
  if (base.timingSensitive && f.timingSensitiveBlocks) {
    const ts = base.timingSensitive;
    return { ...base, failures: ts.failures, evidence: ts.evidence, outcome: 'failed', expected, why: null };
  }
  if (recorded.length >= expected) return { ...base, outcome: 'passed', expected, why: null };
  if (f.unrunnable) return { ...base, outcome: 'error', expected, why: f.unrunnable };
  return cut
    ? { ...base, outcome: 'not_stressed', expected, why: 'cut by the ceiling' }
    : { ...base, outcome: 'error', expected, why: `${expected - recorded.length} of ${expected} repetitions left no result` };
}

/** What the pass knows of candidate `id` besides its repetitions. */
export function findingsOf(pass: { cut: boolean; unrunnable?: ReadonlyMap<string, string>; sideBySide?: ReadonlyMap<string, readonly RecordedRepetition[]>; mismatches?: ReadonlyMap<string, string[]> }, id: string, timingSensitiveBlocks = false): CandidateFindings {
  return { cut: pass.cut, unrunnable: pass.unrunnable?.get(id), sideBySide: pass.sideBySide?.get(id), mismatch: pass.mismatches?.get(id), timingSensitiveBlocks };
}

/** What the gate decided. */
export interface GateDecision {
  outcome: GateOutcome;
  /** enforce blocked the merge (exit code changed). */
  blocked: boolean;
  /** enforce would block (true in both modes when a non-muted candidate failed). */
  wouldHaveBlocked: boolean;
  exitCode: number;
}

/**
 * Decides the gate. A guard refuses (never blocks, never green); failed candidates that are not
 * muted, and order-dependent ones unless `orderFindingsBlock` is off, block in enforce (a repetition JVM that crashed running one is a failure); candidates cut
 * by the ceiling or in error (the gate could not stress them) make the outcome "incomplete" and
 * are warned about but never block: the gate's own trouble is never the reason a merge is blocked.
 */
export function decideGate(
  mode: Exclude<Mode, 'off'>,
  firstPassExitCode: number,
  results: readonly CandidateResult[],
  guard: FiredGuard | null,
  orderFindingsBlock = true,
  modifiedTestsBlock = true,
): GateDecision {
  if (guard) return { outcome: 'guarded', blocked: false, wouldHaveBlocked: false, exitCode: firstPassExitCode };
  // An order finding blocks like a failure unless the project made order findings report-only; a
  // test the merge request modified (not new) blocks only where the project says so.
  const blocking = results.some((r) => !r.muted && (r.origin !== 'modified' || modifiedTestsBlock) && (r.outcome === 'failed' || (r.outcome === 'order_dependent' && orderFindingsBlock)));
  const partial = results.some((r) => r.outcome === 'not_stressed' || r.outcome === 'error');
  const outcome: GateOutcome = blocking ? 'failed' : partial ? 'incomplete' : 'passed';
  const blocked = mode === 'enforce' && blocking;
  return {
    outcome,
    blocked,
    wouldHaveBlocked: blocking,
    exitCode: blocked ? firstPassExitCode || FAILED_BUILD_EXIT_CODE : firstPassExitCode,
  };
}
