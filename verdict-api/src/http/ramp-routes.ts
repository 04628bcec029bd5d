// The gate's ramp on a project over HTTP: per day and in total, what it did on merge requests (the ramp page's and the telemetry command's one query).
import type { Hono } from 'hono';
import type { Clock } from '../clock/clock.js';
import { rampPerDay } from '../telemetry/ramp-per-day.js';
import type { Database } from '../storage/database.js';
import type { AppEnv } from './app-env.js';
import { authorizeAdmin } from './authorize.js';

/** Adds GET …/ramp. */
export function rampRoutes(api: Hono<AppEnv>, db: Database, clock: Clock): void {
  api.get('/:project/ramp', async (c) => {
    authorizeAdmin(c.get('principal'), 'ramp.read');
    return c.json(await rampPerDay(db, c.get('principal').project, clock()));
  });
}
