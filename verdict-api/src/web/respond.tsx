// How the dashboard's routes answer: a whole page, the frame around it, the one 404 page, and the
// signed-in session's project (or that 404: another account's project and none look the same). A
// viewer's session opens its one project, and only the pages that read it.
import type { Context } from 'hono';
import type { JSX } from 'hono/jsx/jsx-runtime';
import { type Caller, principalFor, type Principal } from '../accounts/principal.js';
import type { Session } from '../accounts/sessions.js';
import { VerdictApiError } from '../errors/errors.js';
import type { Database } from '../storage/database.js';
import type { Frame } from './layout.js';
import { visible } from '../contract-markdown.js';
import { MessagePage } from './sign-in-page.js';
import type { WebEnv } from './web-env.js';

/** Answers a page as an HTML document. */
// Every page is shown with the control and bidirectional characters of test text (names,
// messages, traces, output) as visible escapes: our own markup holds none but tab and newline.
export const html = (c: Context, page: JSX.Element, status: 200 | 400 | 403 | 404 | 429 = 200) => c.html(`<!doctype html>${visible(String(page))}`, status);

/** The frame of a signed-in page: its title, the account, the session's CSRF token, the project whose navigation it shows, whether a viewer reads it. */
export const frame = (c: Context<WebEnv>, title: string, project?: string): Frame => ({
  title,
  account: c.get('accountName'),
  csrf: c.get('session').csrfToken,
  ...(project ? { project } : {}),
  ...(c.get('session').role === 'viewer' ? { viewer: true } : {}),
});

/** The 404 page of a signed-in request. */
export const notFound = (c: Context<WebEnv>, message: string) =>
  html(c, <MessagePage title="Not found" message={message} account={c.get('accountName')} csrf={c.get('session').csrfToken} viewer={c.get('session').role === 'viewer'} />, 404);

/** What a viewer's session is told when it asks for a page or form of an admin's: 403. */
export const VIEWER_REFUSED = 'You are signed in with a viewer credential: it reads runs, test cases and flaky tests, and changes nothing. Settings, quarantine, webhooks and tokens need an account admin credential.';

/** The 403 page of a viewer's session. */
export const viewerRefused = (c: Context<WebEnv>) => html(c, <MessagePage title="Forbidden" message={VIEWER_REFUSED} account={c.get('accountName')} csrf={c.get('session').csrfToken} viewer />, 403);

/** The path of a project's pages. */
export const projectPath = (p: Principal) => `/projects/${encodeURIComponent(p.project.handle)}`;

/** Who a signed-in session is, as a caller of the domain (accounts/principal.ts). */
export function callerOf(s: Session): Caller {
  return s.role === 'viewer'
    ? { kind: 'viewer', projectId: s.projectId, accountId: s.accountId, viewerId: s.credentialId, actor: `viewer:${s.credentialId}` }
    : { kind: 'admin', accountId: s.accountId, credentialId: s.credentialId, actor: `admin:${s.credentialId}` };
}

/**
 * The session's project named by the `:project` parameter, or a 404 page (the same for another
 * account's, another project than a viewer's, and none). `need: 'admin'` (the pages and forms
 * that show or change settings, quarantine, webhooks, tokens and viewers): a viewer gets 403.
 */
export async function projectOf(db: Database, c: Context<WebEnv>, need: 'read' | 'admin' = 'read'): Promise<Principal | Response> {
  const s = c.get('session');
  if (need === 'admin' && s.role !== 'admin') return viewerRefused(c);
  try {
    return await principalFor(db, callerOf(s), c.req.param('project') ?? '');
  } catch (e) {
    if (e instanceof VerdictApiError && e.code === 'FORBIDDEN') return notFound(c, s.role === 'viewer' ? 'No such project for your viewer credential.' : 'No such project in your account.');
    throw e;
  }
}
