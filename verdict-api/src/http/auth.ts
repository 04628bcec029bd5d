// Every API call carries a credential: a project's CI token (`sg_…` default-branch, `sgm_…`
// merge-request: accounts/tokens.ts), an account's admin credential (`sga_…`), or the operator
// credential from the server's environment. A CI token opens exactly one project; an admin credential the projects of its account; the operator any.
// For any other handle, known or not, the answer is the same 403, so nothing says which projects
// exist. Grants are read through a cache of at most a second that any write of this process to
// those tables empties (storage/read-cache.ts): a token revoked here is refused on its next request.
import { createHash, timingSafeEqual } from 'node:crypto';
import { type Account, getAccount } from '../accounts/accounts.js';
import { adminGrant } from '../accounts/admin-credentials.js';
import { getProject, getProjectByHandle, HANDLE_RE, type Project } from '../accounts/projects.js';
import { tokenGrant, type TokenScope } from '../accounts/tokens.js';
import { VerdictApiError } from '../errors/errors.js';
import type { Database } from '../storage/database.js';

/** The kinds of credential: a project's CI token, an account's admin credential (API or signed-in dashboard), the operator's. */
export type CredentialKind = 'project_token' | 'admin' | 'operator';

export interface Principal {
  project: Project;
  account: Account;
  /** Who is calling, as audits record it: `token:<id>`, `admin:<credential id>` or `operator`. */
  actor: string;
  /** The kind of credential. */
  credential: CredentialKind;
  /** What its uploads count as: a merge-request token's never make default-branch history; admin and operator credentials are default-branch. */
  scope: TokenScope;
}

/** Who a bearer credential is, before any project is involved. */
export type Caller =
  | { kind: 'project_token'; projectId: string; actor: string; scope: TokenScope }
  | { kind: 'admin'; accountId: string; credentialId: string; actor: string }
  | { kind: 'operator'; actor: string };

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

/** Identifies the caller of a bearer credential; 401 when it is none of the three. */
export async function identify(db: Database, authorization: string | undefined, operatorToken?: string): Promise<Caller> {
  const value = bearer(authorization);
  if (isOperator(value, operatorToken)) return { kind: 'operator', actor: 'operator' };
  if (value.startsWith('sga_')) {
    const grant = await adminGrant(db, value);
    if (grant) return { kind: 'admin', ...grant, actor: `admin:${grant.credentialId}` };
  } else {
    const grant = await tokenGrant(db, value);
    if (grant) return { kind: 'project_token', projectId: grant.projectId, actor: `token:${grant.tokenId}`, scope: grant.scope };
  }
  throw new VerdictApiError('UNAUTHENTICATED', 'Authorization: the token is not valid', 'Authorization');
}

/** The principal of a call on project `handle`; 401 for a bad credential, 403 for another project. */
export async function authenticate(db: Database, authorization: string | undefined, handle: string, operatorToken?: string): Promise<Principal> {
  return principalFor(db, await identify(db, authorization, operatorToken), handle);
}

/** The caller's principal on project `handle`, or the one 403 for every project it may not open. */
export async function principalFor(db: Database, caller: Caller, handle: string): Promise<Principal> {
  const forbidden = () => new VerdictApiError('FORBIDDEN', `this token does not grant access to project "${handle.slice(0, 64)}"`, 'Authorization');
  // No handle can be longer or otherwise spelt (projects.ts): not looked up, nor kept in the cache.
  if (!HANDLE_RE.test(handle)) throw forbidden();
  const project = caller.kind === 'project_token' ? await getProject(db, caller.projectId) : await getProjectByHandle(db, handle);
  if (!project || project.handle !== handle) throw forbidden();
  if (caller.kind === 'admin' && project.accountId !== caller.accountId) throw forbidden();
  const account = await getAccount(db, project.accountId);
  if (!account) throw forbidden();
  return { project, account, actor: caller.actor, credential: caller.kind, scope: caller.kind === 'project_token' ? caller.scope : 'default-branch' };
}
