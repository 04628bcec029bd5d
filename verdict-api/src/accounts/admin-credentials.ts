// An account's admin credentials: what changes settings, quarantine, webhooks and tokens, and
// signs in to the dashboard. Stored hashed; the plain text (prefix `sga_`) is shown once.
import { randomBytes, randomUUID } from 'node:crypto';
import { VerdictApiError } from '../errors/errors.js';
import { formatDateTime, sql, uuid } from '../sql/bind.js';
import { type Database, num } from '../storage/database.js';
import { nextVersion } from '../storage/version.js';
import { hashToken } from './tokens.js';

/** An admin credential as listed: never its secret. */
export interface AdminCredentialInfo {
  credentialId: string;
  accountId: string;
  name: string;
  revoked: boolean;
  createdAt: string;
}

/** Issues an admin credential for an account; returns the plain text once. */
export async function createAdminCredential(db: Database, accountId: string, name = 'admin'): Promise<{ credentialId: string; credential: string; accountId: string; name: string }> {
  const credential = `sga_${randomBytes(32).toString('base64url')}`;
  const credentialId = randomUUID();
  await write(db, { hash: hashToken(credential), credentialId, accountId, name, revoked: false, createdAt: formatDateTime(new Date()) });
  return { credentialId, credential, accountId, name };
}

/** The account and credential id of a (non-revoked) admin credential, or null. */
export async function adminGrant(db: Database, credential: string): Promise<{ accountId: string; credentialId: string } | null> {
  const hash = hashToken(credential);
  return (await db.cache.auth.get(`admin ${hash}`, async () => {
    const rows = await db.engine.query<{ account: string; id: string; revoked: unknown }>(
      sql`SELECT toString(account_id) AS account, toString(credential_id) AS id, revoked FROM ${db.t('admin_credentials')} FINAL WHERE credential_hash = ${hash}`,
    );
    const r = rows[0];
    return r && num(r.revoked) === 0 ? { accountId: r.account, credentialId: r.id } : null;
  })) as { accountId: string; credentialId: string } | null;
}

/** The account's admin credentials, newest first. */
export async function listAdminCredentials(db: Database, accountId: string): Promise<AdminCredentialInfo[]> {
  const rows = await db.engine.query<{ id: string; label: string; revoked: unknown; created: string }>(
    sql`SELECT toString(credential_id) AS id, name AS label, revoked, toString(created_at) AS created FROM ${db.t('admin_credentials')} FINAL
        WHERE account_id = ${uuid(accountId)} ORDER BY created DESC, id`,
  );
  return rows.map((r) => ({ credentialId: r.id, accountId, name: r.label, revoked: num(r.revoked) === 1, createdAt: r.created }));
}

/** Revokes one of the account's admin credentials (its sessions stop working too). */
export async function revokeAdminCredential(db: Database, accountId: string, credentialId: string): Promise<void> {
  const rows = await db.engine.query<{ credential_hash: string; label: string; created: string }>(
    sql`SELECT credential_hash, name AS label, toString(created_at) AS created FROM ${db.t('admin_credentials')} FINAL
        WHERE account_id = ${uuid(accountId)} AND credential_id = ${uuid(credentialId)}`,
  );
  const r = rows[0];
  if (!r) throw new VerdictApiError('NOT_FOUND', `no admin credential ${credentialId} in this account`, 'credentialId');
  await write(db, { hash: r.credential_hash, credentialId, accountId, name: r.label, revoked: true, createdAt: r.created });
}

/** Whether an admin credential id is still valid (sessions check it on every request). */
export async function credentialActive(db: Database, credentialId: string): Promise<boolean> {
  const rows = await db.engine.query<{ revoked: unknown }>(
    sql`SELECT revoked FROM ${db.t('admin_credentials')} FINAL WHERE credential_id = ${uuid(credentialId)}`,
  );
  return rows.length > 0 && num(rows[0]!.revoked) === 0;
}

async function write(db: Database, c: { hash: string; credentialId: string; accountId: string; name: string; revoked: boolean; createdAt: string }): Promise<void> {
  await db.engine.insert(db.t('admin_credentials'), [
    { credential_hash: c.hash, credential_id: c.credentialId, account_id: c.accountId, name: c.name, revoked: c.revoked ? 1 : 0, created_at: c.createdAt, version: nextVersion() },
  ]);
}
