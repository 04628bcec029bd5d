// A project's flaky tests over HTTP (admin credentials only).
import type { Hono } from 'hono';
import type { Clock } from '../clock/clock.js';
import { flakyTests } from '../flakiness/flaky-tests.js';
import type { Database } from '../storage/database.js';
import type { AppEnv } from './app-env.js';
import { authorizeAdmin } from './authorize.js';

/** Adds GET …/flaky-tests. */
export function flakyTestRoutes(api: Hono<AppEnv>, db: Database, clock: Clock): void {
  api.get('/:project/flaky-tests', async (c) => {
    authorizeAdmin(c.get('principal'), 'flakiness.read');
    return c.json(await flakyTests(db, c.get('principal').project, clock()));
  });
}
