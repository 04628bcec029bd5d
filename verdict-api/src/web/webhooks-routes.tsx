// A project's webhooks: the list with the delivery log, adding one, deleting one.
import type { Context } from 'hono';
import type { Principal } from '../accounts/principal.js';
import { deliveryLog } from '../alerts/delivery-log.js';
import { checkedWebhook, createWebhook, deleteWebhook, listWebhooks } from '../alerts/webhooks-store.js';
import { VerdictApiError } from '../errors/errors.js';
import { isUuid } from '../identity/uuid.js';
import { parseWebhookCreate } from '../validation/parse-body.js';
import { formOf, text } from './forms.js';
import { frame, html, notFound, projectOf, projectPath } from './respond.js';
import type { SignedInPages } from './signed-in.js';
import type { DashboardDeps, WebEnv } from './web-env.js';
import { WebhooksPage } from './webhooks-page.js';

/** Adds GET/POST /projects/:project/webhooks and POST …/webhooks/:webhookId/delete. */
export function webhooksRoutes(pages: SignedInPages, { db, clock, webhookTargets }: DashboardDeps): void {
  const webhooksView = async (c: Context<WebEnv>, p: Principal, error?: string) => {
    const [webhooks, deliveries] = await Promise.all([listWebhooks(db, p.project.projectId), deliveryLog(db, p.project.projectId, 100)]);
    return html(c, <WebhooksPage frame={frame(c, 'Webhooks', p.project.handle)} webhooks={webhooks} deliveries={deliveries} {...(error ? { error } : {})} />, error ? 400 : 200);
  };

  pages.get('/projects/:project/webhooks', async (c) => {
    const p = await projectOf(db, c, 'admin');
    if (p instanceof Response) return p;
    return webhooksView(c, p);
  });

  pages.post('/projects/:project/webhooks', async (c) => {
    const p = await projectOf(db, c, 'admin');
    if (p instanceof Response) return p;
    const f = await formOf(c);
    try {
      const input = parseWebhookCreate({ url: text(f, 'url'), secret: typeof f['secret'] === 'string' ? f['secret'] : '' });
      await createWebhook(db, p.project.projectId, await checkedWebhook(input, webhookTargets), clock());
    } catch (e) {
      if (e instanceof VerdictApiError && (e.code === 'BAD_REQUEST' || e.code === 'CONFLICT')) return webhooksView(c, p, `Not added: ${e.message}`);
      throw e;
    }
    return c.redirect(`${projectPath(p)}/webhooks`, 303);
  });

  pages.post('/projects/:project/webhooks/:webhookId/delete', async (c) => {
    const p = await projectOf(db, c, 'admin');
    if (p instanceof Response) return p;
    const id = c.req.param('webhookId');
    if (!isUuid(id)) return notFound(c, 'No such webhook.');
    await deleteWebhook(db, p.project.projectId, id);
    return c.redirect(`${projectPath(p)}/webhooks`, 303);
  });
}
