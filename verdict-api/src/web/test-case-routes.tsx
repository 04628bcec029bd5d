// One test case's page, and its quarantine form.
import type { Context } from 'hono';
import type { Principal } from '../accounts/principal.js';
import { VerdictApiError } from '../errors/errors.js';
import { isUuid } from '../identity/uuid.js';
import { setQuarantine } from '../quarantine/set-quarantine.js';
import { unquarantine } from '../quarantine/unquarantine.js';
import { outcomeHistory } from '../test-case/outcome-history.js';
import { testCaseHistory } from '../test-case/test-case-history.js';
import { testCasePage } from '../test-case/test-case-page.js';
import { parseQuarantineWrite } from '../validation/parse-body.js';
import { formOf, text } from './forms.js';
import { frame, html, notFound, projectOf, projectPath } from './respond.js';
import type { SignedInPages } from './signed-in.js';
import { TestCasePageView } from './test-case-page.js';
import type { DashboardDeps, WebEnv } from './web-env.js';

/** Adds GET /projects/:project/test-cases/:testCaseId and its POST …/quarantine. */
export function testCaseRoutes(pages: SignedInPages, deps: DashboardDeps): void {
  const { db, clock } = deps;
  const testCaseView = async (c: Context<WebEnv>, p: Principal, id: string, extra: { notice?: string } = {}, status: 200 | 400 = 200) => {
    const [page, history, outcomes] = await Promise.all([testCasePage(db, p.project, id, clock()), testCaseHistory(db, p.project, id), outcomeHistory(db, p.project, id)]);
    return html(c, <TestCasePageView frame={frame(c, `${page.suite}.${page.name}`, p.project.handle)} page={page} history={history} outcomes={outcomes} {...extra} />, status);
  };

  pages.get('/projects/:project/test-cases/:testCaseId', async (c) => {
    const p = await projectOf(db, c);
    if (p instanceof Response) return p;
    const id = c.req.param('testCaseId');
    if (!isUuid(id)) return notFound(c, 'No such test case.');
    try {
      return await testCaseView(c, p, id);
    } catch (e) {
      if (e instanceof VerdictApiError && e.code === 'NOT_FOUND') return notFound(c, 'No such test case in this project.');
      throw e;
    }
  });

  pages.post('/projects/:project/test-cases/:testCaseId/quarantine', async (c) => {
    const p = await projectOf(db, c, 'admin');
    if (p instanceof Response) return p;
    const id = c.req.param('testCaseId');
    if (!isUuid(id)) return notFound(c, 'No such test case.');
    const f = await formOf(c);
    const now = clock();
    try {
      const page = await testCasePage(db, p.project, id, now);
      if (text(f, 'action') === 'unquarantine') {
        await unquarantine(deps, p.project, id, text(f, 'reason') || undefined, p.actor, now);
      } else {
        const expires = text(f, 'expiresAt');
        const body = parseQuarantineWrite({
          state: text(f, 'state'),
          owner: text(f, 'owner'),
          reason: text(f, 'reason'),
          issueUrl: text(f, 'issueUrl') || null,
          expiresAt: expires ? `${expires.length === 16 ? `${expires}:00` : expires}Z` : null,
        });
        const identity = { module: page.module, suite: page.suite, name: page.name };
        await setQuarantine(deps, p.project, { ...identity, testCaseId: id, state: body.state, owner: body.owner, reason: body.reason, issueUrl: body.issueUrl, expiresAt: body.expiresAt ? new Date(body.expiresAt) : null }, p.actor, now);
      }
    } catch (e) {
      if (e instanceof VerdictApiError && e.code === 'BAD_REQUEST') return testCaseView(c, p, id, { notice: `Not changed: ${e.message}` }, 400);
      if (e instanceof VerdictApiError && e.code === 'NOT_FOUND') return notFound(c, e.message);
      throw e;
    }
    return c.redirect(`${projectPath(p)}/test-cases/${id}`, 303);
  });
}
