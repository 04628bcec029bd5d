// Per-project API tokens (CI tokens): only the SHA-256 of a token is stored; the plain text is
// shown once. Tokens are named, listed (never shown again) and revoked; every request reads the
// token's current row (kept for at most a second, and dropped at once when this process writes
// any token: storage/read-cache.ts), so a revoked token is refused on its next request.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { VerdictApiError } from '../errors/errors.js';
import { formatDateTime, sql, uuid } from '../sql/bind.js';
import { type Database, num } from '../storage/database.js';
import { nextVersion } from '../storage/version.js';

/** A token as listed: never its secret. */
export interface TokenInfo {
  tokenId: string;
  name: string;
  revoked: boolean;
  createdAt: string;
}

/** Issues a token for a project; only its SHA-256 is stored, the plain text is returned once. */
export async function createToken(db: Database, projectId: string, name = 'ci'): Promise<{ tokenId: string; token: string; name: string }> {
  const token = `sg_${randomBytes(32).toString('base64url')}`;
  const tokenId = randomUUID();
  await db.engine.insert(db.t('api_tokens'), [
    { token_hash: hashToken(token), token_id: tokenId, project_id: projectId, revoked: 0, created_at: formatDateTime(new Date()), version: nextVersion() },
  ]);
  await db.engine.insert(db.t('api_token_names'), [{ project_id: projectId, token_id: tokenId, name, version: nextVersion() }]);
  return { tokenId, token, name };
}

/** The project's tokens, newest first, without their secrets. */
export async function listTokens(db: Database, projectId: string): Promise<TokenInfo[]> {
  const [rows, names] = await Promise.all([
    db.engine.query<{ id: string; revoked: unknown; created: string }>(
      sql`SELECT toString(token_id) AS id, revoked, toString(created_at) AS created FROM ${db.t('api_tokens')} FINAL WHERE project_id = ${uuid(projectId)} ORDER BY created DESC, id`,
    ),
    db.engine.query<{ id: string; label: string }>(sql`SELECT toString(token_id) AS id, name AS label FROM ${db.t('api_token_names')} FINAL WHERE project_id = ${uuid(projectId)}`),
  ]);
  const byId = new Map(names.map((n) => [n.id, n.label]));
  return rows.map((r) => ({ tokenId: r.id, name: byId.get(r.id) ?? '', revoked: num(r.revoked) === 1, createdAt: r.created }));
}

/** Revokes one of the project's tokens; NOT_FOUND for a token of another project. */
export async function revokeToken(db: Database, projectId: string, tokenId: string): Promise<TokenInfo> {
  const rows = await db.engine.query<{ token_hash: string; created: string }>(
    sql`SELECT token_hash, toString(created_at) AS created FROM ${db.t('api_tokens')} FINAL WHERE project_id = ${uuid(projectId)} AND token_id = ${uuid(tokenId)}`,
  );
  const r = rows[0];
  if (!r) throw new VerdictApiError('NOT_FOUND', `no token ${tokenId} in this project`, 'tokenId');
  await db.engine.insert(db.t('api_tokens'), [
    { token_hash: r.token_hash, token_id: tokenId, project_id: projectId, revoked: 1, created_at: r.created, version: nextVersion() },
  ]);
  const info = (await listTokens(db, projectId)).find((t) => t.tokenId === tokenId);
  return info ?? { tokenId, name: '', revoked: true, createdAt: r.created };
}

/** The project a (non-revoked) token belongs to, or null. */
export async function projectIdForToken(db: Database, token: string): Promise<string | null> {
  return (await tokenGrant(db, token))?.projectId ?? null;
}

/** The project and token id of a (non-revoked) token, or null. */
export async function tokenGrant(db: Database, token: string): Promise<{ projectId: string; tokenId: string } | null> {
  const hash = hashToken(token);
  // Kept for a moment (storage/read-cache.ts); any token write of this process drops it at once.
  return (await db.cache.auth.get(`token ${hash}`, async () => {
    const rows = await db.engine.query<{ project_id: string; token_id: string; revoked: unknown }>(
      sql`SELECT project_id, toString(token_id) AS token_id, revoked FROM ${db.t('api_tokens')} FINAL WHERE token_hash = ${hash}`,
    );
    const r = rows[0];
    return r && num(r.revoked) === 0 ? { projectId: r.project_id, tokenId: r.token_id } : null;
  })) as { projectId: string; tokenId: string } | null;
}

/** The SHA-256 (hex) a token, credential or session secret is stored as. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
