// A project's viewer credentials (`sgv_…`): read access for the project's developers without the
// account's admin credential. One signs in to the dashboard for its project only, or calls the
// API's read routes with it as a bearer; it changes nothing (http/authorize.ts). Created, listed
// (never shown again) and revoked by an admin as CI tokens are, stored as SHA-256 hashes, every
// change audited (access-audit.ts). Revoking one ends its dashboard sessions at once.
import { randomBytes, randomUUID } from 'node:crypto';
import { VerdictApiError } from '../errors/errors.js';
import { formatDateTime, sql, uuid } from '../sql/bind.js';
import { type Database, num } from '../storage/database.js';
import { nextVersion } from '../storage/version.js';
import { recordAccess } from './access-audit.js';
import { hashToken } from './tokens.js';

/** The prefix of a viewer credential's plain text. */
export const VIEWER_PREFIX = 'sgv_';

/** Viewer credentials not revoked a project may have. */
export const MAX_ACTIVE_VIEWERS_PER_PROJECT = 100;

/** A viewer credential as listed: never its secret. */
export interface ViewerInfo {
  viewerId: string;
  name: string;
  revoked: boolean;
  createdAt: string;
}

/** What a (non-revoked) viewer credential grants: read access to one project. */
export interface ViewerGrant {
  viewerId: string;
  projectId: string;
  accountId: string;
}

interface Row {
  hash: string;
  viewerId: string;
  projectId: string;
  accountId: string;
  name: string;
  revoked: boolean;
  createdAt: string;
}

/** Issues a viewer credential for a project (audited as `actor`); the plain text is returned once (409 past the quota). */
export async function createViewer(db: Database, project: { projectId: string; accountId: string }, name: string, actor: string): Promise<{ viewerId: string; credential: string; name: string }> {
  const active = await db.engine.query<{ n: unknown }>(
    sql`SELECT count() AS n FROM ${db.t('viewer_credentials')} FINAL WHERE project_id = ${uuid(project.projectId)} AND revoked = 0`,
  );
  if (num(active[0]?.n ?? 0) >= MAX_ACTIVE_VIEWERS_PER_PROJECT) {
    throw new VerdictApiError('CONFLICT', `viewers: this project has ${MAX_ACTIVE_VIEWERS_PER_PROJECT} viewer credentials that are not revoked, the most a project may have; revoke one first`, 'viewers');
  }
  const credential = `${VIEWER_PREFIX}${randomBytes(32).toString('base64url')}`;
  const viewerId = randomUUID();
  const now = new Date();
  await write(db, { hash: hashToken(credential), viewerId, projectId: project.projectId, accountId: project.accountId, name, revoked: false, createdAt: formatDateTime(now) });
  await recordAccess(db, project.projectId, { actor, action: 'created', kind: 'viewer', id: viewerId, name, scope: 'viewer' }, now);
  return { viewerId, credential, name };
}

/** The project's viewer credentials, newest first, without their secrets. */
export async function listViewers(db: Database, projectId: string): Promise<ViewerInfo[]> {
  const rows = await db.engine.query<{ id: string; label: string; revoked: unknown; created: string }>(
    sql`SELECT toString(credential_id) AS id, name AS label, revoked, toString(created_at) AS created FROM ${db.t('viewer_credentials')} FINAL
        WHERE project_id = ${uuid(projectId)} ORDER BY created DESC, id`,
  );
  return rows.map((r) => ({ viewerId: r.id, name: r.label, revoked: num(r.revoked) === 1, createdAt: r.created }));
}

/** Revokes one of the project's viewer credentials (audited as `actor`); NOT_FOUND for one of another project. */
export async function revokeViewer(db: Database, projectId: string, viewerId: string, actor: string): Promise<ViewerInfo> {
  const row = (await rowsWhere(db, sql`project_id = ${uuid(projectId)} AND credential_id = ${uuid(viewerId)}`))[0];
  if (!row) throw new VerdictApiError('NOT_FOUND', `no viewer credential ${viewerId} in this project`, 'viewerId');
  if (!row.revoked) {
    await write(db, { ...row, revoked: true });
    await recordAccess(db, projectId, { actor, action: 'revoked', kind: 'viewer', id: viewerId, name: row.name, scope: 'viewer' });
  }
  return { viewerId, name: row.name, revoked: true, createdAt: row.createdAt };
}

/** What a viewer credential's plain text grants, or null (unknown or revoked). Read through the authentication cache. */
export async function viewerGrant(db: Database, credential: string): Promise<ViewerGrant | null> {
  const hash = hashToken(credential);
  return (await db.cache.auth.get(`viewer ${hash}`, async () => grantOf((await rowsWhere(db, sql`credential_hash = ${hash}`))[0]))) as ViewerGrant | null;
}

/** What a viewer credential id grants while it is not revoked, or null: every dashboard request of a viewer's session asks. */
export async function viewerGrantById(db: Database, viewerId: string): Promise<ViewerGrant | null> {
  return grantOf((await rowsWhere(db, sql`credential_id = ${uuid(viewerId)}`))[0]);
}

const grantOf = (r: Row | undefined): ViewerGrant | null => (r && !r.revoked ? { viewerId: r.viewerId, projectId: r.projectId, accountId: r.accountId } : null);

async function rowsWhere(db: Database, where: ReturnType<typeof sql>): Promise<Row[]> {
  const rows = await db.engine.query<{ hash: string; id: string; project: string; account: string; label: string; revoked: unknown; created: string }>(
    sql`SELECT credential_hash AS hash, toString(credential_id) AS id, toString(project_id) AS project, toString(account_id) AS account, name AS label, revoked,
               toString(created_at) AS created
        FROM ${db.t('viewer_credentials')} FINAL WHERE ${where}`,
  );
  return rows.map((r) => ({ hash: r.hash, viewerId: r.id, projectId: r.project, accountId: r.account, name: r.label, revoked: num(r.revoked) === 1, createdAt: r.created }));
}

async function write(db: Database, r: Row): Promise<void> {
  await db.engine.insert(db.t('viewer_credentials'), [
    { credential_hash: r.hash, credential_id: r.viewerId, project_id: r.projectId, account_id: r.accountId, name: r.name, revoked: r.revoked ? 1 : 0, created_at: r.createdAt, version: nextVersion() },
  ]);
}
