// Per-project API tokens: only the SHA-256 of a token is stored; the plain text is shown once.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { formatDateTime, sql } from '../sql/bind.js';
import { type Database, num } from '../storage/database.js';
import { nextVersion } from '../storage/version.js';

/** Issues a token for a project; only its SHA-256 is stored, the plain text is returned once. */
export async function createToken(db: Database, projectId: string): Promise<{ tokenId: string; token: string }> {
  const token = `sg_${randomBytes(32).toString('base64url')}`;
  const tokenId = randomUUID();
  await db.engine.insert(db.t('api_tokens'), [
    { token_hash: hashToken(token), token_id: tokenId, project_id: projectId, revoked: 0, created_at: formatDateTime(new Date()), version: nextVersion() },
  ]);
  return { tokenId, token };
}

/** The project a (non-revoked) token belongs to, or null. */
export async function projectIdForToken(db: Database, token: string): Promise<string | null> {
  return (await tokenGrant(db, token))?.projectId ?? null;
}

/** The project and token id of a (non-revoked) token, or null. */
export async function tokenGrant(db: Database, token: string): Promise<{ projectId: string; tokenId: string } | null> {
  const rows = await db.engine.query<{ project_id: string; token_id: string; revoked: unknown }>(
    sql`SELECT project_id, toString(token_id) AS token_id, revoked FROM ${db.t('api_tokens')} FINAL WHERE token_hash = ${hashToken(token)}`,
  );
  const r = rows[0];
  return r && num(r.revoked) === 0 ? { projectId: r.project_id, tokenId: r.token_id } : null;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

