// A project's viewer credentials: the list (never a secret), issuing one (its secret shown on
// that answer only), revoking one. An admin's pages only.
import type { Context } from 'hono';
import { accessAudit } from '../accounts/access-audit.js';
import type { Principal } from '../accounts/principal.js';
import { createViewer, listViewers, revokeViewer } from '../accounts/viewer-credentials.js';
import { VerdictApiError } from '../errors/errors.js';
import { isUuid } from '../identity/uuid.js';
import { formOf, text } from './forms.js';
import { frame, html, notFound, projectOf, projectPath } from './respond.js';
import type { SignedInPages } from './signed-in.js';
import { ViewersPage } from './viewers-page.js';
import type { DashboardDeps, WebEnv } from './web-env.js';

/** Adds GET/POST /projects/:project/viewers and POST …/viewers/:viewerId/revoke. */
export function viewersRoutes(pages: SignedInPages, { db }: DashboardDeps): void {
  const viewersView = async (c: Context<WebEnv>, p: Principal, extra: Pick<Parameters<typeof ViewersPage>[0], 'created' | 'error'> = {}, status: 200 | 400 = 200) => {
    const [viewers, audit] = await Promise.all([listViewers(db, p.project.projectId), accessAudit(db, p.project.projectId, 'viewer')]);
    return html(c, <ViewersPage frame={frame(c, 'Viewers', p.project.handle)} viewers={viewers} audit={audit} {...extra} />, status);
  };

  pages.get('/projects/:project/viewers', async (c) => {
    const p = await projectOf(db, c, 'admin');
    if (p instanceof Response) return p;
    return viewersView(c, p);
  });

  pages.post('/projects/:project/viewers', async (c) => {
    const p = await projectOf(db, c, 'admin');
    if (p instanceof Response) return p;
    const name = text(await formOf(c), 'name').slice(0, 256) || 'viewer';
    try {
      // Shown once, on this response; never again.
      return await viewersView(c, p, { created: await createViewer(db, p.project, name, p.actor) });
    } catch (e) {
      if (e instanceof VerdictApiError && e.code === 'CONFLICT') return viewersView(c, p, { error: `Not created: ${e.message}` }, 400);
      throw e;
    }
  });

  pages.post('/projects/:project/viewers/:viewerId/revoke', async (c) => {
    const p = await projectOf(db, c, 'admin');
    if (p instanceof Response) return p;
    const id = c.req.param('viewerId');
    if (!isUuid(id)) return notFound(c, 'No such viewer credential.');
    try {
      await revokeViewer(db, p.project.projectId, id, p.actor);
    } catch (e) {
      if (e instanceof VerdictApiError && e.code === 'NOT_FOUND') return notFound(c, 'No such viewer credential in this project.');
      throw e;
    }
    return c.redirect(`${projectPath(p)}/viewers`, 303);
  });
}
