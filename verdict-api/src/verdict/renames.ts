// Renames: a posted identity with no default-branch history whose body fingerprint is that of a
// known identity (one that ran in CI on the default branch: test_case_fingerprints, migration 0042)
// which this request did not post is that test renamed or moved. It inherits the known test's
// history: no candidate, not counted as new. A copy (the known identity still posted) is no rename.
// knownFingerprints reads the table; findRenames decides, pure.
import type { RenamedTest } from '../contract.js';
import { compareIdentities, type Identity } from '../identity/test-case-id.js';
import { sql, uuid } from '../sql/bind.js';
import type { Database } from '../storage/database.js';

/** A known identity with a fingerprint: a row of test_case_fingerprints. */
export interface KnownBody extends Identity {
  testCaseId: string;
  fingerprint: string;
}

/**
 * Known identities read per fingerprint at most: the smallest by identity. Bodies shared by many
 * tests (an empty test, a one-line smoke test copied across suites) stop here; a rename's source
 * is taken among these.
 */
export const KNOWN_PER_FINGERPRINT = 20;

/** Fingerprints asked for at once at most (a request's share of the contract's limit; the CLI sends them for changed files only). */
export const FINGERPRINTS_PER_QUERY = 5_000;

/**
 * The identities of the project's default branch (`branch`) with one of `fingerprints`, at most
 * KNOWN_PER_FINGERPRINT each. One query a FINGERPRINTS_PER_QUERY of them (they are 34-byte
 * literals; 18.16's AST limit stays far).
 */
export async function knownFingerprints(db: Database, projectId: string, branch: string, fingerprints: readonly string[]): Promise<KnownBody[]> {
  const out: KnownBody[] = [];
  for (let i = 0; i < fingerprints.length; i += FINGERPRINTS_PER_QUERY) {
    const rows = await db.engine.query<{ fingerprint: string; id: string; module: string; suite: string; name: string }>(sql`
      SELECT fingerprint, toString(test_case_id) AS id, module, suite, name FROM ${db.t('test_case_fingerprints')}
      WHERE project_id = ${uuid(projectId)} AND git_branch = ${branch} AND fingerprint IN ${fingerprints.slice(i, i + FINGERPRINTS_PER_QUERY)}
      ORDER BY fingerprint, module, suite, name, id LIMIT ${KNOWN_PER_FINGERPRINT} BY fingerprint`);
    for (const r of rows) out.push({ fingerprint: r.fingerprint, testCaseId: r.id, module: r.module, suite: r.suite, name: r.name });
  }
  return out;
}

/** A would-be candidate: a posted identity with no default-branch history, and its fingerprint. */
export interface Unknown extends Identity {
  testCaseId: string;
  fingerprint: string;
}

/**
 * The renames among `unknown` (posted, no default-branch history, fingerprinted), by test case
 * id. A known identity with the same fingerprint is a rename's source when it was not posted
 * (`posted` says which known ids were); several sources: the smallest identity. Each source is
 * taken once, by the smallest of the identities that match it (two copies of one moved test:
 * one is the rename, the other a new test). Pure.
 */
export function findRenames(unknown: readonly Unknown[], known: readonly KnownBody[], posted: ReadonlySet<string>): Map<string, RenamedTest> {
  const byFingerprint = new Map<string, KnownBody[]>();
  for (const k of known) {
    if (posted.has(k.testCaseId)) continue;
    const list = byFingerprint.get(k.fingerprint);
    if (list) list.push(k);
    else byFingerprint.set(k.fingerprint, [k]);
  }
  const renames = new Map<string, RenamedTest>();
  if (byFingerprint.size === 0) return renames;
  for (const list of byFingerprint.values()) list.sort(compareIdentities);
  const taken = new Set<string>();
  for (const t of [...unknown].sort(compareIdentities)) {
    if (renames.has(t.testCaseId)) continue;
    const from = byFingerprint.get(t.fingerprint)?.find((k) => !taken.has(k.testCaseId) && k.testCaseId !== t.testCaseId);
    if (!from) continue;
    taken.add(from.testCaseId);
    renames.set(t.testCaseId, {
      module: t.module,
      suite: t.suite,
      name: t.name,
      testCaseId: t.testCaseId,
      from: { module: from.module, suite: from.suite, name: from.name, testCaseId: from.testCaseId },
    });
  }
  return renames;
}
