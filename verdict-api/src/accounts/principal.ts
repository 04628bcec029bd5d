// Who a call is on one project: the project and account a credential opens, and what its
// uploads count as. The API (http/auth.ts, from a bearer credential) and the dashboard (web/, from
// a signed-in session) both resolve their caller through principalFor. For any handle a caller
// may not open, known or not, the answer is the same 403, so nothing says which projects exist.
// A CI token and a viewer credential open their one project; an admin credential its account's.
import { VerdictApiError } from '../errors/errors.js';
import type { Database } from '../storage/database.js';
import { type Account, getAccount } from './accounts.js';
import { getProject, getProjectByHandle, HANDLE_RE, type Project } from './projects.js';
import type { TokenScope } from './tokens.js';

/**
 * The kinds of credential: a project's CI token, a project's viewer credential (reads only: API
 * or signed-in dashboard), an account's admin credential (API or signed-in dashboard), the operator's.
 */
export type CredentialKind = 'project_token' | 'viewer' | 'admin' | 'operator';

/** A caller on one project: what every project route acts as and audits record. */
export interface Principal {
  project: Project;
  account: Account;
  /** Who is calling, as audits record it: `token:<id>`, `viewer:<id>`, `admin:<credential id>` or `operator`. */
  actor: string;
  /** The kind of credential. */
  credential: CredentialKind;
  /** What its uploads count as: a merge-request token's never make default-branch history; admin and operator credentials are default-branch (a viewer uploads nothing). */
  scope: TokenScope;
}

/** Who a credential is, before any project is involved. */
export type Caller =
  | { kind: 'project_token'; projectId: string; actor: string; scope: TokenScope }
  | { kind: 'viewer'; projectId: string; accountId: string; viewerId: string; actor: string }
  | { kind: 'admin'; accountId: string; credentialId: string; actor: string }
  | { kind: 'operator'; actor: string };

/** The caller's principal on project `handle`, or the one 403 for every project it may not open. */
export async function principalFor(db: Database, caller: Caller, handle: string): Promise<Principal> {
  const forbidden = () => new VerdictApiError('FORBIDDEN', `this token does not grant access to project "${handle.slice(0, 64)}"`, 'Authorization');
  // No handle can be longer or otherwise spelt (projects.ts): not looked up, nor kept in the cache.
  if (!HANDLE_RE.test(handle)) throw forbidden();
  const project = caller.kind === 'project_token' || caller.kind === 'viewer' ? await getProject(db, caller.projectId) : await getProjectByHandle(db, handle);
  if (!project || project.handle !== handle) throw forbidden();
  if ((caller.kind === 'admin' || caller.kind === 'viewer') && project.accountId !== caller.accountId) throw forbidden();
  const account = await getAccount(db, project.accountId);
  if (!account) throw forbidden();
  const scope: TokenScope = caller.kind === 'project_token' ? caller.scope : caller.kind === 'viewer' ? 'merge-request' : 'default-branch';
  return { project, account, actor: caller.actor, credential: caller.kind, scope };
}
