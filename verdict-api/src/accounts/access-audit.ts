// The audit of who may reach a project: every CI token and viewer credential created or revoked,
// by whom and when (access_audit, migration 0037). Append-only; read newest first.
import { formatDateTime, sql, uuid } from '../sql/bind.js';
import type { Database } from '../storage/database.js';
import { nextVersion } from '../storage/version.js';

/** What an access change was about: a CI token or a viewer credential. */
export type AccessKind = 'token' | 'viewer';

/** One audited access change, as the API and the dashboard list it. */
export interface AccessAuditEntry {
  /** Who made it: `admin:<credential id>`, `operator`, or `cli` (an admin command on the database itself). */
  actor: string;
  action: 'created' | 'revoked';
  kind: AccessKind;
  /** The token's or the viewer credential's id. */
  id: string;
  name: string;
  /** A token's scope (`default-branch`, `merge-request`); `viewer` for a viewer credential. */
  scope: string;
  changedAt: string;
}

/** Records one access change of project `projectId`. */
export async function recordAccess(db: Database, projectId: string, e: Omit<AccessAuditEntry, 'changedAt'>, now = new Date()): Promise<void> {
  await db.engine.insert(db.t('access_audit'), [
    { project_id: projectId, actor: e.actor, action: e.action, kind: e.kind, subject_id: e.id, subject_name: e.name, scope: e.scope, changed_at: formatDateTime(now), seq: nextVersion() },
  ]);
}

/** The project's access changes, newest first (at most `limit`), of one kind or of both. */
export async function accessAudit(db: Database, projectId: string, kind?: AccessKind, limit = 200): Promise<AccessAuditEntry[]> {
  const rows = await db.engine.query<{ actor: string; action: string; kind: string; id: string; label: string; scope: string; changed: string }>(
    sql`SELECT actor, action, kind, subject_id AS id, subject_name AS label, scope, toString(changed_at) AS changed FROM ${db.t('access_audit')}
        WHERE project_id = ${uuid(projectId)}${kind ? sql` AND kind = ${kind}` : sql``} ORDER BY seq DESC LIMIT ${limit}`,
  );
  return rows.map((r) => ({ actor: r.actor, action: r.action === 'revoked' ? 'revoked' : 'created', kind: r.kind === 'viewer' ? 'viewer' : 'token', id: r.id, name: r.label, scope: r.scope, changedAt: r.changed }));
}
