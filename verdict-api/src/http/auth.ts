// Every API call carries a project token. A token opens exactly one project; for any other
// handle, known or not, the answer is the same 403, so nothing says which projects exist.
import { type Account, getAccount } from '../accounts/accounts.js';
import { getProject, type Project } from '../accounts/projects.js';
import { tokenGrant } from '../accounts/tokens.js';
import { VerdictApiError } from '../errors/errors.js';
import type { Database } from '../storage/database.js';

export interface Principal {
  project: Project;
  account: Account;
  /** Who is calling, as audits record it: `token:<token id>` for a project token. */
  actor: string;
  /** The kind of credential: today only the project's CI token. */
  credential: 'project_token';
}

export async function authenticate(db: Database, authorization: string | undefined, handle: string): Promise<Principal> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) throw new VerdictApiError('UNAUTHENTICATED', 'Authorization: expected "Bearer <project token>"', 'Authorization');
  const grant = await tokenGrant(db, match[1]!);
  if (!grant) throw new VerdictApiError('UNAUTHENTICATED', 'Authorization: the token is not valid', 'Authorization');
  const project = await getProject(db, grant.projectId);
  if (!project || project.handle !== handle) {
    throw new VerdictApiError('FORBIDDEN', `this token does not grant access to project "${handle}"`);
  }
  const account = await getAccount(db, project.accountId);
  if (!account) throw new VerdictApiError('FORBIDDEN', `this token does not grant access to project "${handle}"`);
  return { project, account, actor: `token:${grant.tokenId}`, credential: 'project_token' };
}
