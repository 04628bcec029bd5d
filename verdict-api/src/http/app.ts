// The verdict API: a Hono app over one ClickHouse database. Tested with app.request() and
// served on a real port by server.ts.
import { Hono } from 'hono';
import { randomUUID } from 'node:crypto';
import { type Notifier, noNotifier } from '../alerts/alert-event.js';
import { type Clock, systemClock } from '../clock/clock.js';
import { PUBLIC_ONLY, type TargetPolicy } from '../config/webhook-allow-list.js';
import type { DomainDeps } from '../domain/deps.js';
import { type AfterIngest, inlineAfterIngest } from '../flakiness/on-run-ingested.js';
import { accountUsageStore } from '../accounts/account-usage.js';
import { ACCOUNT_RATE, type AccountRate, AccountRequests } from '../limits/account-rate.js';
import { InFlightBodies } from '../limits/body-budget.js';
import { API_GUESS_RATE, GuessLimiter, type GuessRate } from '../limits/guess-limit.js';
import { type BodyCaps, DEFAULT_BODY_CAPS } from '../limits/body-caps.js';
import { STORAGE_QUOTA, type StorageQuota } from '../limits/storage-quota.js';
import { StorageQuotas } from '../limits/storage-usage.js';
import type { Logger } from '../log/logger.js';
import type { Database } from '../storage/database.js';
import { directVerdictLog, type VerdictLog } from '../telemetry/verdict-log.js';
import { dashboard } from '../web/dashboard.js';
import { adminRoutes } from './admin-routes.js';
import { Admission } from './admission.js';
import type { AppEnv } from './app-env.js';
import { errorResponse } from './errors.js';
import { flakyTestRoutes } from './flaky-test-routes.js';
import { healthRoutes } from './health-routes.js';
import { historySearchRoutes } from './history-search-routes.js';
import { projectAuth } from './project-auth.js';
import { quarantineRoutes } from './quarantine-routes.js';
import { rampRoutes } from './ramp-routes.js';
import { runRoutes } from './run-routes.js';
import { settingsRoutes } from './settings-routes.js';
import { tokenRoutes } from './token-routes.js';
import { verdictRoutes } from './verdict-routes.js';
import { viewerRoutes } from './viewer-routes.js';
import { webhookRoutes } from './webhook-routes.js';

export interface AppDeps {
  db: Database;
  log: Logger;
  /** Resolves once migrations have been applied; rejected attempts are retried per request. */
  ready: () => Promise<void>;
  /** The largest body each kind of route reads (body-caps.ts); tests lower some. */
  bodyCaps?: Partial<BodyCaps>;
  /** Where flakiness alerts go. Default: nowhere (server.ts passes the webhook dispatcher). */
  notifier?: Notifier;
  /** The clock marks, cooldowns and quarantine expiry read. Default: the wall clock. */
  clock?: Clock;
  /** The operator credential (STRESS_GATE_OPERATOR_TOKEN); unset: no operator routes answer. */
  operatorToken?: string;
  /** The dashboard's public base URL, for Origin checks behind a proxy. */
  publicUrl?: string;
  /** Where verdicts' telemetry rows go. Default: written before each verdict is answered (server.ts batches them). */
  verdictLog?: VerdictLog;
  /** When an upload's flakiness evaluation runs. Default: before the upload is answered (server.ts queues it after). */
  afterIngest?: AfterIngest;
  /** Verdicts worked on at once; more wait their turn (admission.ts). Default verdictConcurrency(db). */
  verdictConcurrency?: number;
  /** Serve the dashboard pages (default true). */
  dashboard?: boolean;
  /** Where webhooks may go besides public addresses (STRESS_GATE_WEBHOOK_ALLOW). Default: public only. */
  webhookTargets?: TargetPolicy;
  /** Each account's API requests: `burst` at once, refilled at `perSecond`; null: no limit. Default ACCOUNT_RATE. */
  accountRate?: AccountRate | null;
  /** Request body bytes each account may hold in flight at once. Default ACCOUNT_BODY_BYTES (256 MiB). */
  accountBodyBytes?: number;
  /** Failed credential lookups per client address. Default API_GUESS_RATE. */
  guessRate?: GuessRate;
  /** What each account may store (rows and bytes a day and retained; 0: no limit). Default STORAGE_QUOTA. */
  storageQuota?: StorageQuota;
}

type Env = AppEnv;

/**
 * Verdicts worked on at once by default: few enough to keep the event loop's queue short, so run
 * uploads keep their pace. A verdict waiting for its presence query holds no place (admission.ts),
 * so the places bound CPU work only. On embedded chDB a known project's verdict reads nothing (its
 * presence is held whole, read-cache.ts): 4. On a server each verdict's body read and parse still
 * interleave with other requests' ClickHouse answers: 12, the balance bench-load measured once a
 * free place was taken a turn later (nine 60-s runs: 389-457 verdicts/s, p99 217-298 ms, five
 * under 250, uploads at 49-66% of their pace alone; 8 gave p99 252-290 ms, 10 240-254 ms, 16
 * 264-328 ms with the uploads under half). More places serve more verdicts at the uploads' expense
 * (the measured curve is in the README, "The service under load"), so the operator chooses:
 * STRESS_GATE_VERDICT_CONCURRENCY.
 */
export const verdictConcurrency = (db: Database): number => (db.cache.soleWriter ? 4 : 12);

/** The verdict API's routes (and the dashboard's, unless `dashboard: false`) over one database. */
export function createApp(deps: AppDeps): Hono<Env> {
  const { db } = deps;
  const clock = deps.clock ?? systemClock;
  const domain: DomainDeps = { db, log: deps.log, notifier: deps.notifier ?? noNotifier };
  const caps: BodyCaps = { ...DEFAULT_BODY_CAPS, ...deps.bodyCaps };
  const webhookTargets = deps.webhookTargets ?? PUBLIC_ONLY;
  const rate = deps.accountRate === undefined ? ACCOUNT_RATE : deps.accountRate;
  const bodies = new InFlightBodies(deps.accountBodyBytes);
  const storage = new StorageQuotas(deps.storageQuota ?? STORAGE_QUOTA, accountUsageStore(db));
  const app = new Hono<Env>();

  // The server names each request: a client's X-Request-Id is neither echoed nor logged (a
  // caller could otherwise forge log lines' ids or pass text into them).
  app.use(async (c, next) => {
    c.set('requestId', randomUUID());
    c.header('X-Request-Id', c.get('requestId'));
    await next();
  });
  app.use(async (c, next) => {
    const log = deps.log.child({ requestId: c.get('requestId') });
    c.set('log', log);
    const started = performance.now();
    await next();
    c.res.headers.set('X-Content-Type-Options', 'nosniff');
    log.info({ method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started) }, 'request');
  });
  app.onError((error, c) => errorResponse(c, error, c.get('log') ?? deps.log));
  app.notFound((c) => c.json({ error: { code: 'NOT_FOUND', message: `path: no route ${c.req.method} ${c.req.path}`, field: 'path' } }, 404));
  healthRoutes(app, db, deps.ready);

  // The project routes, under /api/v1/projects/:project/: authenticated before any reads a body.
  const api = new Hono<Env>();
  const guesses = new GuessLimiter(deps.guessRate ?? API_GUESS_RATE);
  projectAuth(api, { db, ready: deps.ready, operatorToken: deps.operatorToken, accountRequests: rate === null ? null : new AccountRequests(rate), guesses });
  settingsRoutes(api, db, clock, caps);
  runRoutes(api, { ...domain, clock, caps, bodies, storage, afterIngest: deps.afterIngest ?? inlineAfterIngest() });
  flakyTestRoutes(api, db, clock);
  rampRoutes(api, db, clock);
  historySearchRoutes(api, db);
  verdictRoutes(api, {
    db,
    clock,
    caps,
    bodies,
    verdicts: new Admission(deps.verdictConcurrency ?? verdictConcurrency(db)),
    verdictLog: deps.verdictLog ?? directVerdictLog(db),
  });
  quarantineRoutes(api, domain, clock, caps);
  webhookRoutes(api, db, clock, caps, webhookTargets);
  tokenRoutes(api, db, caps);
  viewerRoutes(api, db, caps);

  adminRoutes(app, db, deps.operatorToken, deps.ready, caps, guesses, storage);
  app.route('/api/v1/projects', api);
  // Unknown API paths answer JSON, never the dashboard's sign-in redirect.
  app.all('/api/*', (c) => c.json({ error: { code: 'NOT_FOUND', message: `path: no route ${c.req.method} ${c.req.path}`, field: 'path' } }, 404));
  if (deps.dashboard !== false) app.route('/', dashboard({ ...domain, clock, ready: deps.ready, caps, webhookTargets, storage, ...(deps.publicUrl ? { publicUrl: deps.publicUrl } : {}) }));
  return app;
}
