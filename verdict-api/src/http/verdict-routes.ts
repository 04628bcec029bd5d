// The verdict over HTTP: which of the identities a run sent never ran in CI on the project's
// default branch, with the stress parameters and guard signals, in one answer. Each answer's
// telemetry row goes to the verdict log.
import type { Hono } from 'hono';
import type { Account } from '../accounts/accounts.js';
import type { Project } from '../accounts/projects.js';
import type { Clock } from '../clock/clock.js';
import type { InFlightBodies } from '../limits/body-budget.js';
import type { BodyCaps } from '../limits/body-caps.js';
import { readBody } from '../limits/read-body.js';
import type { WaitFor } from '../presence/presence.js';
import type { Database } from '../storage/database.js';
import type { VerdictLog } from '../telemetry/verdict-log.js';
import { type ParsedVerdictRequest, parseVerdictRequest } from '../validation/parse-body.js';
import { verdict } from '../verdict/verdict.js';
import type { Admission } from './admission.js';
import type { AppEnv } from './app-env.js';
import { testCasesOf } from './json-body.js';

/** What the verdict route needs. */
export interface VerdictRoutesDeps {
  db: Database;
  clock: Clock;
  caps: BodyCaps;
  /** Each account's in-flight body bytes. */
  bodies: InFlightBodies;
  /** The places verdicts are worked on in (admission.ts). */
  verdicts: Admission;
  /** Where each verdict's telemetry row goes. */
  verdictLog: VerdictLog;
}

/** Adds POST …/verdict. */
export function verdictRoutes(api: Hono<AppEnv>, deps: VerdictRoutesDeps): void {
  const { caps, bodies, verdicts, verdictLog, clock } = deps;
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
      // On a cluster, the project's shard only (database.ts forProject): a verdict touches one shard.
      const { pending, context } = startVerdict(await deps.db.forProject(project.projectId), project, account, request, place.during);
      const answer = await pending;
      await verdictLog.record(answer, context, clock());
      return c.json(answer);
    });
  });
}

/**
 * Starts the verdict on a request and keeps of the request only what its telemetry row needs: in
 * a plain function, so that no async frame holds the request through the verdict's wait (verdict.ts).
 */
function startVerdict(db: Database, project: Project, account: Account, request: ParsedVerdictRequest, waitFor: WaitFor) {
  return { pending: verdict(db, project, account, request, waitFor), context: { runId: request.runId, mode: request.mode } };
}
