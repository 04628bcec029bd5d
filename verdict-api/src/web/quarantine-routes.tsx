// A project's quarantine list (each test's own page changes it: test-case-routes.tsx).
import type { Hono } from 'hono';
import { listQuarantine } from '../quarantine/list-quarantine.js';
import { QuarantinePage } from './quarantine-page.js';
import { frame, html, projectOf } from './respond.js';
import type { DashboardDeps, WebEnv } from './web-env.js';

/** Adds GET /projects/:project/quarantine. */
export function quarantineRoutes(web: Hono<WebEnv>, { db, clock }: DashboardDeps): void {
  web.get('/projects/:project/quarantine', async (c) => {
    const p = await projectOf(db, c);
    if (p instanceof Response) return p;
    const r = await listQuarantine(db, p.project.projectId, clock(), { limit: 1000, cursor: null });
    return html(c, <QuarantinePage frame={frame(c, 'Quarantine', p.project.handle)} tests={r.tests} />);
  });
}
