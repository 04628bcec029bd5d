// The server's guard signals, as pure functions of counts and parameters.
import type { StressParameters, VerdictResponse } from '../contract.js';

export interface GuardInput {
  defaultBranch: string | null;
  inventory: number;
  newCount: number;
  /** Candidates the curve prices (excluded ones cost nothing and do not count toward the cap). */
  stressable: number;
  parameters: StressParameters;
}

/** Premise, bulk change and candidate cap, each with the numbers that decide it. */
export function guards(input: GuardInput): VerdictResponse['guards'] {
  const { defaultBranch, inventory, newCount, stressable, parameters: p } = input;
  const premiseReason = defaultBranch === null ? 'no_default_branch' : inventory === 0 ? 'no_default_branch_history' : null;
  return {
    premise: { fired: premiseReason !== null, reason: premiseReason },
    bulkChange: {
      // Only above an absolute floor: small projects legitimately add many tests at once.
      fired: newCount >= p.bulkChangeFloor && newCount > p.bulkChangeRatio * inventory,
      newCount,
      inventory,
      ratio: p.bulkChangeRatio,
      floor: p.bulkChangeFloor,
    },
    candidateCap: { fired: stressable > p.candidateCap, count: stressable, cap: p.candidateCap },
  };
}
