// Per-project webhooks: where alerts are delivered and the secret that signs them, stored sealed
// (storage/secret-box.ts): the database never holds it in the clear.
import { randomUUID } from 'node:crypto';
import { BadRequestError, VerdictApiError } from '../errors/errors.js';
import type { TargetPolicy } from '../config/webhook-allow-list.js';
import { urlRefusal } from './webhook-targets.js';
import { formatDateTime, sql, uuid } from '../sql/bind.js';
import { type Database } from '../storage/database.js';
import { SecretUnreadableError } from '../storage/secret-box.js';
import { nextVersion } from '../storage/version.js';

/** A webhook as the API shows it: never with its secret. */
export interface WebhookInfo {
  webhookId: string;
  url: string;
  createdAt: string;
}

/** A webhook with its secret, for the dispatcher: null, with why, when this server's key cannot open it. */
export interface Webhook extends WebhookInfo {
  secret: string | null;
  unreadable?: string;
}

/** A webhook as stored: its secret sealed (storage/secret-box.ts). */
interface StoredWebhook extends WebhookInfo {
  sealed: string;
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
  if ((await storedWebhooks(db, projectId)).length >= MAX_WEBHOOKS_PER_PROJECT) {
    throw new VerdictApiError('CONFLICT', `webhooks: this project has ${MAX_WEBHOOKS_PER_PROJECT} webhooks, the most a project may have; delete one first`, 'webhooks');
  }
  const hook: StoredWebhook = { webhookId: randomUUID(), url: input.url, sealed: db.secrets.seal(input.secret), createdAt: formatDateTime(now) };
  await write(db, projectId, hook, true);
  return { webhookId: hook.webhookId, url: hook.url, createdAt: hook.createdAt };
}

/** The project's active webhooks, secrets opened. */
export async function activeWebhooks(db: Database, projectId: string): Promise<Webhook[]> {
  return (await storedWebhooks(db, projectId)).map(({ sealed, ...info }) => {
    try {
      return { ...info, secret: db.secrets.open(sealed) };
    } catch (error) {
      if (!(error instanceof SecretUnreadableError)) throw error;
      return { ...info, secret: null, unreadable: error.message };
    }
  });
}

async function storedWebhooks(db: Database, projectId: string): Promise<StoredWebhook[]> {
  const rows = await db.engine.query<{ id: string; url: string; secret: string; created: string }>(sql`
    SELECT toString(webhook_id) AS id, url, secret, toString(created_at) AS created FROM ${db.t('webhooks')} FINAL
    WHERE project_id = ${uuid(projectId)} AND active = 1 ORDER BY created, id`);
  return rows.map((r) => ({ webhookId: r.id, url: r.url, sealed: r.secret, createdAt: r.created }));
}

/** The project's active webhooks without secrets. */
export async function listWebhooks(db: Database, projectId: string): Promise<WebhookInfo[]> {
  return (await storedWebhooks(db, projectId)).map(({ webhookId, url, createdAt }) => ({ webhookId, url, createdAt }));
}

/** Deactivates a webhook; NOT_FOUND when the project has no such active webhook. */
export async function deleteWebhook(db: Database, projectId: string, webhookId: string): Promise<void> {
  const hook = (await storedWebhooks(db, projectId)).find((h) => h.webhookId === webhookId);
  if (!hook) throw new VerdictApiError('NOT_FOUND', `no webhook ${webhookId} in this project`, 'webhookId');
  await write(db, projectId, hook, false);
}

async function write(db: Database, projectId: string, hook: StoredWebhook, active: boolean): Promise<void> {
  await db.engine.insert(db.t('webhooks'), [
    { project_id: projectId, webhook_id: hook.webhookId, url: hook.url, secret: hook.sealed, active: active ? 1 : 0, created_at: hook.createdAt, version: nextVersion() },
  ]);
}

/**
 * Seals the secrets stored in the clear (webhooks registered before secrets were sealed): each is
 * written again sealed, and the table is merged so that the clear versions leave the disk. Returns
 * how many were sealed. Run at start-up; a secret it cannot reach now is sealed at the next start.
 */
export async function sealPlainWebhookSecrets(db: Database): Promise<number> {
  const rows = await db.engine.query<{ project: string; id: string; url: string; secret: string; active: number; created: string }>(sql`
    SELECT toString(project_id) AS project, toString(webhook_id) AS id, url, secret, active, toString(created_at) AS created
    FROM ${db.t('webhooks')} FINAL WHERE NOT startsWith(secret, 'sgs1:')`);
  if (rows.length === 0) return 0;
  for (const r of rows) await write(db, r.project, { webhookId: r.id, url: r.url, sealed: db.secrets.seal(r.secret), createdAt: r.created }, Number(r.active) === 1);
  await db.engine.command(sql`OPTIMIZE TABLE ${db.t('webhooks')} FINAL`);
  return rows.length;
}
