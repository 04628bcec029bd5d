// Serves the app on a real port.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer, type ServerType } from '@hono/node-server';
import { createWebhookDispatcher, type DispatcherOptions } from './alerts/webhook-dispatcher.js';
import { sealPlainWebhookSecrets } from './alerts/webhooks-store.js';
import { parseAllowList } from './config/webhook-allow-list.js';
import { systemClock } from './clock/clock.js';
import { createApp } from './http/app.js';
import type { AccountRate } from './limits/account-rate.js';
import type { StorageQuota } from './limits/storage-quota.js';
import { batchedVerdictLog } from './telemetry/verdict-log.js';
import { queuedAfterIngest } from './flakiness/on-run-ingested.js';
import { type ConnectionLimits, connectionServerOptions, defaultConnectionLimits, limitConnections, listenBacklog } from './limits/connection-limits.js';
import { KNOWN_IDS_LIMIT } from './storage/read-cache.js';
import { startSweeper } from './sweep/sweeper.js';
import type { Logger } from './log/logger.js';
import type { Database } from './storage/database.js';
import { migrationGate } from './storage/open.js';

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Serves the API; alerts go to the project's webhooks and the sweep runs every `sweepIntervalMs` (default 5 min). */
/** How the server runs besides its database: every option has the service's default. */
export interface ServerOptions {
  sweepIntervalMs?: number;
  operatorToken?: string;
  publicUrl?: string;
  verdictConcurrency?: number;
  /** STRESS_GATE_WEBHOOK_ALLOW: ranges webhooks may reach besides public addresses (CIDRs, comma-separated). */
  webhookAllow?: string;
  /** Each account's API request rate (limits/account-rate.ts ACCOUNT_RATE by default); null: no limit (benchmarks). */
  accountRate?: AccountRate | null;
  /** Request body bytes each account may hold in flight (default 256 MiB). */
  accountBodyBytes?: number;
  /** What each account may store (limits/storage-quota.ts STORAGE_QUOTA by default; NO_STORAGE_QUOTA: none, the benchmarks). */
  storageQuota?: StorageQuota;
  /** Connection caps and timeouts (limits/connection-limits.ts defaultConnectionLimits for what is unset). */
  connections?: Partial<ConnectionLimits>;
  /** Tuning of webhook delivery (tests shorten the backoff). */
  webhooks?: Omit<Partial<DispatcherOptions>, 'db' | 'log' | 'targets'>;
}

export async function startServer(db: Database, log: Logger, host: string, port: number, options: ServerOptions = {}): Promise<RunningServer> {
  const ready = migrationGate(db, log);
  const started = await ready().then(
    () => true,
    (error: unknown) => {
      log.warn({ err: error }, 'ClickHouse not ready at start-up; retrying on each request');
      return false;
    },
  );
  if (started) {
    await sealPlainWebhookSecrets(db).then(
      (sealed) => sealed > 0 && log.info({ sealed }, 'webhook secrets stored in the clear are now sealed'),
      (error: unknown) => log.warn({ err: error }, 'webhook secrets stored in the clear not sealed yet; tried again at the next start'),
    );
  }
  const webhookTargets = parseAllowList(options.webhookAllow);
  const notifier = createWebhookDispatcher({ ...options.webhooks, db, log, targets: webhookTargets });
  const sweeper = startSweeper({ db, log, notifier }, options.sweepIntervalMs ?? 300_000, systemClock);
  const verdictLog = batchedVerdictLog(db, log);
  const afterIngest = queuedAfterIngest();
  let evictionLogged = 0;
  db.cache.known.onEvict = (dropped, total) => {
    // At most one line a minute: a cache too small for the fleet is worth knowing, not flooding.
    if (Date.now() - evictionLogged < 60_000) return;
    evictionLogged = Date.now();
    log.warn({ dropped, total, limit: KNOWN_IDS_LIMIT }, 'known-id cache full: least recently used projects dropped (their verdicts query ClickHouse again)');
  };
  const app = createApp({
    db,
    log,
    ready,
    notifier,
    verdictLog,
    afterIngest,
    clock: systemClock,
    webhookTargets,
    ...(options.accountRate !== undefined ? { accountRate: options.accountRate } : {}),
    ...(options.accountBodyBytes !== undefined ? { accountBodyBytes: options.accountBodyBytes } : {}),
    ...(options.storageQuota !== undefined ? { storageQuota: options.storageQuota } : {}),
    ...(options.operatorToken ? { operatorToken: options.operatorToken } : {}),
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
    ...(options.verdictConcurrency ? { verdictConcurrency: options.verdictConcurrency } : {}),
  });
  const limits: ConnectionLimits = { ...defaultConnectionLimits(), ...options.connections };
  return new Promise((resolve) => {
    const server: ServerType = createAdaptorServer({ fetch: app.fetch, serverOptions: connectionServerOptions(limits) });
    limitConnections(server as Server, limits, log);
    // The kernel's longest queue of connections not yet accepted: under a flood of new connections
    // a short one (Node's 511) overflows, and a client whose handshake was dropped waits a second
    // to try again (TCP's retransmission), however quick the server is.
    const backlog = listenBacklog();
    server.listen({ port, host, backlog }, () => {
      const info = server.address() as AddressInfo;
      const url = `http://${host}:${info.port}`;
      log.info({ url, engine: db.engine.kind, connections: { ...limits, backlog }, secretsKey: db.secrets.source }, 'listening');
      resolve({
        url,
        port: info.port,
        close: async () => {
          await sweeper.stop();
          await new Promise<void>((done) => server.close(() => done()));
          await afterIngest.drain();
          await notifier.drain();
          await verdictLog.close().catch((error: unknown) => log.error({ err: error }, 'verdict log: pending telemetry rows not written at shutdown'));
        },
      });
    });
  });
}
