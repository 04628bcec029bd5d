// Per-project webhooks: where alerts are delivered and the secret that signs them.
import { randomUUID } from 'node:crypto';
import { BadRequestError, VerdictApiError } from '../errors/errors.js';
import type { TargetPolicy } from '../config/webhook-allow-list.js';
import { urlRefusal } from './webhook-targets.js';
import { formatDateTime, sql, uuid } from '../sql/bind.js';
import { type Database } from '../storage/database.js';
import { nextVersion } from '../storage/version.js';

/** A webhook as the API shows it: never with its secret. */
export interface WebhookInfo {
  webhookId: string;
  url: string;
  createdAt: string;
}

/** A webhook with its secret, for the dispatcher. */
export interface Webhook extends WebhookInfo {
  secret: string;
}

/** The webhook to register, once its URL's host is one webhooks may reach (webhook-targets.ts); 400 on `url` otherwise. */
export async function checkedWebhook<T extends { url: string }>(input: T, targets: TargetPolicy): Promise<T> {
  const refusal = await urlRefusal(input.url, targets);
  if (refusal) throw new BadRequestError(`url: ${refusal}`, 'url');
  return input;
}

/** Webhooks a project may have: each alert goes to every one of them. */
export const MAX_WEBHOOKS_PER_PROJECT = 10;

/** Registers a webhook for a project (409 past MAX_WEBHOOKS_PER_PROJECT). */
export async function createWebhook(db: Database, projectId: string, input: { url: string; secret: string }, now: Date): Promise<WebhookInfo> {
  if ((await activeWebhooks(db, projectId)).length >= MAX_WEBHOOKS_PER_PROJECT) {
    throw new VerdictApiError('CONFLICT', `webhooks: this project has ${MAX_WEBHOOKS_PER_PROJECT} webhooks, the most a project may have; delete one first`, 'webhooks');
  }
  const hook: Webhook = { webhookId: randomUUID(), url: input.url, secret: input.secret, createdAt: formatDateTime(now) };
  await write(db, projectId, hook, true);
  return { webhookId: hook.webhookId, url: hook.url, createdAt: hook.createdAt };
}

/** The project's active webhooks, secrets included. */
export async function activeWebhooks(db: Database, projectId: string): Promise<Webhook[]> {
  const rows = await db.engine.query<{ id: string; url: string; secret: string; created: string }>(sql`
    SELECT toString(webhook_id) AS id, url, secret, toString(created_at) AS created FROM ${db.t('webhooks')} FINAL
    WHERE project_id = ${uuid(projectId)} AND active = 1 ORDER BY created, id`);
  return rows.map((r) => ({ webhookId: r.id, url: r.url, secret: r.secret, createdAt: r.created }));
}

/** The project's active webhooks without secrets. */
export async function listWebhooks(db: Database, projectId: string): Promise<WebhookInfo[]> {
  return (await activeWebhooks(db, projectId)).map(({ webhookId, url, createdAt }) => ({ webhookId, url, createdAt }));
}

/** Deactivates a webhook; NOT_FOUND when the project has no such active webhook. */
export async function deleteWebhook(db: Database, projectId: string, webhookId: string): Promise<void> {
  const hook = (await activeWebhooks(db, projectId)).find((h) => h.webhookId === webhookId);
  if (!hook) throw new VerdictApiError('NOT_FOUND', `no webhook ${webhookId} in this project`, 'webhookId');
  await write(db, projectId, hook, false);
}

async function write(db: Database, projectId: string, hook: Webhook, active: boolean): Promise<void> {
  await db.engine.insert(db.t('webhooks'), [
    { project_id: projectId, webhook_id: hook.webhookId, url: hook.url, secret: hook.secret, active: active ? 1 : 0, created_at: hook.createdAt, version: nextVersion() },
  ]);
}
