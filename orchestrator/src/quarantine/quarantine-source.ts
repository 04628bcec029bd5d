// The quarantine mask. Muted tests run with their failure masked; a muted candidate is stressed
// and recorded but cannot fail the gate. The list itself comes from the server in a later issue:
// this is the hook it plugs into, fetched before the first pass as the design says.
import { testCaseId } from '#identity';
import type { TestCaseIdentity } from '#contract';
import { identityKey } from '../first-pass/test-case-result.js';

/** Where the muted tests come from: a set of test_case_ids and/or identityKey() strings. */
export interface QuarantineSource {
  fetch(): Promise<Set<string>>;
}

/** No quarantine yet: nothing is muted. */
export const noQuarantine: QuarantineSource = {
  fetch: async () => new Set<string>(),
};

/** Answers "is this identity muted?"; test_case_ids need the server's project id to match. */
export type MutedCheck = (identity: TestCaseIdentity, projectId?: string) => boolean;

/** Builds the check from the fetched set. */
export function mutedCheck(muted: ReadonlySet<string>): MutedCheck {
  if (muted.size === 0) return () => false;
  return (identity, projectId) =>
    muted.has(identityKey(identity)) || (projectId !== undefined && muted.has(testCaseId(projectId, identity)));
}
