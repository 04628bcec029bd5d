// Serves the app on a real port.
import { serve, type ServerType } from '@hono/node-server';
import { createApp } from './http/app.js';
import type { Logger } from './log/logger.js';
import type { Database } from './storage/database.js';
import { migrationGate } from './storage/open.js';

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startServer(db: Database, log: Logger, host: string, port: number): Promise<RunningServer> {
  const ready = migrationGate(db, log);
  await ready().catch((error: unknown) => log.warn({ err: error }, 'ClickHouse not ready at start-up; retrying on each request'));
  const app = createApp({ db, log, ready });
  return new Promise((resolve) => {
    const server: ServerType = serve({ fetch: app.fetch, hostname: host, port }, (info) => {
      const url = `http://${host}:${info.port}`;
      log.info({ url, engine: db.engine.kind }, 'listening');
      resolve({
        url,
        port: info.port,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}
