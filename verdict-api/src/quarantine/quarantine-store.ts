// The store of quarantines: the current state per test case (quarantines, latest version wins)
// and the audit of every change (quarantine_audit: who, when, from what to what).
import type { QuarantineState } from '../contract.js';
import type { Identity } from '../identity/test-case-id.js';
import { dateTime, formatDateTime, sql, type Sql, uuid } from '../sql/bind.js';
import { type Database, num } from '../storage/database.js';
import { nextVersion } from '../storage/version.js';
import { idSet } from '../presence/presence.js';

/** A test case's quarantine. Times are 'YYYY-MM-DD hh:mm:ss' UTC. */
export interface QuarantineRecord extends Identity {
  projectId: string;
  testCaseId: string;
  state: QuarantineState;
  owner: string;
  reason: string;
  issueUrl: string | null;
  expiresAt: string | null;
  changedBy: string;
  changedAt: string;
}

/** One audited change. */
export interface QuarantineAuditEntry {
  from: QuarantineState;
  to: QuarantineState;
  actor: string;
  owner: string;
  reason: string;
  issueUrl: string | null;
  expiresAt: string | null;
  changedAt: string;
}

interface Row {
  project: string;
  id: string;
  module: string;
  suite: string;
  name: string;
  state: QuarantineState;
  owner: string;
  reason: string;
  issue_url: string;
  has_expiry: unknown;
  expires: string;
  changed_by: string;
  changed: string;
}

// No alias repeats a column's name: 18.16 would resolve it in WHERE.
const COLUMNS = sql`toString(project_id) AS project, toString(test_case_id) AS id, module, suite, name, state, owner, reason, issue_url,
  has_expiry, toString(expires_at) AS expires, changed_by, toString(changed_at) AS changed`;

/** Rows of the current quarantines matching `where` (already scoped by the caller). */
async function select(db: Database, where: Sql, tail = sql``): Promise<QuarantineRecord[]> {
  const rows = await db.engine.query<Row>(sql`SELECT ${COLUMNS} FROM ${db.t('quarantines')} FINAL WHERE ${where}${tail}`);
  return rows.map(toRecord);
}

/** The current quarantine row of one test case, or null when it was never quarantined. */
export async function quarantineOf(db: Database, projectId: string, testCaseId: string): Promise<QuarantineRecord | null> {
  const rows = await select(db, sql`project_id = ${uuid(projectId)} AND test_case_id = ${uuid(testCaseId)}`);
  return rows[0] ?? null;
}

/** Which of `ids` have a quarantine record (muted, skipped or enabled by someone, expired or not). */
export async function recordedIds(db: Database, projectId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.engine.query<{ id: string }>(
    sql`SELECT DISTINCT toString(test_case_id) AS id FROM ${db.t('quarantines')} WHERE project_id = ${uuid(projectId)} AND toString(test_case_id) IN ${idSet(ids)}`,
  );
  return new Set(rows.map((r) => r.id));
}

/** The state a record puts its test in at `now`: an expired quarantine is already enabled. */
export function effectiveState(record: QuarantineRecord | null, now: Date): QuarantineState {
  if (!record) return 'enabled';
  if (record.state !== 'enabled' && record.expiresAt !== null && record.expiresAt <= formatDateTime(now)) return 'enabled';
  return record.state;
}

/** One page of the project's quarantined (muted or skipped, unexpired) tests, by test_case_id text. */
export async function quarantinedPage(db: Database, projectId: string, now: Date, limit: number, after: string | null): Promise<QuarantineRecord[]> {
  const cursor = after === null ? sql`` : sql` AND toString(test_case_id) > ${after}`;
  return select(
    db,
    sql`project_id = ${uuid(projectId)} AND state != 'enabled' AND NOT (has_expiry = 1 AND expires_at <= ${dateTime(now)})${cursor}`,
    sql` ORDER BY toString(test_case_id) LIMIT ${limit}`,
  );
}

/** Every quarantine of every project whose expiry has passed at `now` and that is still in force. */
export async function expiredQuarantines(db: Database, now: Date): Promise<QuarantineRecord[]> {
  return select(db, sql`state != 'enabled' AND has_expiry = 1 AND expires_at <= ${dateTime(now)}`);
}

/** Writes the new current state and its audit entry (from `from` to the record's state). */
export async function writeQuarantine(db: Database, record: QuarantineRecord, from: QuarantineState): Promise<void> {
  const expiry = { has_expiry: record.expiresAt === null ? 0 : 1, expires_at: record.expiresAt ?? '1970-01-01 00:00:00' };
  await db.engine.insert(db.t('quarantines'), [
    {
      project_id: record.projectId,
      test_case_id: record.testCaseId,
      module: record.module,
      suite: record.suite,
      name: record.name,
      state: record.state,
      owner: record.owner,
      reason: record.reason,
      issue_url: record.issueUrl ?? '',
      ...expiry,
      changed_by: record.changedBy,
      changed_at: record.changedAt,
      version: nextVersion(),
    },
  ]);
  await db.engine.insert(db.t('quarantine_audit'), [
    {
      project_id: record.projectId,
      test_case_id: record.testCaseId,
      from_state: from,
      to_state: record.state,
      actor: record.changedBy,
      owner: record.owner,
      reason: record.reason,
      issue_url: record.issueUrl ?? '',
      ...expiry,
      changed_at: record.changedAt,
      seq: nextVersion(),
    },
  ]);
}

/** Every audited change of one test case's quarantine, oldest first. */
export async function quarantineAudit(db: Database, projectId: string, testCaseId: string): Promise<QuarantineAuditEntry[]> {
  const rows = await db.engine.query<Record<string, string>>(sql`
    SELECT from_state, to_state, actor, owner, reason, issue_url, toString(has_expiry) AS expiry_set, toString(expires_at) AS expiry, toString(changed_at) AS at
    FROM ${db.t('quarantine_audit')} WHERE project_id = ${uuid(projectId)} AND test_case_id = ${uuid(testCaseId)} ORDER BY seq`);
  return rows.map((r) => ({
    from: r['from_state'] as QuarantineState,
    to: r['to_state'] as QuarantineState,
    actor: r['actor']!,
    owner: r['owner']!,
    reason: r['reason']!,
    issueUrl: r['issue_url'] === '' ? null : r['issue_url']!,
    expiresAt: r['expiry_set'] === '1' ? r['expiry']! : null,
    changedAt: r['at']!,
  }));
}

function toRecord(r: Row): QuarantineRecord {
  return {
    projectId: r.project,
    testCaseId: r.id,
    module: r.module,
    suite: r.suite,
    name: r.name,
    state: r.state,
    owner: r.owner,
    reason: r.reason,
    issueUrl: r.issue_url === '' ? null : r.issue_url,
    expiresAt: num(r.has_expiry) === 1 ? r.expires : null,
    changedBy: r.changed_by,
    changedAt: r.changed,
  };
}
