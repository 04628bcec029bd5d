// The guards: premise, bulk change and candidate cap are decided by the server (its signals come
// with the verdict); the wall-clock ceiling is predicted here from the measured durations. The
// first guard that fires refuses the whole stress pass: the gate never stresses part of the set.
import type { GuardName, VerdictResponse } from '#contract';
import type { GateCandidate } from '../candidates/gate-candidate.js';
import { predictCeiling } from '../ceiling/predict-ceiling.js';
import { formatDuration, formatLimit, plural } from '../report/format.js';

/** A guard that fired: its name, the count that triggered it, and the sentence the report prints. */
export interface FiredGuard {
  name: GuardName;
  count: number;
  reason: string;
}

/** Returns the first guard that fires, in the order premise, bulk change, candidate cap, ceiling. */
export function applyGuards(
  verdict: Pick<VerdictResponse, 'guards' | 'parameters' | 'defaultBranch' | 'candidates'>,
  stress: readonly GateCandidate[],
  jvmStartMs: number,
): FiredGuard | null {
  const { premise, bulkChange, candidateCap } = verdict.guards;
  const total = verdict.candidates.length;
  const branch = verdict.defaultBranch ?? 'the default branch';
  if (premise.fired) {
    const reason =
      premise.reason === 'no_default_branch'
        ? `Premise: the project has no default branch set, so no test can be told new (${plural(total, 'test case')} ran); not stressed.`
        : `Premise: no CI run of ${branch} is recorded yet, so no test can be told new (${plural(total, 'test case')} ran); not stressed.`;
    return { name: 'premise', count: total, reason };
  }
  if (bulkChange.fired) {
    const pct = Math.round(bulkChange.ratio * 100);
    return {
      name: 'bulk_change',
      count: bulkChange.newCount,
      reason: `Bulk change: ${plural(bulkChange.newCount, 'new test case')} ${verb(bulkChange.newCount)} ${pct}% of the ${bulkChange.inventory} known on ${branch}; not stressed.`,
    };
  }
  if (candidateCap.fired) {
    return {
      name: 'candidate_cap',
      count: candidateCap.count,
      reason: `Candidate cap: ${plural(candidateCap.count, 'new test case')} ${verb(candidateCap.count)} the cap of ${candidateCap.cap}; not stressed.`,
    };
  }
  const ceiling = predictCeiling(stress, jvmStartMs, verdict.parameters.ceilingSeconds);
  if (ceiling.exceeds) {
    return {
      name: 'ceiling',
      count: stress.length,
      reason: `Ceiling: stressing ${plural(stress.length, 'new test case')} would take about ${formatDuration(ceiling.predictedMs)}, over the ${formatLimit(ceiling.ceilingMs, true)} ceiling; not stressed.`,
    };
  }
  return null;
}

const verb = (n: number) => (n === 1 ? 'exceeds' : 'exceed');
