// Webhook routes: register, list, delete, and the delivery log.
import type { Hono } from 'hono';
import type { Clock } from '../clock/clock.js';
import { deliveryLog } from '../alerts/delivery-log.js';
import { createWebhook, deleteWebhook, listWebhooks } from '../alerts/webhooks-store.js';
import type { Database } from '../storage/database.js';
import { parseWebhookCreate } from '../validation/parse-body.js';
import { pageParams } from '../quarantine/list-quarantine.js';
import { authorizeAdmin } from './authorize.js';
import type { AppEnv } from './app-env.js';
import type { BodyCaps } from '../limits/body-caps.js';
import { jsonBody, uuidParam } from './json-body.js';
import type { TargetPolicy } from '../config/webhook-allow-list.js';
import { checkedWebhook } from '../alerts/webhooks-store.js';

/** Adds POST/GET …/webhooks, DELETE …/webhooks/:webhookId and GET …/webhooks/deliveries. */
export function webhookRoutes(api: Hono<AppEnv>, db: Database, clock: Clock, caps: BodyCaps, targets: TargetPolicy): void {
  api.post('/:project/webhooks', async (c) => {
    authorizeAdmin(c.get('principal'), 'webhooks.write');
    const body = await checkedWebhook(parseWebhookCreate(await jsonBody(c, caps.small)), targets);
    return c.json(await createWebhook(db, c.get('principal').project.projectId, body, clock()), 201);
  });
  api.get('/:project/webhooks', async (c) => {
    authorizeAdmin(c.get('principal'), 'webhooks.read');
    return c.json({ webhooks: await listWebhooks(db, c.get('principal').project.projectId) });
  });
  api.get('/:project/webhooks/deliveries', async (c) => {
    authorizeAdmin(c.get('principal'), 'webhooks.read');
    const { limit } = pageParams(c.req.query('limit'), undefined);
    return c.json({ deliveries: await deliveryLog(db, c.get('principal').project.projectId, limit) });
  });
  api.delete('/:project/webhooks/:webhookId', async (c) => {
    authorizeAdmin(c.get('principal'), 'webhooks.write');
    await deleteWebhook(db, c.get('principal').project.projectId, uuidParam(c.req.param('webhookId'), 'webhookId'));
    return c.body(null, 204);
  });
}
