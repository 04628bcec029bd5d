// A project's runs: the list, and one run's page.
import * as v from 'valibot';
import { RunId } from '../contract.js';
import { VerdictApiError } from '../errors/errors.js';
import { listRuns } from '../run-page/list-runs.js';
import { runPage, testCasePage } from '../run-page/run-page.js';
import { frame, html, notFound, projectOf } from './respond.js';
import { RunPageView } from './run-page.js';
import { RunsPage } from './runs-page.js';
import type { SignedInPages } from './signed-in.js';
import type { DashboardDeps } from './web-env.js';

/** Adds GET /projects/:project/runs and GET /projects/:project/runs/:runId. */
export function runsRoutes(pages: SignedInPages, { db }: DashboardDeps): void {
  pages.get('/projects/:project/runs', async (c) => {
    const p = await projectOf(db, c);
    if (p instanceof Response) return p;
    return html(c, <RunsPage frame={frame(c, 'Runs', p.project.handle)} runs={await listRuns(db, p.project)} />);
  });

  pages.get('/projects/:project/runs/:runId', async (c) => {
    const p = await projectOf(db, c);
    if (p instanceof Response) return p;
    const runId = c.req.param('runId');
    if (!v.is(RunId, runId)) return notFound(c, 'No such run.');
    try {
      const after = c.req.query('after');
      const afterCandidate = c.req.query('afterCandidate');
      const page = await runPage(db, p.project, runId, testCasePage(after, undefined, afterCandidate));
      return html(c, <RunPageView frame={frame(c, `Run ${runId}`, p.project.handle)} page={page} stress={p.project.stress} first={after === undefined} firstCandidates={afterCandidate === undefined} />);
    } catch (e) {
      if (e instanceof VerdictApiError && e.code === 'NOT_FOUND') return notFound(c, 'No such run in this project.');
      if (e instanceof VerdictApiError && (e.field === 'after' || e.field === 'afterCandidate')) return notFound(c, 'No such page of this run.');
      throw e;
    }
  });
}
