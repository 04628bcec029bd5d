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
  return { verdict: { ...verdict, candidates, guards: guardsFor(verdict, candidates, dayOne ? ran.length - candidates.filter((c) => origins.get(c.testCaseId) === 'diff').length : null) }, origins, renamed, dayOne };
}

/**
 * The server's guards over a widened set of candidates: the cap counts them all. On day one
 * (`dayOneInventory`: the tests that ran and that the diff did not add) the premise is met by the
 * diff, and the bulk-change guard weighs the added tests against that inventory, not against an
 * empty history (which would refuse any merge request of a project with 50 tests or more).
 */
function guardsFor(verdict: VerdictResponse, candidates: readonly Candidate[], dayOneInventory: number | null): VerdictResponse['guards'] {
  const p = verdict.parameters;
  const stressable = candidates.filter((c) => c.excluded === null).length;
  const bulk = verdict.guards.bulkChange;
  const newCount = candidates.length;
  return {
    premise: dayOneInventory !== null ? { fired: false, reason: null } : verdict.guards.premise,
    bulkChange:
      dayOneInventory !== null
        ? { ...bulk, newCount, inventory: dayOneInventory, fired: newCount >= p.bulkChangeFloor && newCount > p.bulkChangeRatio * dayOneInventory }
        : bulk,
    candidateCap: { fired: stressable > p.candidateCap, count: stressable, cap: p.candidateCap },
  };
}

/** The widened verdict without its modified tests: what the gate stresses when they alone would make a guard refuse the pass. */
export function withoutModified(w: WidenedVerdict): VerdictResponse {
  const candidates = w.verdict.candidates.filter((c) => w.origins.get(c.testCaseId) !== 'modified');
  return { ...w.verdict, candidates, guards: { ...guardsFor(w.verdict, candidates, null), premise: w.verdict.guards.premise, bulkChange: w.verdict.guards.bulkChange } };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
