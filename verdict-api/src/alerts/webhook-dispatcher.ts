// Delivers alerts to the project's webhooks: a signed JSON POST per webhook, retried with
// exponential backoff up to a bounded number of attempts, every attempt in the delivery log.
// Deliveries run in the background; `drain()` waits for all of them (tests, shutdown).
import { randomUUID } from 'node:crypto';
import { type Clock, systemClock } from '../clock/clock.js';
import type { Logger } from '../log/logger.js';
import type { Database } from '../storage/database.js';
import type { AlertEvent, Notifier } from './alert-event.js';
import { logAttempt } from './delivery-log.js';
import { SIGNATURE_HEADER, signBody } from './sign.js';
import { activeWebhooks, type Webhook } from './webhooks-store.js';

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
  fetch?: typeof globalThis.fetch;
  clock?: Clock;
}

/** A notifier that delivers to webhooks, and can be waited for. */
export interface WebhookDispatcher extends Notifier {
  /** Resolves when every delivery started so far has finished (delivered or given up). */
  drain(): Promise<void>;
}

/** The default backoff: 1 s, 2 s, 4 s, … */
export const exponentialBackoff = (baseMs: number) => (attempt: number) => baseMs * 2 ** (attempt - 1);

/** Creates the dispatcher. */
export function createWebhookDispatcher(options: DispatcherOptions): WebhookDispatcher {
  const maxAttempts = options.maxAttempts ?? 5;
  const backoffMs = options.backoffMs ?? exponentialBackoff(1000);
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const timeoutMs = options.timeoutMs ?? 10_000;
  const doFetch = options.fetch ?? globalThis.fetch;
  const clock = options.clock ?? systemClock;
  const log = options.log.child({ module: 'webhook-dispatcher' });
  const pending = new Set<Promise<void>>();

  async function attempt(hook: Webhook, body: string, deliveryId: string, event: AlertEvent): Promise<{ statusCode: number; error: string }> {
    try {
      const res = await doFetch(hook.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'stress-gate-webhooks',
          'X-Stress-Gate-Event': event.type,
          'X-Stress-Gate-Delivery': deliveryId,
          [SIGNATURE_HEADER]: signBody(hook.secret, body),
        },
        body,
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'manual',
      });
      await res.arrayBuffer().catch(() => undefined);
      return { statusCode: res.status, error: res.ok ? '' : `HTTP ${res.status}` };
    } catch (e) {
      const err = e as Error & { cause?: { code?: string } };
      const timedOut = err.name === 'TimeoutError' || err.name === 'AbortError';
      return { statusCode: 0, error: timedOut ? `no answer within ${timeoutMs} ms` : `unreachable (${err.cause?.code ?? err.message})` };
    }
  }

  async function deliver(hook: Webhook, event: AlertEvent): Promise<void> {
    const deliveryId = randomUUID();
    const body = JSON.stringify({ deliveryId, ...event });
    for (let n = 1; n <= maxAttempts; n++) {
      const { statusCode, error } = await attempt(hook, body, deliveryId, event);
      const delivered = statusCode >= 200 && statusCode < 300;
      const willRetry = !delivered && n < maxAttempts;
      await logAttempt(
        options.db,
        event.projectId,
        { deliveryId, webhookId: hook.webhookId, event: event.type, testCaseId: event.testCase.testCaseId, attempt: n, outcome: delivered ? 'delivered' : 'failed', statusCode, error, willRetry },
        clock(),
      );
      if (delivered) return;
      log.warn({ webhookId: hook.webhookId, deliveryId, attempt: n, error, willRetry }, 'webhook delivery failed');
      if (willRetry) await sleep(backoffMs(n));
    }
  }

  // One read of a project's webhooks serves every event notified while it is in flight: an
  // evaluation that marks 5,000 tests at once asks once, not 5,000 times (which held embedded
  // ClickHouse for 15 s and every upload behind it). A webhook registered during that read serves
  // the next events.
  const reading = new Map<string, Promise<Webhook[]>>();
  function hooksOf(projectId: string): Promise<Webhook[]> {
    let read = reading.get(projectId);
    if (!read) {
      read = activeWebhooks(options.db, projectId).finally(() => reading.delete(projectId));
      reading.set(projectId, read);
    }
    return read;
  }

  async function deliverAll(event: AlertEvent): Promise<void> {
    const hooks = await hooksOf(event.projectId);
    await Promise.all(hooks.map((h) => deliver(h, event)));
  }

  return {
    notify(event) {
      const p = deliverAll(event)
        .catch((error: unknown) => log.error({ err: error, event: event.type }, 'webhook delivery aborted'))
        .finally(() => pending.delete(p));
      pending.add(p);
    },
    async drain() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}
