// Serves the app on a real port.
import { serve, type ServerType } from '@hono/node-server';
import { createWebhookDispatcher } from './alerts/webhook-dispatcher.js';
import { systemClock } from './clock/clock.js';
import { createApp } from './http/app.js';
import { batchedVerdictLog } from './telemetry/verdict-log.js';
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
export async function startServer(db: Database, log: Logger, host: string, port: number, options: { sweepIntervalMs?: number; operatorToken?: string; publicUrl?: string } = {}): Promise<RunningServer> {
  const ready = migrationGate(db, log);
  await ready().catch((error: unknown) => log.warn({ err: error }, 'ClickHouse not ready at start-up; retrying on each request'));
  const notifier = createWebhookDispatcher({ db, log });
  const sweeper = startSweeper({ db, log, notifier }, options.sweepIntervalMs ?? 300_000, systemClock);
  const verdictLog = batchedVerdictLog(db, log);
  const app = createApp({
    db,
    log,
    ready,
    notifier,
    verdictLog,
    clock: systemClock,
    ...(options.operatorToken ? { operatorToken: options.operatorToken } : {}),
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
  });
  return new Promise((resolve) => {
    const server: ServerType = serve({ fetch: app.fetch, hostname: host, port }, (info) => {
      const url = `http://${host}:${info.port}`;
      log.info({ url, engine: db.engine.kind }, 'listening');
      resolve({
        url,
        port: info.port,
        close: async () => {
          await sweeper.stop();
          await new Promise<void>((done) => server.close(() => done()));
          await notifier.drain();
          await verdictLog.close().catch((error: unknown) => log.error({ err: error }, 'verdict log: pending telemetry rows not written at shutdown'));
        },
      });
    });
  });
}
