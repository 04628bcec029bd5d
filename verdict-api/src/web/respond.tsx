// How the dashboard's routes answer: a whole page, the frame around it, the one 404 page, and the
// signed-in account's project (or that 404: another account's project and none look the same).
import type { Context } from 'hono';
import type { JSX } from 'hono/jsx/jsx-runtime';
import { principalFor, type Principal } from '../accounts/principal.js';
import { VerdictApiError } from '../errors/errors.js';
import type { Database } from '../storage/database.js';
import type { Frame } from './layout.js';
import { MessagePage } from './sign-in-page.js';
import type { WebEnv } from './web-env.js';

/** Answers a page as an HTML document. */
export const html = (c: Context, page: JSX.Element, status: 200 | 400 | 403 | 404 | 429 = 200) => c.html(`<!doctype html>${String(page)}`, status);

/** The frame of a signed-in page: its title, the account, the session's CSRF token, the project whose navigation it shows. */
export const frame = (c: Context<WebEnv>, title: string, project?: string): Frame => ({
  title,
  account: c.get('accountName'),
  csrf: c.get('session').csrfToken,
  ...(project ? { project } : {}),
});

/** The 404 page of a signed-in request. */
export const notFound = (c: Context<WebEnv>, message: string) => html(c, <MessagePage title="Not found" message={message} account={c.get('accountName')} csrf={c.get('session').csrfToken} />, 404);

/** The path of a project's pages. */
export const projectPath = (p: Principal) => `/projects/${encodeURIComponent(p.project.handle)}`;

/** The signed-in account's project named by the `:project` parameter, or a 404 page (the same for another account's and for none). */
export async function projectOf(db: Database, c: Context<WebEnv>): Promise<Principal | Response> {
  const s = c.get('session');
  try {
    return await principalFor(db, { kind: 'admin', accountId: s.accountId, credentialId: s.credentialId, actor: `admin:${s.credentialId}` }, c.req.param('project') ?? '');
  } catch (e) {
    if (e instanceof VerdictApiError && e.code === 'FORBIDDEN') return notFound(c, 'No such project in your account.');
    throw e;
  }
}
