// The dashboard: server-rendered pages (hono/jsx) over the same domain functions as the JSON
// API, one route module per page or area. Signing in opens a session (session-routes.tsx) that
// every signed-in page needs: the route modules add their pages to SignedInPages (signed-in.tsx),
// never to the app itself, so each page is behind the session guard by where it is added. One
// account never sees another's projects: every project page resolves the handle within the
// account (respond.tsx).
import { Hono } from 'hono';
import { flakyTestsRoutes } from './flaky-tests-routes.js';
import { projectsRoutes } from './projects-routes.js';
import { quarantineRoutes } from './quarantine-routes.js';
import { rampRoutes } from './ramp-routes.js';
import { runsRoutes } from './runs-routes.js';
import { searchRoutes } from './search-routes.js';
import { sessionRoutes } from './session-routes.js';
import { settingsRoutes } from './settings-routes.js';
import { type SignedInPages, signedInPages } from './signed-in.js';
import { STYLESHEET } from './style.js';
import { testCaseRoutes } from './test-case-routes.js';
import { tokensRoutes } from './tokens-routes.js';
import { viewersRoutes } from './viewers-routes.js';
import type { DashboardDeps, WebEnv } from './web-env.js';
import { webhooksRoutes } from './webhooks-routes.js';

/** The dashboard's content security policy: its own stylesheet and forms, nothing else, never in a frame. */
export const CSP = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** The dashboard: its app (public routes: the stylesheet, `/`, sign-in) and its signed-in pages (each behind the session guard). */
export interface Dashboard {
  web: Hono<WebEnv>;
  pages: SignedInPages;
}

/** The dashboard's routes, mounted at `/`. */
export const dashboard = (deps: DashboardDeps): Hono<WebEnv> => dashboardRoutes(deps).web;

/** The dashboard's app and its signed-in pages, with every page added. */
export function dashboardRoutes(deps: DashboardDeps): Dashboard {
  const web = new Hono<WebEnv>();
  const pages = signedInPages(web, deps);

  // Every page: no script and no inline style anywhere, forms post to this origin only, never
  // framed (clickjacking), never sniffed, never kept by a cache (pages show a project's data, one
  // shows a new token).
  web.use('*', async (c, next) => {
    await next();
    c.res.headers.set('X-Content-Type-Options', 'nosniff');
    if (c.res.headers.get('content-type')?.startsWith('text/html')) {
      c.res.headers.set('Content-Security-Policy', CSP);
      c.res.headers.set('X-Frame-Options', 'DENY');
      c.res.headers.set('Referrer-Policy', 'same-origin');
      c.res.headers.set('Cache-Control', 'no-store');
    }
  });
  web.get('/static/style.css', (c) => c.body(STYLESHEET, 200, { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'max-age=300' }));
  web.get('/', (c) => c.redirect('/projects', 303));
  web.use('*', async (_c, next) => {
    await deps.ready();
    await next();
  });

  sessionRoutes(web, pages, deps);
  projectsRoutes(pages, deps);
  runsRoutes(pages, deps);
  testCaseRoutes(pages, deps);
  searchRoutes(pages, deps);
  flakyTestsRoutes(pages, deps);
  quarantineRoutes(pages, deps);
  settingsRoutes(pages, deps);
  webhooksRoutes(pages, deps);
  tokensRoutes(pages, deps);
  viewersRoutes(pages, deps);
  rampRoutes(pages, deps);
  return { web, pages };
}
