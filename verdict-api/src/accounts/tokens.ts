// Per-project API tokens (CI tokens): only the SHA-256 of a token is stored; the plain text is
// shown once. Tokens are named, listed (never shown again) and revoked; every request reads the
// token's current row (kept for at most a second, and dropped at once when this process writes
// any token: storage/read-cache.ts), so a revoked token is refused on its next request.
//
// Each token has a scope (docs/security.md). A default-branch token is for protected-branch
// jobs: its runs are the default branch's history. A merge-request token is for every other job:
// it uploads its own runs and gate results, asks the verdict and reads the quarantine list, and
// its runs are never history, whatever branch they name. Tokens issued before scopes existed have
// no scope row and are default-branch tokens, as they always were.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { VerdictApiError } from '../errors/errors.js';
import { formatDateTime, sql, uuid } from '../sql/bind.js';
import { type Database, num } from '../storage/database.js';
import { nextVersion } from '../storage/version.js';
import { recordAccess } from './access-audit.js';

/** What a project token may do: upload the default branch's history, or a merge request's runs only. */
export type TokenScope = 'default-branch' | 'merge-request';
/** The scopes, as the API and the admin command spell them. */
export const TOKEN_SCOPES: readonly TokenScope[] = ['default-branch', 'merge-request'];

/** A token as listed: never its secret. */
export interface TokenInfo {
  tokenId: string;
  name: string;
  scope: TokenScope;
  revoked: boolean;
  createdAt: string;
}

/** Tokens not revoked a project may have. */
export const MAX_ACTIVE_TOKENS_PER_PROJECT = 100;

/**
 * Issues a token for a project; only its SHA-256 is stored, the plain text is returned once (409
 * past MAX_ACTIVE_TOKENS_PER_PROJECT). Audited as `actor` (access-audit.ts): every caller acting
 * for a person (the API, the dashboard, the admin command) names it.
 */
export async function createToken(db: Database, projectId: string, name: string, scope: TokenScope, actor?: string): Promise<{ tokenId: string; token: string; name: string; scope: TokenScope }> {
  const active = await db.engine.query<{ n: unknown }>(sql`SELECT count() AS n FROM ${db.t('api_tokens')} FINAL WHERE project_id = ${uuid(projectId)} AND revoked = 0`);
  if (num(active[0]?.n ?? 0) >= MAX_ACTIVE_TOKENS_PER_PROJECT) {
    throw new VerdictApiError('CONFLICT', `tokens: this project has ${MAX_ACTIVE_TOKENS_PER_PROJECT} tokens that are not revoked, the most a project may have; revoke one first`, 'tokens');
  }
  // The prefix tells a person which kind they hold; the stored scope decides.
  const token = `${scope === 'merge-request' ? 'sgm_' : 'sg_'}${randomBytes(32).toString('base64url')}`;
  const tokenId = randomUUID();
  const hash = hashToken(token);
  // The scope first: a token is usable once its api_tokens row exists, and it must never be read without its scope.
  await db.engine.insert(db.t('api_token_scopes'), [{ token_hash: hash, project_id: projectId, token_id: tokenId, scope, version: nextVersion() }]);
  await db.engine.insert(db.t('api_tokens'), [
    { token_hash: hash, token_id: tokenId, project_id: projectId, revoked: 0, created_at: formatDateTime(new Date()), version: nextVersion() },
  ]);
  await db.engine.insert(db.t('api_token_names'), [{ project_id: projectId, token_id: tokenId, name, version: nextVersion() }]);
  if (actor) await recordAccess(db, projectId, { actor, action: 'created', kind: 'token', id: tokenId, name, scope });
  return { tokenId, token, name, scope };
}

/** The project's tokens, newest first, without their secrets. */
export async function listTokens(db: Database, projectId: string): Promise<TokenInfo[]> {
  const [rows, names, scopes] = await Promise.all([
    db.engine.query<{ id: string; revoked: unknown; created: string }>(
      sql`SELECT toString(token_id) AS id, revoked, toString(created_at) AS created FROM ${db.t('api_tokens')} FINAL WHERE project_id = ${uuid(projectId)} ORDER BY created DESC, id`,
    ),
    db.engine.query<{ id: string; label: string }>(sql`SELECT toString(token_id) AS id, name AS label FROM ${db.t('api_token_names')} FINAL WHERE project_id = ${uuid(projectId)}`),
    db.engine.query<{ id: string; scope: string }>(sql`SELECT toString(token_id) AS id, scope FROM ${db.t('api_token_scopes')} FINAL WHERE project_id = ${uuid(projectId)}`),
  ]);
  const byId = new Map(names.map((n) => [n.id, n.label]));
  const scopeOf = new Map(scopes.map((x) => [x.id, x.scope]));
  return rows.map((r) => ({ tokenId: r.id, name: byId.get(r.id) ?? '', scope: toScope(scopeOf.get(r.id)), revoked: num(r.revoked) === 1, createdAt: r.created }));
}

/** Revokes one of the project's tokens (audited as `actor`, as createToken); NOT_FOUND for a token of another project. */
export async function revokeToken(db: Database, projectId: string, tokenId: string, actor?: string): Promise<TokenInfo> {
  const rows = await db.engine.query<{ token_hash: string; created: string; revoked: unknown }>(
    sql`SELECT token_hash, toString(created_at) AS created, revoked FROM ${db.t('api_tokens')} FINAL WHERE project_id = ${uuid(projectId)} AND token_id = ${uuid(tokenId)}`,
  );
  const r = rows[0];
  if (!r) throw new VerdictApiError('NOT_FOUND', `no token ${tokenId} in this project`, 'tokenId');
  await db.engine.insert(db.t('api_tokens'), [
    { token_hash: r.token_hash, token_id: tokenId, project_id: projectId, revoked: 1, created_at: r.created, version: nextVersion() },
  ]);
  const info = (await listTokens(db, projectId)).find((t) => t.tokenId === tokenId);
  if (actor && num(r.revoked) === 0) await recordAccess(db, projectId, { actor, action: 'revoked', kind: 'token', id: tokenId, name: info?.name ?? '', scope: info?.scope ?? 'default-branch' });
  return info ?? { tokenId, name: '', scope: 'default-branch', revoked: true, createdAt: r.created };
}

/** What a (non-revoked) token grants. */
export interface TokenGrant {
  projectId: string;
  tokenId: string;
  scope: TokenScope;
}

/** The project, token id and scope of a (non-revoked) token, or null. */
export async function tokenGrant(db: Database, token: string): Promise<TokenGrant | null> {
  const hash = hashToken(token);
  // Kept for a moment (storage/read-cache.ts); any token write of this process drops it at once.
  return (await db.cache.auth.get(`token ${hash}`, async () => {
    const [rows, scopes] = await Promise.all([
      db.engine.query<{ project_id: string; token_id: string; revoked: unknown }>(
        sql`SELECT project_id, toString(token_id) AS token_id, revoked FROM ${db.t('api_tokens')} FINAL WHERE token_hash = ${hash}`,
      ),
      db.engine.query<{ scope: string }>(sql`SELECT scope FROM ${db.t('api_token_scopes')} FINAL WHERE token_hash = ${hash}`),
    ]);
    const r = rows[0];
    return r && num(r.revoked) === 0 ? { projectId: r.project_id, tokenId: r.token_id, scope: toScope(scopes[0]?.scope) } : null;
  })) as TokenGrant | null;
}

/** A stored scope; none (a token issued before scopes) is a default-branch token. Anything unknown is the narrower scope. */
function toScope(stored: string | undefined): TokenScope {
  return stored === undefined || stored === 'default-branch' ? 'default-branch' : 'merge-request';
}

/** The SHA-256 (hex) a token, credential or session secret is stored as. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
