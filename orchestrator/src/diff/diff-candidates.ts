// The verdict widened by the diff: tests the merge request modified join the server's new ones;
// on day one (no default-branch history: the premise guard) the tests the diff added are the
// candidates, and the diff's renames are not. Pure: the verdict and the analysis in, the verdict
// the gate goes on with out, with each candidate's origin and the renamed tests.
import { price, type Candidate, type CandidateOrigin, type TestCaseIdentity, type VerdictResponse } from '#contract';
import { testCaseId } from '#identity';
import { identityKey } from '../identity/identity-key.js';
import type { DiffAnalysis } from './diff-analysis.js';

/** A test not stressed because it is a known test under a new name. */
export interface RenamedTest extends TestCaseIdentity {
  from: TestCaseIdentity;
}

/** The verdict the gate goes on with, and what the diff added to it. */
export interface WidenedVerdict {
  verdict: VerdictResponse;
  /** Candidates whose origin is not `new`, by test case id. */
  origins: Map<string, CandidateOrigin>;
  renamed: RenamedTest[];
  /** Day one: the premise guard fired and the diff stood in for history. */
  dayOne: boolean;
}

/** An identity that ran (not skipped), with its duration. */
type Ran = TestCaseIdentity & { durationMs: number };

/** Widens `verdict` by the diff analysis (null: none was made). */
export function widenVerdict(verdict: VerdictResponse, ran: readonly Ran[], analysis: DiffAnalysis | null): WidenedVerdict {
  const renamed: RenamedTest[] = (verdict.renamed ?? []).map((r) => ({ module: r.module, suite: r.suite, name: r.name, from: { module: r.from.module, suite: r.from.suite, name: r.from.name } }));
  const origins = new Map<string, CandidateOrigin>();
  if (!analysis || analysis.status !== 'analysed') return { verdict, origins, renamed, dayOne: false };
  const curve = verdict.parameters.curve;
  const candidate = (t: Ran, origin: CandidateOrigin): Candidate => {
    const id = testCaseId(verdict.projectId, t);
    origins.set(id, origin);
    return { module: t.module, suite: t.suite, name: t.name, testCaseId: id, durationMs: t.durationMs, ...price(t.durationMs, curve) };
  };
  const premise = verdict.guards.premise;
  let candidates: Candidate[];
  let dayOne = false;
  if (premise.fired) {
    // No history to ask: the diff says which tests are new (and which it modified). A rename the diff sees is not new.
    dayOne = true;
    candidates = [];
    for (const t of ran) {
      const c = analysis.tests.get(identityKey(t))?.change;
      if (c?.change === 'modified') candidates.push(candidate(t, 'modified'));
      if (c?.change !== 'added') continue;
      if (c.renamedFrom) renamed.push({ module: t.module, suite: t.suite, name: t.name, from: { module: t.module, ...c.renamedFrom } });
      else candidates.push(candidate(t, 'diff'));
    }
  } else {
    const isNew = new Set(verdict.candidates.map((c) => identityKey(c)));
    candidates = [...verdict.candidates];
    for (const t of ran) {
      if (isNew.has(identityKey(t))) continue;
      if (analysis.tests.get(identityKey(t))?.change.change === 'modified') candidates.push(candidate(t, 'modified'));
    }
  }
  if (candidates.length === verdict.candidates.length && !dayOne) return { verdict, origins, renamed, dayOne };
  candidates.sort((a, b) => compare(a.module, b.module) || compare(a.suite, b.suite) || compare(a.name, b.name));
  const stressable = candidates.filter((c) => c.excluded === null).length;
  const cap = verdict.parameters.candidateCap;
  const guards: VerdictResponse['guards'] = {
    premise: dayOne ? { fired: false, reason: null } : premise,
    bulkChange: verdict.guards.bulkChange,
    candidateCap: { fired: stressable > cap, count: stressable, cap },
  };
  return { verdict: { ...verdict, candidates, guards }, origins, renamed, dayOne };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
