// The verdict API: a Hono app over one ClickHouse database. Tested with app.request() and
// served on a real port by server.ts.
import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import * as v from 'valibot';
import { type Notifier, noNotifier } from '../alerts/alert-event.js';
import { PUBLIC_ONLY, type TargetPolicy } from '../config/webhook-allow-list.js';
import { type Clock, systemClock } from '../clock/clock.js';
import { RunId } from '../contract.js';
import type { DomainDeps } from '../domain/deps.js';
import { BadRequestError, VerdictApiError } from '../errors/errors.js';
import { bodyHash, claim } from '../run-claims/run-claims.js';
import { rejectDuplicates } from '../ingest/duplicates.js';
import { flakyTests } from '../flakiness/flaky-tests.js';
import { type AfterIngest, inlineAfterIngest } from '../flakiness/on-run-ingested.js';
import { recordGate } from '../gated-observation/record-gate.js';
import { directVerdictLog, type VerdictLog } from '../telemetry/verdict-log.js';
import { ingestRun } from '../ingest/ingest-run.js';
import type { Logger } from '../log/logger.js';
import { runPage } from '../run-page/run-page.js';
import { renderRunReport } from '../run-report/render-markdown.js';
import { settingsAudit, settingsOf, writeSettings } from '../settings/settings.js';
import { listRuns } from '../run-page/list-runs.js';
import { rampPerDay } from '../ramp/ramp-per-day.js';
import { dashboard } from '../web/dashboard.js';
import { adminRoutes } from './admin-routes.js';
import { tokenRoutes } from './token-routes.js';
import type { Database } from '../storage/database.js';
import { verdict } from '../verdict/verdict.js';
import type { AppEnv } from './app-env.js';
import { Admission } from './admission.js';
import type { Principal } from '../accounts/principal.js';
import { authenticate } from './auth.js';
import { authorizeAdmin } from './authorize.js';
import { errorResponse } from './errors.js';
import { jsonBody, testCasesBody, testCasesOf } from './json-body.js';
import { readBody } from '../limits/read-body.js';
import { InFlightBodies } from '../limits/body-budget.js';
import { RateLimiter } from '../limits/rate-limit.js';
import { type BodyCaps, DEFAULT_BODY_CAPS } from '../limits/body-caps.js';
import { quarantineRoutes } from './quarantine-routes.js';
import { webhookRoutes } from './webhook-routes.js';
import { type ParsedVerdictRequest, parseGateUpload, parseRunUpload, parseSettingsPatch, parseVerdictRequest } from '../validation/parse-body.js';
import type { Account } from '../accounts/accounts.js';
import type { Project } from '../accounts/projects.js';
import type { WaitFor } from '../presence/presence.js';

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
}

/** A per-account request rate: `burst` requests at once, `perSecond` more every second. */
export interface AccountRate {
  perSecond: number;
  burst: number;
}

/**
 * The default per-account rate: 100 requests a second, 1,000 at once. A CI fleet makes about five
 * requests per job (quarantine list, upload, verdict, gate, report): a thousand jobs starting in
 * the same second fit its burst. STRESS_GATE_ACCOUNT_REQUESTS_PER_SECOND and
 * STRESS_GATE_ACCOUNT_BURST change it (0: no limit).
 */
export const ACCOUNT_RATE: AccountRate = { perSecond: 100, burst: 1_000 };

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

export function createApp(deps: AppDeps): Hono<Env> {
  const { db } = deps;
  const clock = deps.clock ?? systemClock;
  const domain: DomainDeps = { db, log: deps.log, notifier: deps.notifier ?? noNotifier };
  const caps: BodyCaps = { ...DEFAULT_BODY_CAPS, ...deps.bodyCaps };
  const webhookTargets = deps.webhookTargets ?? PUBLIC_ONLY;
  const rate = deps.accountRate === undefined ? ACCOUNT_RATE : deps.accountRate;
  const accountRequests = rate === null ? null : new RateLimiter(rate.burst, rate.perSecond);
  const bodies = new InFlightBodies(deps.accountBodyBytes);
  const verdictLog = deps.verdictLog ?? directVerdictLog(db);
  const afterIngest = deps.afterIngest ?? inlineAfterIngest();
  const verdicts = new Admission(deps.verdictConcurrency ?? verdictConcurrency(db));
  const app = new Hono<Env>();

  app.use(requestId());
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

  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/readyz', async (c) => {
    try {
      await deps.ready();
      await db.engine.ping();
      return c.json({ status: 'ready', engine: db.engine.kind });
    } catch (error) {
      return c.json({ status: 'unavailable', engine: db.engine.kind, message: (error as Error).message }, 503);
    }
  });

  const api = new Hono<Env>();
  // Authentication on the headers alone, before any route reads a body (read-body.ts).
  api.use('/:project/*', async (c, next) => {
    await deps.ready();
    const principal = await authenticate(db, c.req.header('Authorization'), c.req.param('project'), deps.operatorToken);
    // Each account's requests at its own rate: one account's volume is not another's wait.
    const decision = principal.credential === 'operator' || accountRequests === null ? null : accountRequests.take(principal.account.accountId);
    if (decision && !decision.allowed) {
      const error = new VerdictApiError('TOO_MANY_REQUESTS', `Authorization: this account is over its rate of ${rate!.perSecond} requests a second (${rate!.burst} at once); retry in ${decision.retryAfterSeconds} s`, 'Authorization');
      error.retryAfterSeconds = decision.retryAfterSeconds;
      throw error;
    }
    c.set('principal', principal);
    await next();
  });

  api.get('/:project/settings', (c) => {
    authorizeAdmin(c.get('principal'), 'settings.read');
    return c.json(settingsOf(c.get('principal').project));
  });
  api.patch('/:project/settings', async (c) => {
    authorizeAdmin(c.get('principal'), 'settings.write');
    const patch = parseSettingsPatch(await jsonBody(c, caps.small));
    const principal = c.get('principal');
    return c.json(settingsOf(await writeSettings(db, principal.project, patch, principal.actor, clock())));
  });
  api.get('/:project/settings/audit', async (c) => {
    authorizeAdmin(c.get('principal'), 'settings.read');
    return c.json({ changes: await settingsAudit(db, c.get('principal').project.projectId) });
  });
  api.get('/:project/runs', async (c) => {
    authorizeAdmin(c.get('principal'), 'runs.list');
    return c.json({ runs: await listRuns(db, c.get('principal').project) });
  });
  api.get('/:project/ramp', async (c) => {
    authorizeAdmin(c.get('principal'), 'ramp.read');
    return c.json({ days: await rampPerDay(db, c.get('principal').project, clock()) });
  });
  api.post('/:project/runs', async (c) => {
    const principal = c.get('principal');
    const parsed = parseRunUpload(await testCasesBody(c, caps.runUpload, bodies.budget(principal.account.accountId)));
    const { project } = principal;
    const now = clock();
    // A merge-request token's run is never the default branch's history (docs/security.md):
    // naming the default branch is refused, and any other branch is stored as no CI run, so
    // that making that branch the default later does not make it history either.
    if (principal.scope === 'merge-request' && project.defaultBranch !== null && parsed.branch === project.defaultBranch) {
      throw new VerdictApiError('FORBIDDEN', `branch: a merge-request token cannot upload the default branch's history ("${project.defaultBranch}"); protected-branch jobs use the project's default-branch token`, 'branch');
    }
    const run = principal.scope === 'merge-request' ? { ...parsed, isCi: false } : parsed;
    await claimRun(principal, run.runId, now);
    const result = await ingestRun(db, project, run, now);
    if (!result.duplicate) await afterIngest({ ...domain, log: c.get('log') }, project, run, now);
    return c.json(result, 201);
  });
  api.get('/:project/flaky-tests', async (c) => {
    authorizeAdmin(c.get('principal'), 'flakiness.read');
    return c.json(await flakyTests(db, c.get('principal').project, clock()));
  });
  api.get('/:project/runs/:runId/report.md', async (c) => {
    const page = await runPage(db, c.get('principal').project, runIdParam(c.req.param('runId')));
    return c.body(renderRunReport(page), 200, { 'Content-Type': 'text/markdown; charset=utf-8' });
  });
  api.get('/:project/runs/:runId', async (c) => c.json(await runPage(db, c.get('principal').project, runIdParam(c.req.param('runId')))));
  api.post('/:project/runs/:runId/gate', async (c) => {
    const runId = runIdParam(c.req.param('runId'));
    const principal = c.get('principal');
    const gate = parseGateUpload(await testCasesBody(c, caps.gateUpload, bodies.budget(principal.account.accountId)));
    const now = clock();
    // Only the run's own credential writes its gate result, once per shard; a retry of the same
    // result is answered again. A body refused anyway (a repeated identity) claims nothing.
    rejectDuplicates(gate.testCases, 'testCases');
    await claimRun(principal, runId, now);
    const result = await claim(db, principal.project.projectId, runId, 'gate', gate.shard.index, { actor: principal.actor, scope: principal.scope, bodyHash: bodyHash(gate) }, now);
    if (!result.mine) throw new VerdictApiError('CONFLICT', `runId: the gate result of run "${runId}" shard ${gate.shard.index} is already recorded; it is written once`, 'runId');
    if (result.repeated) return c.json({ repetitions: gate.testCases.reduce((n, t) => n + t.repetitions.length, 0), duplicate: true }, 201);
    return c.json(await recordGate(db, principal.project, runId, gate), 201);
  });
  api.post('/:project/verdict', async (c) => {
    const { project, account } = c.get('principal');
    // The body is in before a place is asked for (a slow body holds none), and parsed once
    // admitted: parsing is the CPU work the places limit (admission.ts).
    const budget = bodies.budget(account.accountId);
    let bytes: Buffer | null;
    try {
      bytes = await readBody(c, caps.verdict, budget);
    } catch (error) {
      budget.release();
      throw error;
    }
    return verdicts.run(account.accountId, async (place) => {
      let request: ParsedVerdictRequest;
      try {
        request = parseVerdictRequest(testCasesOf(bytes!));
      } finally {
        bytes = null; // not held through the verdict's wait (startVerdict)
        budget.release();
      }
      const { pending, context } = startVerdict(db, project, account, request, place.during);
      const answer = await pending;
      await verdictLog.record(answer, context, clock());
      return c.json(answer);
    });
  });

  /** Claims the run id for the caller's credential; 409 when another credential wrote under it first. */
  async function claimRun(principal: Principal, runId: string, now: Date): Promise<void> {
    const result = await claim(db, principal.project.projectId, runId, 'run', 0, { actor: principal.actor, scope: principal.scope, bodyHash: '' }, now);
    if (!result.mine) throw new VerdictApiError('CONFLICT', `runId: run "${runId}" was uploaded with another credential; a run id belongs to the job that uploaded it first: choose another`, 'runId');
  }

  quarantineRoutes(api, domain, clock, caps);
  webhookRoutes(api, db, clock, caps, webhookTargets);
  tokenRoutes(api, db, caps);

  adminRoutes(app, db, deps.operatorToken, deps.ready, caps);
  app.route('/api/v1/projects', api);
  // Unknown API paths answer JSON, never the dashboard's sign-in redirect.
  app.all('/api/*', (c) => c.json({ error: { code: 'NOT_FOUND', message: `path: no route ${c.req.method} ${c.req.path}`, field: 'path' } }, 404));
  if (deps.dashboard !== false) app.route('/', dashboard({ ...domain, clock, ready: deps.ready, caps, webhookTargets, ...(deps.publicUrl ? { publicUrl: deps.publicUrl } : {}) }));
  return app;
}

/**
 * Starts the verdict on a request and keeps of the request only what its telemetry row needs: in
 * a plain function, so that no async frame holds the request through the verdict's wait (verdict.ts).
 */
function startVerdict(db: Database, project: Project, account: Account, request: ParsedVerdictRequest, waitFor: WaitFor) {
  return { pending: verdict(db, project, account, request, waitFor), context: { runId: request.runId, mode: request.mode } };
}

function runIdParam(value: string): string {
  const runId = v.safeParse(RunId, value);
  if (!runId.success) throw new BadRequestError(`runId: ${runId.issues[0].message}`, 'runId');
  return runId.output;
}
