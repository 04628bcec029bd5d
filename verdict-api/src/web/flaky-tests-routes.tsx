// A project's flaky tests, and apart from them the stress gate's catches before merge in the same window.
import { DAY_MS } from '../clock/clock.js';
import { flakyTests } from '../flakiness/flaky-tests.js';
import { gateCatches } from '../run-page/gate-catches.js';
import { FlakyTestsPage } from './flaky-tests-page.js';
import { frame, html, projectOf } from './respond.js';
import type { SignedInPages } from './signed-in.js';
import type { DashboardDeps } from './web-env.js';

/** Adds GET /projects/:project/flaky-tests. */
export function flakyTestsRoutes(pages: SignedInPages, { db, clock }: DashboardDeps): void {
  pages.get('/projects/:project/flaky-tests', async (c) => {
    const p = await projectOf(db, c);
    if (p instanceof Response) return p;
    const now = clock();
    const r = await flakyTests(db, p.project, now);
    const catches = await gateCatches(db, p.project, new Date(now.getTime() - r.windowDays * DAY_MS));
    return html(c, <FlakyTestsPage frame={frame(c, 'Flaky tests', p.project.handle)} windowDays={r.windowDays} tests={r.tests} catches={catches} />);
  });
}
