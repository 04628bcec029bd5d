// The ramp page: per day, what the gate did on a project's merge requests.
import { rampPerDay } from '../telemetry/ramp-per-day.js';
import { RampPage } from './ramp-page.js';
import { frame, html, projectOf } from './respond.js';
import type { SignedInPages } from './signed-in.js';
import type { DashboardDeps } from './web-env.js';

/** Adds GET /projects/:project/ramp. */
export function rampRoutes(pages: SignedInPages, { db, clock }: DashboardDeps): void {
  pages.get('/projects/:project/ramp', async (c) => {
    const p = await projectOf(db, c);
    if (p instanceof Response) return p;
    return html(c, <RampPage frame={frame(c, 'Ramp', p.project.handle)} ramp={await rampPerDay(db, p.project, clock())} />);
  });
}
