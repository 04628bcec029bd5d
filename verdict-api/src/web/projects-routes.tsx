// The signed-in account's list of projects (a viewer's session: its one project), and for an
// admin the account's storage against its quota.
import { getAccount } from '../accounts/accounts.js';
import { listProjectsOfAccount } from '../accounts/projects.js';
import { ProjectsPage } from './projects-page.js';
import { frame, html } from './respond.js';
import type { SignedInPages } from './signed-in.js';
import type { DashboardDeps } from './web-env.js';

/** Adds GET /projects. */
export function projectsRoutes(pages: SignedInPages, { db, storage }: DashboardDeps): void {
  pages.get('/projects', async (c) => {
    const s = c.get('session');
    const admin = s.role !== 'viewer';
    const [all, account, usage] = await Promise.all([listProjectsOfAccount(db, s.accountId), getAccount(db, s.accountId), admin ? storage.usage(s.accountId) : null]);
    const projects = admin ? all : all.filter((p) => p.projectId === s.projectId);
    // The account's usage is the sum of all its projects': a viewer of one project does not see it.
    const storageShown = usage === null ? null : { usage, quota: storage.quota };
    return html(c, <ProjectsPage frame={frame(c, 'Projects')} projects={projects} entitled={account?.stressGateEntitled ?? false} storage={storageShown} />);
  });
}
