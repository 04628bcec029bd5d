// Authentication of every project route (/api/v1/projects/:project/…), on the headers alone,
// before any route reads a body (limits/read-body.ts): the caller's principal on the project,
// then its account's request rate (the operator's requests are not counted). A viewer's request
// that is not a read is refused here, before any route sees it.
import type { Hono } from 'hono';
import type { AccountRequests } from '../limits/account-rate.js';
import type { GuessLimiter } from '../limits/guess-limit.js';
import type { Database } from '../storage/database.js';
import type { AppEnv } from './app-env.js';
import { authenticate, guessGuard } from './auth.js';
import { refuseViewerWrite } from './authorize.js';

/** What authenticating a project route needs. */
export interface ProjectAuthDeps {
  db: Database;
  ready: () => Promise<void>;
  /** The operator credential; unset: none is accepted. */
  operatorToken?: string;
  /** Each account's request rate; null: no limit. */
  accountRequests: AccountRequests | null;
  /** Failed credential lookups per client address. */
  guesses: GuessLimiter;
}

/** Adds the middleware that sets `principal` on every route under `/:project/`. */
export function projectAuth(api: Hono<AppEnv>, deps: ProjectAuthDeps): void {
  api.use('/:project/*', async (c, next) => {
    await deps.ready();
    const principal = await authenticate(deps.db, c.req.header('Authorization'), c.req.param('project'), deps.operatorToken, guessGuard(c, deps.guesses));
    if (principal.credential !== 'operator') deps.accountRequests?.take(principal.account.accountId);
    refuseViewerWrite(principal, c.req.method);
    c.set('principal', principal);
    await next();
  });
}
