// The dashboard's signed-in pages: where they are added decides that they need a session, not the
// order they are added in. Each route added through SignedInPages carries the session guard in its
// own handler chain, so it never answers without a live session, whatever the dashboard registers
// before or after it; a route added to the dashboard's app itself is public (sign-in, the
// stylesheet). Not a `use('*')`: Hono runs every matching handler in registration order, so such a
// middleware guards only the routes added after it (and a sub-app's, mounted at `/`, becomes `/*` on
// the parent: the same again).
import type { Handler, Hono, MiddlewareHandler } from 'hono';
import { getAccount } from '../accounts/accounts.js';
import { sessionOf } from '../accounts/sessions.js';
import { takeForm } from './forms.js';
import { signInPathFor } from './next-path.js';
import { html, viewerRefused } from './respond.js';
import { clearSessionCookie, csrfMatches, sameOrigin, sessionSecret } from './session.js';
import { MessagePage } from './sign-in-page.js';
import type { DashboardDeps, WebEnv } from './web-env.js';

/** Where the signed-in pages are added: every route here is behind the session guard (sessionGuard). */
export interface SignedInPages {
  get<P extends string>(path: P, handler: Handler<WebEnv, P>): void;
  post<P extends string>(path: P, handler: Handler<WebEnv, P>): void;
}

/** The signed-in pages of the dashboard's app `web`: each route added is `web`'s, behind the session guard. */
export function signedInPages(web: Hono<WebEnv>, deps: DashboardDeps): SignedInPages {
  const guard = sessionGuard(deps);
  return {
    get: (path, handler) => void web.get(path, guard, handler),
    post: (path, handler) => void web.post(path, guard, handler),
  };
}

/**
 * The session check of a signed-in page: no live session, to /sign-in (a GET comes back to its
 * page after it); a viewer's form (but its sign-out), 403; a POST without the session's CSRF token
 * or from another origin, 403. Sets the session and its account's name.
 */
export function sessionGuard(deps: DashboardDeps): MiddlewareHandler<WebEnv> {
  const { db, clock } = deps;
  return async (c, next) => {
    // The session is read from the database: migrations first, whichever middleware ran before.
    await deps.ready();
    const secret = sessionSecret(c);
    const session = secret && secret.length < 100 ? await sessionOf(db, secret, clock()) : null;
    if (!session) {
      if (secret) clearSessionCookie(c, deps.publicUrl);
      // A page asked for comes back after sign-in; a form sent without a session does not.
      const asked = new URL(c.req.url);
      return c.redirect(c.req.method === 'GET' ? signInPathFor(`${asked.pathname}${asked.search}`) : '/sign-in', 303);
    }
    const account = await getAccount(db, session.accountId);
    c.set('session', session);
    c.set('accountName', account?.name ?? 'account');
    // A viewer changes nothing: every form but its sign-out is refused before it is read.
    if (session.role === 'viewer' && c.req.method !== 'GET' && c.req.method !== 'HEAD' && c.req.path !== '/sign-out') return viewerRefused(c);
    if (c.req.method === 'POST') {
      const refused = await takeForm(c, deps.caps.form);
      if (refused) return refused;
      const form = await c.req.parseBody();
      if (!sameOrigin(c, deps.publicUrl) || !csrfMatches(form['csrf'], session.csrfToken)) {
        return html(c, <MessagePage title="Refused" message="csrf: this form was not sent from your dashboard session; reload the page and try again." />, 403);
      }
    }
    await next();
  };
}
