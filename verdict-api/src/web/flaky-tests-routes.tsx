// A project's flaky tests.
import type { Hono } from 'hono';
import { flakyTests } from '../flakiness/flaky-tests.js';
import { FlakyTestsPage } from './flaky-tests-page.js';
import { frame, html, projectOf } from './respond.js';
import type { DashboardDeps, WebEnv } from './web-env.js';

/** Adds GET /projects/:project/flaky-tests. */
export function flakyTestsRoutes(web: Hono<WebEnv>, { db, clock }: DashboardDeps): void {
  web.get('/projects/:project/flaky-tests', async (c) => {
    const p = await projectOf(db, c);
    if (p instanceof Response) return p;
    const r = await flakyTests(db, p.project, clock());
    return html(c, <FlakyTestsPage frame={frame(c, 'Flaky tests', p.project.handle)} windowDays={r.windowDays} tests={r.tests} />);
  });
}
