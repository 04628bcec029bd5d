// A project's quarantine list (each test's own page changes it: test-case-routes.tsx).
import { listQuarantine } from '../quarantine/list-quarantine.js';
import { QuarantinePage } from './quarantine-page.js';
import { frame, html, projectOf } from './respond.js';
import type { SignedInPages } from './signed-in.js';
import type { DashboardDeps } from './web-env.js';

/** Adds GET /projects/:project/quarantine. */
export function quarantineRoutes(pages: SignedInPages, { db, clock }: DashboardDeps): void {
  pages.get('/projects/:project/quarantine', async (c) => {
    const p = await projectOf(db, c);
    if (p instanceof Response) return p;
    const r = await listQuarantine(db, p.project.projectId, clock(), { limit: 1000, cursor: null });
    return html(c, <QuarantinePage frame={frame(c, 'Quarantine', p.project.handle)} tests={r.tests} />);
  });
}
