// The guards: premise, bulk change and candidate cap are decided by the server (its signals come
// with the verdict); the wall-clock ceiling is predicted here from the measured durations. The
// first guard that fires refuses the whole stress pass: the gate never stresses part of the set.
import type { GuardName, VerdictResponse } from '#contract';
import type { GateCandidate } from '../candidates/gate-candidate.js';
import type { CeilingPrediction } from './predict-ceiling.js';
import { guardSentence, type GuardFacts } from './guard-sentence.js';

/** A guard that fired: its name, the count that triggered it, and the sentence the report prints. */
export interface FiredGuard {
  name: GuardName;
  count: number;
  reason: string;
}

/**
 * Returns the first guard that fires, in the order premise, bulk change, candidate cap, ceiling
 * (`ceiling`: the pass's prediction, as the build adapter plans to run it).
 */
export function applyGuards(verdict: Pick<VerdictResponse, 'guards' | 'defaultBranch' | 'candidates'>, stress: readonly GateCandidate[], ceiling: CeilingPrediction): FiredGuard | null {
  const facts = firstFired(verdict, stress, ceiling);
  if (!facts) return null;
  const count = facts.name === 'premise' ? facts.total : facts.name === 'bulk_change' ? facts.newCount : facts.count;
  return { name: facts.name, count, reason: guardSentence(facts) };
}

function firstFired(verdict: Pick<VerdictResponse, 'guards' | 'defaultBranch' | 'candidates'>, stress: readonly GateCandidate[], ceiling: CeilingPrediction): GuardFacts | null {
  const { premise, bulkChange, candidateCap } = verdict.guards;
  const branch = verdict.defaultBranch;
  if (premise.fired) return { name: 'premise', reason: premise.reason, branch, total: verdict.candidates.length };
  if (bulkChange.fired) return { name: 'bulk_change', newCount: bulkChange.newCount, ratio: bulkChange.ratio, inventory: bulkChange.inventory, branch };
  if (candidateCap.fired) return { name: 'candidate_cap', count: candidateCap.count, cap: candidateCap.cap };
  if (ceiling.exceeds) return { name: 'ceiling', count: stress.length, predictedMs: ceiling.predictedMs, ceilingMs: ceiling.ceilingMs };
  return null;
}
