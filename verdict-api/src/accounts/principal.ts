// Who a call is on one project: the project and account a credential opens, and what its
// uploads count as. The API (http/auth.ts, from a bearer credential) and the dashboard (web/, from
// a signed-in session) both resolve their caller through principalFor. For any handle a caller
// may not open, known or not, the answer is the same 403, so nothing says which projects exist.
import { VerdictApiError } from '../errors/errors.js';
import type { Database } from '../storage/database.js';
import { type Account, getAccount } from './accounts.js';
import { getProject, getProjectByHandle, HANDLE_RE, type Project } from './projects.js';
import type { TokenScope } from './tokens.js';

/** The kinds of credential: a project's CI token, an account's admin credential (API or signed-in dashboard), the operator's. */
export type CredentialKind = 'project_token' | 'admin' | 'operator';

/** A caller on one project: what every project route acts as and audits record. */
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

/** Who a credential is, before any project is involved. */
export type Caller =
  | { kind: 'project_token'; projectId: string; actor: string; scope: TokenScope }
  | { kind: 'admin'; accountId: string; credentialId: string; actor: string }
  | { kind: 'operator'; actor: string };

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
