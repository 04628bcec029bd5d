// Liveness and readiness, for a load balancer or an orchestrator: no credential.
import type { Hono } from 'hono';
import type { Database } from '../storage/database.js';
import type { AppEnv } from './app-env.js';

/** Adds GET /healthz (the process answers) and GET /readyz (migrations applied and ClickHouse answering; 503 otherwise). */
export function healthRoutes(app: Hono<AppEnv>, db: Database, ready: () => Promise<void>): void {
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', async (c) => {
    try {
      await ready();
      await db.engine.ping();
      return c.json({ status: 'ready', engine: db.engine.kind });
    } catch (error) {
      return c.json({ status: 'unavailable', engine: db.engine.kind, message: (error as Error).message }, 503);
    }
  });
}
