// The quarantine mask. Muted tests run with their failure masked; a muted candidate is stressed
// and recorded but cannot fail the gate. Skipped tests are kept out of the first pass and are
// never candidates. The lists come from the verdict API before the first pass.
import { testCaseId } from '#identity';
import type { TestCaseIdentity } from '#contract';
import { identityKey } from '../identity/identity-key.js';

/** The project's quarantine: both sets hold identityKey() strings and test_case_ids. */
export interface QuarantineLists {
  /** Run, failure masked. */
  muted: Set<string>;
  /** Not run at all. */
  skipped: Set<string>;
  /** The skipped tests' identities, for Gradle's filter. */
  skippedTests: TestCaseIdentity[];
  /** How many quarantined tests the server listed. */
  count: number;
}

/** The lists, or a problem sentence for a warning line. */
export type QuarantineFetch = { ok: true; value: QuarantineLists } | { ok: false; problem: string };

/** Where the lists come from. */
export interface QuarantineSource {
  lists(): Promise<QuarantineFetch>;
}

/** Nothing quarantined. */
export function emptyQuarantine(): QuarantineLists {
  return { muted: new Set(), skipped: new Set(), skippedTests: [], count: 0 };
}

/** Answers "is this identity muted?"; test_case_ids need the server's project id to match. */
export type MutedCheck = (identity: TestCaseIdentity, projectId?: string) => boolean;

/** Builds the check from the fetched set. */
export function mutedCheck(muted: ReadonlySet<string>): MutedCheck {
  if (muted.size === 0) return () => false;
  return (identity, projectId) =>
    muted.has(identityKey(identity)) || (projectId !== undefined && muted.has(testCaseId(projectId, identity)));
}
