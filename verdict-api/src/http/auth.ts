// Every API call carries a credential: a project's CI token (`sg_…` default-branch, `sgm_…`
// merge-request: accounts/tokens.ts), a project's viewer credential (`sgv_…`, reads only:
// accounts/viewer-credentials.ts), an account's admin credential (`sga_…`), or the operator
// credential from the server's environment. This module reads the Authorization header and names
// the caller; which projects that caller opens is accounts/principal.ts's. Grants are read
// through a cache of at most a second that any write of this process to those tables empties
// (storage/read-cache.ts): a token revoked here is refused on its next request.
import { createHash, timingSafeEqual } from 'node:crypto';
import { adminGrant } from '../accounts/admin-credentials.js';
import { type Caller, type Principal, principalFor } from '../accounts/principal.js';
import { tokenGrant } from '../accounts/tokens.js';
import { VIEWER_PREFIX, viewerGrant } from '../accounts/viewer-credentials.js';
import { VerdictApiError } from '../errors/errors.js';
import type { Context } from 'hono';
import type { GuessLimiter } from '../limits/guess-limit.js';
import { clientAddress } from '../limits/read-body.js';
import type { Database } from '../storage/database.js';

/** The bearer value of an Authorization header; 401 when missing or malformed. */
export function bearer(authorization: string | undefined): string {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) throw new VerdictApiError('UNAUTHENTICATED', 'Authorization: expected "Bearer <token>"', 'Authorization');
  return match[1]!;
}

/** Whether `value` is the operator credential (constant-time; never when none is configured). */
export function isOperator(value: string, operatorToken: string | undefined): boolean {
  if (!operatorToken) return false;
  const a = createHash('sha256').update(value).digest();
  const b = createHash('sha256').update(operatorToken).digest();
  return timingSafeEqual(a, b);
}

/** Who is guessing: the limiter of failed lookups and the caller's key in it (its address). */
export interface GuessGuard {
  limiter: GuessLimiter;
  key: string;
}

/** The guard of a request from its client address; none without a socket (app.request in tests). */
export function guessGuard(c: Context, limiter: GuessLimiter): GuessGuard | undefined {
  const address = clientAddress(c);
  return address === null ? undefined : { limiter, key: address };
}

/** Identifies the caller of a bearer credential; 401 when it is none of them, 429 (no lookup) when its address has failed too often. */
export async function identify(db: Database, authorization: string | undefined, operatorToken?: string, guard?: GuessGuard): Promise<Caller> {
  const value = bearer(authorization);
  if (isOperator(value, operatorToken)) return { kind: 'operator', actor: 'operator' };
  const find = <T>(lookup: () => Promise<T | null>): Promise<T | null> => (guard ? guard.limiter.lookup(guard.key, value, lookup) : lookup());
  if (value.startsWith('sga_')) {
    const grant = await find(() => adminGrant(db, value));
    if (grant) return { kind: 'admin', ...grant, actor: `admin:${grant.credentialId}` };
  } else if (value.startsWith(VIEWER_PREFIX)) {
    const grant = await find(() => viewerGrant(db, value));
    if (grant) return { kind: 'viewer', projectId: grant.projectId, accountId: grant.accountId, viewerId: grant.viewerId, actor: `viewer:${grant.viewerId}` };
  } else {
    const grant = await find(() => tokenGrant(db, value));
    if (grant) return { kind: 'project_token', projectId: grant.projectId, actor: `token:${grant.tokenId}`, scope: grant.scope };
  }
  throw new VerdictApiError('UNAUTHENTICATED', 'Authorization: the token is not valid', 'Authorization');
}

/** The principal of a call on project `handle`; 401 for a bad credential, 403 for another project. */
export async function authenticate(db: Database, authorization: string | undefined, handle: string, operatorToken?: string, guard?: GuessGuard): Promise<Principal> {
  return principalFor(db, await identify(db, authorization, operatorToken, guard), handle);
}
