// The demo's account and projects: one entitled account, a project per handle (default branch
// main), each with fresh tokens of both scopes, and an admin credential of the account. On a data
// directory a demo already used, the projects found are kept and get fresh tokens.
import { createAccount } from '../accounts/accounts.js';
import { createAdminCredential } from '../accounts/admin-credentials.js';
import { createProject, getProjectByHandle } from '../accounts/projects.js';
import { createToken } from '../accounts/tokens.js';
import { VerdictApiError } from '../errors/errors.js';
import type { Database } from '../storage/database.js';
import type { DemoProject } from './demo-env.js';

/** Creates (or finds) the demo's projects in one account and issues their tokens and the account's admin credential. */
export async function setUpDemoProjects(db: Database, handles: readonly string[]): Promise<{ projects: DemoProject[]; adminCredential: string }> {
  const found = await Promise.all(handles.map((handle) => getProjectByHandle(db, handle)));
  let accountId = found.find((p) => p !== null && p !== undefined)?.accountId;
  accountId ??= (await createAccount(db, 'Demo', true)).accountId; // the embedded demo entitles its own account
  const projects: DemoProject[] = [];
  for (const [i, handle] of handles.entries()) {
    let project = found[i];
    if (project && project.accountId !== accountId) {
      throw new VerdictApiError('CONFLICT', `demo: project "${handle}" belongs to another account than "${handles[0]}"; choose other handles or a fresh STRESS_GATE_DATA_DIR`);
    }
    project ??= await createProject(db, { accountId, handle, defaultBranch: 'main' });
    const { token } = await createToken(db, project.projectId, 'demo', 'default-branch');
    const { token: mrToken } = await createToken(db, project.projectId, 'demo merge requests', 'merge-request');
    projects.push({ handle, token, mrToken });
  }
  const { credential } = await createAdminCredential(db, accountId, 'demo');
  return { projects, adminCredential: credential };
}
