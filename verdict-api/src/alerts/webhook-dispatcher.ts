// Delivers alerts to the project's webhooks: signed JSON POSTs, retried with exponential backoff
// up to a bounded number of attempts, every attempt in the delivery log. Deliveries run in the
// background; `drain()` waits for all of them (tests, shutdown).
//
// Bounded, so that one upload cannot make the server flood a receiver (300 alerts once meant 300
// simultaneous requests, 1,500 with retries): each webhook's events wait in a queue of their own
// (at most `maxQueued`; beyond it the oldest are dropped, loudly), and go out in batches of up to
// `batchSize` events per request, gathered for `batchWindowMs`; a webhook has one delivery at a
// time, and at most `concurrency` requests are in flight over all webhooks (a delivery waiting
// for its next attempt holds none). The places are shared fairly among accounts: one account holds
// at most `perAccountConcurrency`, and waiting accounts take the free places in turn, so one
// tenant's slow receivers never delay another's alerts. The target is checked again at each attempt, on the address
// the connection uses, and redirects are not followed (webhook-targets.ts).
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { type Clock, systemClock } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';
import type { Database } from '../storage/database.js';
import type { AlertEvent, Notifier } from './alert-event.js';
import { logAttempt } from './delivery-log.js';
import { SIGNATURE_HEADER, signBody } from './sign.js';
import { PUBLIC_ONLY, type TargetPolicy } from '../config/webhook-allow-list.js';
import { addressRefusal, guardedLookup, hostOf } from './webhook-targets.js';
import { activeWebhooks, type Webhook } from './webhooks-store.js';
import { getProject } from '../accounts/projects.js';
import { FairSlots } from '../limits/fair-slots.js';

/** One request's outcome: the receiver's status (0 when none came) and what went wrong. */
export interface SendOutcome {
  statusCode: number;
  error: string;
}

/** Sends one delivery's request. */
export type Send = (url: string, headers: Record<string, string>, body: string) => Promise<SendOutcome>;

/** How deliveries are made; every timing is injectable so tests run fast. */
export interface DispatcherOptions {
  db: Database;
  log: Logger;
  /** Attempts per delivery, the first included. Default 5. */
  maxAttempts?: number;
  /** Wait before attempt n+1 after attempt n failed. Default 1 s × 2^(n-1) (1, 2, 4, 8 s). */
  backoffMs?: (attempt: number) => number;
  /** How to wait. Default setTimeout. */
  sleep?: (ms: number) => Promise<void>;
  /** One attempt's time limit. Default 10 s. */
  timeoutMs?: number;
  clock?: Clock;
  /** Where webhooks may go besides public addresses (STRESS_GATE_WEBHOOK_ALLOW). Default: public only. */
  targets?: TargetPolicy;
  /** Requests in flight at once over all webhooks. Default 16. */
  concurrency?: number;
  /** Requests in flight at once for one account's webhooks. Default 2. */
  perAccountConcurrency?: number;
  /** Events per request at most. Default 100. */
  batchSize?: number;
  /** How long an event waits for others to share its request. Default 250 ms. */
  batchWindowMs?: number;
  /** Events waiting per webhook at most; beyond it the oldest are dropped. Default 10,000. */
  maxQueued?: number;
  /** How a request is sent. Default: node:http(s), the target checked at connect. */
  send?: Send;
  /** Unix seconds, for signatures (a receiver compares them with its own clock). Default: the wall clock. */
  nowSeconds?: () => number;
}

/** A notifier that delivers to webhooks, and can be waited for. */
export interface WebhookDispatcher extends Notifier {
  /** Resolves when every delivery started so far has finished (delivered or given up). */
  drain(): Promise<void>;
}

/** The default backoff: 1 s, 2 s, 4 s, … */
export const exponentialBackoff = (baseMs: number) => (attempt: number) => baseMs * 2 ** (attempt - 1);

/** One webhook's waiting events and whether its worker runs. */
interface HookQueue {
  hook: Webhook;
  /** Whose places its deliveries take: the project's account. */
  tenant: string;
  events: AlertEvent[];
  worker: Promise<void> | null;
}

/** Creates the dispatcher. */
export function createWebhookDispatcher(options: DispatcherOptions): WebhookDispatcher {
  const maxAttempts = options.maxAttempts ?? 5;
  const backoffMs = options.backoffMs ?? exponentialBackoff(1000);
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const timeoutMs = options.timeoutMs ?? 10_000;
  const targets = options.targets ?? PUBLIC_ONLY;
  const send = options.send ?? httpSend(targets, timeoutMs);
  const clock = options.clock ?? systemClock;
  const nowSeconds = options.nowSeconds ?? (() => Math.floor(Date.now() / 1000));
  const batchSize = options.batchSize ?? 100;
  const batchWindowMs = options.batchWindowMs ?? 250;
  const maxQueued = options.maxQueued ?? 10_000;
  const log = options.log.child({ module: 'webhook-dispatcher' });
  const pending = new Set<Promise<void>>();
  const queues = new Map<string, HookQueue>();
  const slots = new FairSlots(options.concurrency ?? 16, options.perAccountConcurrency ?? 2);
  let droppedLogged = 0;

  async function deliver(hook: Webhook, tenant: string, events: AlertEvent[]): Promise<void> {
    const deliveryId = randomUUID();
    const first = events[0]!;
    const body = JSON.stringify({ deliveryId, projectId: first.projectId, project: first.project, events });
    const types = [...new Set(events.map((e) => e.type))];
    const what = events.length === 1 ? first.type : `${types.join(',')} ×${events.length}`;
    if (hook.secret === null) {
      // Nothing is sent unsigned: the delivery log and the server's log say why.
      const error = `not sent: the webhook's secret is ${hook.unreadable ?? 'unreadable'}`;
      await logAttempt(options.db, first.projectId, { deliveryId, webhookId: hook.webhookId, event: what, testCaseId: first.testCase.testCaseId, attempt: 1, outcome: 'failed', statusCode: 0, error, willRetry: false }, clock());
      log.error({ webhookId: hook.webhookId, deliveryId, error }, 'webhook delivery failed');
      return;
    }
    const secret = hook.secret;
    for (let n = 1; n <= maxAttempts; n++) {
      const headers = {
        'Content-Type': 'application/json',
        'User-Agent': 'stress-gate-webhooks',
        'X-Stress-Gate-Event': types.join(','),
        'X-Stress-Gate-Events': String(events.length),
        'X-Stress-Gate-Delivery': deliveryId,
        [SIGNATURE_HEADER]: signBody(secret, body, nowSeconds()),
      };
      await slots.acquire(tenant);
      let outcome: SendOutcome;
      try {
        outcome = await send(hook.url, headers, body);
      } finally {
        slots.release(tenant);
      }
      const delivered = outcome.statusCode >= 200 && outcome.statusCode < 300;
      // A refused target is not tried again: it will be refused again.
      const willRetry = !delivered && n < maxAttempts && !outcome.error.startsWith('refused:');
      await logAttempt(
        options.db,
        first.projectId,
        { deliveryId, webhookId: hook.webhookId, event: what, testCaseId: first.testCase.testCaseId, attempt: n, outcome: delivered ? 'delivered' : 'failed', statusCode: outcome.statusCode, error: outcome.error, willRetry },
        clock(),
      );
      if (delivered) return;
      log.warn({ webhookId: hook.webhookId, deliveryId, attempt: n, error: outcome.error, willRetry }, 'webhook delivery failed');
      if (!willRetry) return;
      await sleep(backoffMs(n));
    }
  }

  /** Sends a webhook's queue in batches, one delivery at a time, until it is empty. */
  async function work(q: HookQueue): Promise<void> {
    while (q.events.length > 0) {
      if (q.events.length < batchSize) await new Promise((r) => setTimeout(r, batchWindowMs));
      const batch = q.events.splice(0, batchSize);
      await deliver(q.hook, q.tenant, batch).catch((error: unknown) => log.error({ err: error, webhookId: q.hook.webhookId }, 'webhook delivery aborted'));
    }
  }

  function enqueue(hook: Webhook, tenant: string, event: AlertEvent): void {
    let q = queues.get(hook.webhookId);
    if (!q) queues.set(hook.webhookId, (q = { hook, tenant, events: [], worker: null }));
    q.events.push(event);
    if (q.events.length > maxQueued) {
      q.events.shift();
      // At most one line a minute: a receiver that cannot keep up is worth knowing, not flooding.
      if (Date.now() - droppedLogged > 60_000) {
        droppedLogged = Date.now();
        log.warn({ webhookId: hook.webhookId, queued: maxQueued }, 'webhook queue full: the oldest alerts are dropped');
      }
    }
    if (!q.worker) startWorker(q);
  }

  function startWorker(q: HookQueue): void {
    const worker = work(q).finally(() => {
      pending.delete(worker);
      q.worker = null;
      // Events that came as the last batch went out.
      if (q.events.length > 0) startWorker(q);
      else queues.delete(q.hook.webhookId);
    });
    q.worker = worker;
    pending.add(worker);
  }

  // One read of a project's webhooks serves every event notified while it is in flight: an
  // evaluation that marks 5,000 tests at once asks once, not 5,000 times (which held embedded
  // ClickHouse for 15 s and every upload behind it). A webhook registered during that read serves
  // the next events.
  const reading = new Map<string, Promise<{ hooks: Webhook[]; tenant: string }>>();
  function hooksOf(projectId: string): Promise<{ hooks: Webhook[]; tenant: string }> {
    let read = reading.get(projectId);
    if (!read) {
      const tenant = async () => (await getProject(options.db, projectId))?.accountId ?? `project ${projectId}`;
      read = Promise.all([activeWebhooks(options.db, projectId), tenant()])
        .then(([hooks, account]) => ({ hooks, tenant: account }))
        .finally(() => reading.delete(projectId));
      reading.set(projectId, read);
    }
    return read;
  }

  return {
    notify(event) {
      const p = hooksOf(event.projectId)
        .then(({ hooks, tenant }) => {
          for (const h of hooks) enqueue(h, tenant, event);
        })
        .catch((error: unknown) => log.error({ err: error, event: event.type }, 'webhook delivery aborted'))
        .finally(() => pending.delete(p));
      pending.add(p);
    },
    async drain() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}

/** Largest answer body read (and dropped) from a receiver. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** Sends over node:http(s): the target's address checked where the connection is made, no redirect followed. */
export function httpSend(targets: TargetPolicy, timeoutMs: number): Send {
  const lookup = guardedLookup(targets);
  return (url, headers, body) =>
    new Promise((resolve) => {
      const target = new URL(url);
      const host = hostOf(url);
      // A literal address is connected to without a lookup: checked here.
      const refusal = isIP(host) !== 0 ? addressRefusal(host, targets) : null;
      if (refusal) return resolve({ statusCode: 0, error: `refused: ${refusal}` });
      const client = target.protocol === 'https:' ? https : http;
      let settled = false;
      const done = (outcome: SendOutcome) => {
        if (settled) return;
        settled = true;
        resolve(outcome);
      };
      const req = client.request(target, { method: 'POST', headers: { ...headers, 'Content-Length': Buffer.byteLength(body) }, lookup, agent: false, signal: AbortSignal.timeout(timeoutMs) }, (res) => {
        const status = res.statusCode ?? 0;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) res.destroy();
        });
        const outcome = { statusCode: status, error: status >= 200 && status < 300 ? '' : status >= 300 && status < 400 ? `HTTP ${status} (redirects are not followed)` : `HTTP ${status}` };
        res.on('end', () => done(outcome));
        res.on('close', () => done(outcome));
        res.on('error', () => done(outcome));
      });
      req.on('error', (e: NodeJS.ErrnoException) => {
        const timedOut = e.name === 'TimeoutError' || e.name === 'AbortError';
        done({ statusCode: 0, error: e.code === 'EWEBHOOKTARGET' ? e.message : timedOut ? `no answer within ${timeoutMs} ms` : `unreachable (${e.code ?? e.message})` });
      });
      req.end(body);
    });
}
