// The signed-in account's list of projects (a viewer's session: its one project).
import type { Hono } from 'hono';
import { getAccount } from '../accounts/accounts.js';
import { listProjectsOfAccount } from '../accounts/projects.js';
import { ProjectsPage } from './projects-page.js';
import { frame, html } from './respond.js';
import type { DashboardDeps, WebEnv } from './web-env.js';

/** Adds GET /projects. */
export function projectsRoutes(web: Hono<WebEnv>, { db }: DashboardDeps): void {
  web.get('/projects', async (c) => {
    const s = c.get('session');
    const [all, account] = await Promise.all([listProjectsOfAccount(db, s.accountId), getAccount(db, s.accountId)]);
    const projects = s.role === 'viewer' ? all.filter((p) => p.projectId === s.projectId) : all;
    return html(c, <ProjectsPage frame={frame(c, 'Projects')} projects={projects} entitled={account?.stressGateEntitled ?? false} />);
  });
}
