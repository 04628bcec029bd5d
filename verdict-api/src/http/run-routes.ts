// A project's runs over HTTP: the upload (test insights), the list, one run's page and its
// Markdown report, and the gate's result on a run. A run id belongs to the credential that
// uploaded under it first (run-claims/run-claims.ts): another one's upload or gate result is a 409.
// Uploads count against their account's storage quota (limits/storage-usage.ts), judged before
// anything is claimed or written: an upload refused for it can be sent again once there is room.
import type { Hono } from 'hono';
import * as v from 'valibot';
import { gateUsage, runUsage } from '../accounts/account-usage.js';
import type { Principal } from '../accounts/principal.js';
import type { Clock } from '../clock/clock.js';
import { RunId } from '../contract.js';
import type { DomainDeps } from '../domain/deps.js';
import { BadRequestError, VerdictApiError } from '../errors/errors.js';
import type { AfterIngest } from '../flakiness/on-run-ingested.js';
import { recordGate } from '../gated-observation/record-gate.js';
import { rejectDuplicateFailures, rejectInconsistentTimingSensitive } from '../gated-observation/evidence-rows.js';
import { rejectInconsistentOrderProbes } from '../gated-observation/order-probe-rows.js';
import { rejectInconsistentDiff } from '../gated-observation/diff-rows.js';
import { rejectDuplicates } from '../ingest/duplicates.js';
import { ingestRun, keepsFingerprints } from '../ingest/ingest-run.js';
import type { InFlightBodies } from '../limits/body-budget.js';
import type { Logger } from '../log/logger.js';
import type { BodyCaps } from '../limits/body-caps.js';
import type { Reservation, StorageQuotas } from '../limits/storage-usage.js';
import { bodyHash, claim, runOwner } from '../run-claims/run-claims.js';
import { listRuns } from '../run-page/list-runs.js';
import { runPage, testCasePage } from '../run-page/run-page.js';
import { renderRunReport } from '../run-report/render-markdown.js';
import { parseGateUpload, parseRunUpload } from '../validation/parse-body.js';
import type { Database } from '../storage/database.js';
import type { AppEnv } from './app-env.js';
import { authorizeAdmin } from './authorize.js';
import { sizedTestCasesBody } from './json-body.js';

/** What the run routes need besides the domain's dependencies. */
export interface RunRoutesDeps extends DomainDeps {
  clock: Clock;
  caps: BodyCaps;
  /** Each account's in-flight body bytes. */
  bodies: InFlightBodies;
  /** When an upload's flakiness evaluation runs. */
  afterIngest: AfterIngest;
  /** Each account's storage usage and quota. */
  storage: StorageQuotas;
}

/** Adds GET/POST …/runs, GET …/runs/:runId, GET …/runs/:runId/report.md and POST …/runs/:runId/gate. */
export function runRoutes(api: Hono<AppEnv>, deps: RunRoutesDeps): void {
  const { clock, caps, bodies, storage } = deps;
  /** The database as the caller's project uses it: on a cluster, its shard (database.ts forProject). */
  const projectDb = (principal: Principal) => deps.db.forProject(principal.project.projectId);

  api.get('/:project/runs', async (c) => {
    authorizeAdmin(c.get('principal'), 'runs.list');
    return c.json({ runs: await listRuns(await projectDb(c.get('principal')), c.get('principal').project) });
  });
  api.post('/:project/runs', async (c) => {
    const principal = c.get('principal');
    // An account at its quota already is refused before its body is read.
    if (enforced(principal)) await storage.refuseWhenReached(principal.account.accountId);
    const body = await sizedTestCasesBody(c, caps.runUpload, bodies.budget(principal.account.accountId));
    const parsed = parseRunUpload(body.document);
    const { project } = principal;
    const now = clock();
    // A merge-request token's run is never the default branch's history (docs/security.md):
    // naming the default branch is refused, and any other branch is stored as no CI run, so
    // that making that branch the default later does not make it history either.
    if (principal.scope === 'merge-request' && project.defaultBranch !== null && parsed.branch === project.defaultBranch) {
      throw new VerdictApiError('FORBIDDEN', `branch: a merge-request token cannot upload the default branch's history ("${project.defaultBranch}"); protected-branch jobs use the project's default-branch token`, 'branch');
    }
    const run = principal.scope === 'merge-request' ? { ...parsed, isCi: false } : parsed;
    const db = await projectDb(principal);
    const reservation = await storage.reserve(principal.account.accountId, runUsage(run, body.bytes, keepsFingerprints(project, run)), enforced(principal));
    const result = await stored(reservation, c.get('log'), async () => {
      await claimRun(db, principal, run.runId, now);
      const ingested = await ingestRun(db, project, run, now);
      return { value: ingested, wrote: !ingested.duplicate };
    });
    if (!result.duplicate) await deps.afterIngest({ db, log: c.get('log'), notifier: deps.notifier }, project, run, now);
    return c.json(result, 201);
  });
  api.get('/:project/runs/:runId/report.md', async (c) => {
    const db = await projectDb(c.get('principal'));
    const page = await runPage(db, c.get('principal').project, await readableRunId(db, c.get('principal'), c.req.param('runId')));
    return c.body(renderRunReport(page), 200, { 'Content-Type': 'text/markdown; charset=utf-8' });
  });
  api.get('/:project/runs/:runId', async (c) => {
    const db = await projectDb(c.get('principal'));
    const runId = await readableRunId(db, c.get('principal'), c.req.param('runId'));
    return c.json(await runPage(db, c.get('principal').project, runId, testCasePage(c.req.query('after'), c.req.query('limit'), c.req.query('afterCandidate'))));
  });
  api.post('/:project/runs/:runId/gate', async (c) => {
    const runId = runIdParam(c.req.param('runId'));
    const principal = c.get('principal');
    if (enforced(principal)) await storage.refuseWhenReached(principal.account.accountId);
    const body = await sizedTestCasesBody(c, caps.gateUpload, bodies.budget(principal.account.accountId));
    const gate = parseGateUpload(body.document);
    const now = clock();
    // Only the run's own credential writes its gate result, once per shard; a retry of the same
    // result is answered again. A body refused anyway (a repeated identity, two failures with one
    // repetition number, an inconsistent timing-sensitive case, order probe or diff) claims nothing.
    rejectDuplicates(gate.testCases, 'testCases');
    rejectDuplicateFailures(gate.testCases);
    rejectInconsistentTimingSensitive(gate.testCases);
    rejectInconsistentOrderProbes(gate.testCases);
    rejectInconsistentDiff(gate);
    const reservation = await storage.reserve(principal.account.accountId, gateUsage(gate, body.bytes), enforced(principal));
    const db = await projectDb(principal);
    const answer = await stored(reservation, c.get('log'), async () => {
      await claimRun(db, principal, runId, now);
      const result = await claim(db, principal.project.projectId, runId, 'gate', gate.shard.index, { actor: principal.actor, scope: principal.scope, bodyHash: bodyHash(gate) }, now);
      if (!result.mine) throw new VerdictApiError('CONFLICT', `runId: the gate result of run "${runId}" shard ${gate.shard.index} is already recorded; it is written once`, 'runId');
      if (result.repeated) return { value: { repetitions: gate.testCases.reduce((n, t) => n + t.repetitions.length, 0), duplicate: true }, wrote: false };
      return { value: await recordGate(db, principal.project, runId, gate), wrote: true };
    });
    return c.json(answer, 201);
  });

  /**
   * The run id a caller may read: a merge-request token reads back only the runs it uploaded (its
   * job's page and report); another run, another branch's output tails included, is the same 404
   * as a run that does not exist. Other credentials read the project's runs.
   */
  async function readableRunId(db: Database, principal: Principal, value: string): Promise<string> {
    const runId = runIdParam(value);
    if (principal.credential === 'project_token' && principal.scope === 'merge-request' && (await runOwner(db, principal.project.projectId, runId)) !== principal.actor) {
      throw new VerdictApiError('NOT_FOUND', `no run "${runId}" in this project`, 'runId');
    }
    return runId;
  }

  /** Claims the run id for the caller's credential; 409 when another credential wrote under it first. */
  async function claimRun(db: Database, principal: Principal, runId: string, now: Date): Promise<void> {
    const result = await claim(db, principal.project.projectId, runId, 'run', 0, { actor: principal.actor, scope: principal.scope, bodyHash: '' }, now);
    if (!result.mine) throw new VerdictApiError('CONFLICT', `runId: run "${runId}" was uploaded with another credential; a run id belongs to the job that uploaded it first: choose another`, 'runId');
  }
}

/** Whether the storage quota may refuse the caller's uploads: every credential's but the operator's (its uploads are counted). */
const enforced = (principal: Principal): boolean => principal.credential !== 'operator';

/**
 * Runs `write` under `reservation`: its usage is recorded when it wrote, given back when it did not
 * (a retry of a stored upload) or failed. A usage row that cannot be written is logged, not
 * answered: the upload is stored, and this process keeps counting it.
 */
async function stored<T>(reservation: Reservation, log: Logger, write: () => Promise<{ value: T; wrote: boolean }>): Promise<T> {
  let outcome: { value: T; wrote: boolean };
  try {
    outcome = await write();
  } catch (error) {
    reservation.giveBack();
    throw error;
  }
  if (!outcome.wrote) reservation.giveBack();
  else await reservation.commit().catch((error: unknown) => log.warn({ err: error }, 'storage usage of a stored upload not recorded; it counts in this process only'));
  return outcome.value;
}

function runIdParam(value: string): string {
  const runId = v.safeParse(RunId, value);
  if (!runId.success) throw new BadRequestError(`runId: ${runId.issues[0].message}`, 'runId');
  return runId.output;
}
