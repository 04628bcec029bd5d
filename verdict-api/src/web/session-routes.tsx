// Signing in and out. Signing in with an account's admin credential, or a project's viewer
// credential, opens a session (HttpOnly cookie) that every signed-in page needs (signed-in.tsx);
// every later form carries the session's CSRF token and every POST must come from this origin. A
// viewer's session posts nothing but its sign-out. A CI token never signs in. Sign-in lands on the
// page that sent the browser to it (`next`, a path of this dashboard only: next-path.ts).
import type { Context, Hono } from 'hono';
import { adminGrant } from '../accounts/admin-credentials.js';
import { getProject } from '../accounts/projects.js';
import { endSession, openSession, type SessionGrant } from '../accounts/sessions.js';
import { VIEWER_PREFIX, viewerGrant } from '../accounts/viewer-credentials.js';
import type { Database } from '../storage/database.js';
import { VerdictApiError } from '../errors/errors.js';
import { GuessLimiter } from '../limits/guess-limit.js';
import { clientAddress } from '../limits/read-body.js';
import { deviceCookies } from './device-cookie.js';
import { takeForm } from './forms.js';
import { safeNextPath } from './next-path.js';
import { html } from './respond.js';
import { clearSessionCookie, sameOrigin, sessionSecret, setSessionCookie } from './session.js';
import { SignInPage } from './sign-in-page.js';
import type { SignedInPages } from './signed-in.js';
import type { DashboardDeps, WebEnv } from './web-env.js';

/** Failed sign-ins per client address (or per known browser: device-cookie.ts): 10 at once, then one more every 30 s. */
export const SIGN_IN_ATTEMPTS = 10;
const SIGN_IN_REFILL_PER_SECOND = 1 / 30;

/** Whose failed sign-ins a request counts on: its browser's, when it signed in here before; else its address's (behind a proxy: the proxy's). */
function signInKey(c: Context, device: string | null): string {
  return device !== null ? `device ${device}` : `address ${clientAddress(c) ?? 'unknown'}`;
}

/** What a credential typed at the sign-in form grants: an admin credential's account, a viewer credential's project; a CI token or anything else, nothing. */
async function signInGrant(db: Database, credential: string): Promise<SessionGrant | null> {
  if (credential.length >= 200) return null;
  if (credential.startsWith('sga_')) {
    const grant = await adminGrant(db, credential);
    return grant && { ...grant, role: 'admin' };
  }
  if (credential.startsWith(VIEWER_PREFIX)) {
    const grant = await viewerGrant(db, credential);
    return grant && { accountId: grant.accountId, credentialId: grant.viewerId, role: 'viewer', projectId: grant.projectId };
  }
  return null;
}

/** Where a session lands when no page was asked for: an admin on the account's projects, a viewer on its project's runs. */
async function landing(db: Database, grant: SessionGrant): Promise<string> {
  if (grant.role === 'admin') return '/projects';
  const project = await getProject(db, grant.projectId);
  return project ? `/projects/${encodeURIComponent(project.handle)}/runs` : '/projects';
}

/** Adds GET/POST /sign-in to the public app `web`, and POST /sign-out to the signed-in pages. */
export function sessionRoutes(web: Hono<WebEnv>, pages: SignedInPages, deps: DashboardDeps): void {
  const { db, clock } = deps;
  const signIns = new GuessLimiter({ capacity: SIGN_IN_ATTEMPTS, perSecond: SIGN_IN_REFILL_PER_SECOND });
  const devices = deviceCookies();

  web.get('/sign-in', (c) => html(c, <SignInPage next={safeNextPath(c.req.query('next'))} />));
  web.post('/sign-in', async (c) => {
    if (!sameOrigin(c, deps.publicUrl)) return html(c, <SignInPage error="This form must be sent from the dashboard itself." />, 403);
    // A client over its failed sign-ins is refused before its form is read or its credential
    // looked at: guessing gets no answer, right or wrong, until the window has passed. Each look
    // takes its place first (limits/guess-limit.ts), so guesses sent at once cannot all be judged.
    const device = devices.read(c);
    const client = signInKey(c, device);
    const limit = signIns.peek(client);
    if (!limit.allowed) {
      c.header('Retry-After', String(limit.retryAfterSeconds));
      return html(c, <SignInPage error={`Too many failed sign-ins from your address; try again in ${limit.retryAfterSeconds} s.`} />, 429);
    }
    const refused = await takeForm(c, deps.caps.signIn);
    if (refused) return refused;
    const form = await c.req.parseBody();
    const credential = typeof form['credential'] === 'string' ? form['credential'].trim() : '';
    const next = safeNextPath(form['next']);
    let grant: SessionGrant | null;
    try {
      grant = credential === '' ? null : await signIns.lookup(client, credential, () => signInGrant(db, credential));
    } catch (error) {
      if (!(error instanceof VerdictApiError) || error.retryAfterSeconds === undefined) throw error;
      c.header('Retry-After', String(error.retryAfterSeconds));
      return html(c, <SignInPage error={`Too many failed sign-ins from your address; try again in ${error.retryAfterSeconds} s.`} />, 429);
    }
    if (!grant) {
      return html(c, <SignInPage next={next} error="credential: not a valid admin credential or viewer credential (a CI token cannot sign in)." />, 400);
    }
    const { secret, expiresAt } = await openSession(db, grant, clock());
    setSessionCookie(c, secret, expiresAt, deps.publicUrl);
    devices.remember(c, device, deps.publicUrl);
    return c.redirect(next ?? (await landing(db, grant)), 303);
  });

  pages.post('/sign-out', async (c) => {
    await endSession(db, sessionSecret(c)!, clock());
    clearSessionCookie(c, deps.publicUrl);
    return c.redirect('/sign-in', 303);
  });
}
