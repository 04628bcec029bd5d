// The verdict's candidates joined with where the first pass ran them.
import type { Candidate, CandidateOrigin, TestCaseIdentity } from '#contract';
import type { CaseSource, TestCaseResult } from '../first-pass/test-case-result.js';
import { identityKey } from '../identity/identity-key.js';
import type { MutedCheck } from '../quarantine/quarantine-source.js';

/** A new test case as the gate handles it. */
export interface GateCandidate extends TestCaseIdentity {
  testCaseId: string;
  durationMs: number;
  /** Repetitions priced by the server; null when excluded. */
  repetitions: number | null;
  excluded: { reason: 'slow'; detail: string } | null;
  muted: boolean;
  /**
   * Where the first pass ran it (its unit, its reported name, its JUnit Platform unique ID when
   * known, and the build adapter's locator); null if the server named an identity this run does not have.
   */
  source: CaseSource | null;
  /** How it ended in the first pass (a muted test may have failed there). */
  firstPassStatus?: 'success' | 'failure' | 'skipped';
  /**
   * Set on every new invocation of one parameterised method when two or more are stressed: they
   * share each repetition's JVM, in order, and one price (candidates/invocation-groups.ts).
   */
  group?: string;
  /** Why it is a candidate; absent means `new` (diff/diff-candidates.ts). */
  origin?: CandidateOrigin;
  /** A modified test left out of the pass: with it, this guard's reason would have refused the whole pass. */
  leftOutBy?: string;
}

/** Joins the verdict's candidates (kept in the server's order, sorted by identity) with the run. */
export function joinCandidates(
  candidates: readonly Candidate[],
  results: readonly TestCaseResult[],
  isMuted: MutedCheck,
  projectId: string,
): GateCandidate[] {
  // Only the results of the candidates' suites are keyed: a run of 50,000 results with a few
  // candidates (or none) would otherwise build 50,000 keys for nothing (60 ms).
  const suites = new Set(candidates.map((c) => c.suite));
  const byKey = new Map<string, TestCaseResult>();
  for (const r of results) if (suites.has(r.suite)) byKey.set(identityKey(r), r);
  return candidates.map((c) => {
    const r = byKey.get(identityKey(c));
    return {
      module: c.module,
      suite: c.suite,
      name: c.name,
      testCaseId: c.testCaseId,
      durationMs: c.durationMs,
      repetitions: c.excluded ? null : c.repetitions,
      excluded: c.excluded,
      muted: isMuted(c, projectId),
      source: r ? r.source : null,
      ...(r ? { firstPassStatus: r.status } : {}),
    };
  });
}

/** The candidates the stress pass would run: priced, not excluded. */
export function toStress(candidates: readonly GateCandidate[]): GateCandidate[] {
  return candidates.filter((c) => c.excluded === null && c.repetitions !== null && c.repetitions > 0);
}
