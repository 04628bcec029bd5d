// The dashboard: server-rendered pages (hono/jsx) over the same domain functions as the JSON
// API. Signing in with an account's admin credential opens a session (HttpOnly cookie); every
// form carries the session's CSRF token and every POST must come from this origin. One account
// never sees another's projects: every project page resolves the handle within the account.
import { Hono, type Context } from 'hono';
import type { JSX } from 'hono/jsx/jsx-runtime';
import * as v from 'valibot';
import { getAccount } from '../accounts/accounts.js';
import { adminGrant } from '../accounts/admin-credentials.js';
import { listProjectsOfAccount } from '../accounts/projects.js';
import { endSession, openSession, type Session, sessionOf } from '../accounts/sessions.js';
import { createToken, listTokens, revokeToken } from '../accounts/tokens.js';
import { deliveryLog } from '../alerts/delivery-log.js';
import { checkedWebhook, createWebhook, deleteWebhook, listWebhooks } from '../alerts/webhooks-store.js';
import type { TargetPolicy } from '../config/webhook-allow-list.js';
import type { Clock } from '../clock/clock.js';
import { RunId } from '../contract.js';
import type { DomainDeps } from '../domain/deps.js';
import { VerdictApiError } from '../errors/errors.js';
import { flakyTests } from '../flakiness/flaky-tests.js';
import { isUuid } from '../identity/uuid.js';
import { principalFor, type Principal } from '../accounts/principal.js';
import type { BodyCaps } from '../limits/body-caps.js';
import { incomingOf, readBody } from '../limits/read-body.js';
import { RateLimiter } from '../limits/rate-limit.js';
import { listQuarantine } from '../quarantine/list-quarantine.js';
import { setQuarantine } from '../quarantine/set-quarantine.js';
import { unquarantine } from '../quarantine/unquarantine.js';
import { rampPerDay } from '../ramp/ramp-per-day.js';
import { listRuns, runGateBadge } from '../run-page/list-runs.js';
import { runPage } from '../run-page/run-page.js';
import { settingsAudit, writeSettings } from '../settings/settings.js';
import { testCaseHistory } from '../test-case/test-case-history.js';
import { testCasePage } from '../test-case/test-case-page.js';
import { parseQuarantineWrite, parseSettingsPatch, parseWebhookCreate } from '../validation/parse-body.js';
import { FlakyTestsPage } from './flaky-tests-page.js';
import type { Frame } from './layout.js';
import { ProjectsPage } from './projects-page.js';
import { QuarantinePage } from './quarantine-page.js';
import { RampPage } from './ramp-page.js';
import { RunPageView } from './run-page.js';
import { RunsPage } from './runs-page.js';
import { clearSessionCookie, csrfMatches, sameOrigin, sessionSecret, setSessionCookie } from './session.js';
import { SettingsPage } from './settings-page.js';
import { MessagePage, SignInPage } from './sign-in-page.js';
import { STYLESHEET } from './style.js';
import { TestCasePageView } from './test-case-page.js';
import { TokensPage } from './tokens-page.js';
import { WebhooksPage } from './webhooks-page.js';

/** What the dashboard needs: the domain's dependencies, the clock, the migration gate. */
export interface DashboardDeps extends DomainDeps {
  clock: Clock;
  ready: () => Promise<void>;
  /** The public base URL, when the server sits behind a proxy (Origin checks). */
  publicUrl?: string;
  /** The largest forms read (signIn before a session, form after). */
  caps: Pick<BodyCaps, 'form' | 'signIn'>;
  /** Where webhooks may go (webhook-targets.ts). */
  webhookTargets: TargetPolicy;
}

type Env = { Variables: { session: Session; accountName: string } };

/** The dashboard's content security policy: its own stylesheet and forms, nothing else, never in a frame. */
export const CSP = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** Failed sign-ins per client address: 10 at once, then one more every 30 s. */
export const SIGN_IN_ATTEMPTS = 10;
const SIGN_IN_REFILL_PER_SECOND = 1 / 30;

/** The address the request came from (behind a proxy: the proxy's, so the limit is then shared). */
function clientAddress(c: Context): string {
  return incomingOf(c)?.socket.remoteAddress ?? 'unknown';
}

/** The dashboard's routes, mounted at `/`. */
export function dashboard(deps: DashboardDeps): Hono<Env> {
  const { db, clock } = deps;
  const web = new Hono<Env>();
  const signIns = new RateLimiter(SIGN_IN_ATTEMPTS, SIGN_IN_REFILL_PER_SECOND);
  const html = (c: Context, page: JSX.Element, status: 200 | 400 | 403 | 404 | 429 = 200) => c.html(`<!doctype html>${String(page)}`, status);

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
  /**
   * Reads a POST's form, at most `cap` bytes, into the request that parseBody reads: before
   * this, the caller is known (a session on its cookie) or the form is the small sign-in form.
   */
  const takeForm = async (c: Context, cap: number): Promise<Response | null> => {
    try {
      const bytes = await readBody(c, cap);
      c.req.raw = new Request(c.req.url, { method: c.req.method, headers: c.req.raw.headers, body: new Uint8Array(bytes) });
      return null;
    } catch (e) {
      if (e instanceof VerdictApiError && e.code === 'PAYLOAD_TOO_LARGE') return c.text('form too large', 413);
      throw e;
    }
  };
  web.use('*', async (_c, next) => {
    await deps.ready();
    await next();
  });

  web.get('/sign-in', (c) => html(c, <SignInPage />));
  web.post('/sign-in', async (c) => {
    if (!sameOrigin(c, deps.publicUrl)) return html(c, <SignInPage error="This form must be sent from the dashboard itself." />, 403);
    // A client address over its failed sign-ins is refused before its credential is looked at:
    // guessing gets no answer, right or wrong, until the window has passed.
    const client = clientAddress(c);
    const limit = signIns.peek(client);
    if (!limit.allowed) {
      c.header('Retry-After', String(limit.retryAfterSeconds));
      return html(c, <SignInPage error={`Too many failed sign-ins from your address; try again in ${limit.retryAfterSeconds} s.`} />, 429);
    }
    const refused = await takeForm(c, deps.caps.signIn);
    if (refused) return refused;
    const form = await c.req.parseBody();
    const credential = typeof form['credential'] === 'string' ? form['credential'].trim() : '';
    const grant = credential.startsWith('sga_') && credential.length < 200 ? await adminGrant(db, credential) : null;
    if (!grant) {
      signIns.take(client);
      return html(c, <SignInPage error="credential: not a valid admin credential." />, 400);
    }
    const { secret, session } = await openSession(db, grant, clock());
    setSessionCookie(c, secret, session.expiresAt, deps.publicUrl);
    return c.redirect('/projects', 303);
  });

  // Every other page needs a live session; every POST its CSRF token and this origin.
  web.use('*', async (c, next) => {
    const secret = sessionSecret(c);
    const session = secret && secret.length < 100 ? await sessionOf(db, secret, clock()) : null;
    if (!session) {
      if (secret) clearSessionCookie(c, deps.publicUrl);
      return c.redirect('/sign-in', 303);
    }
    const account = await getAccount(db, session.accountId);
    c.set('session', session);
    c.set('accountName', account?.name ?? 'account');
    if (c.req.method === 'POST') {
      const refused = await takeForm(c, deps.caps.form);
      if (refused) return refused;
      const form = await c.req.parseBody();
      if (!sameOrigin(c, deps.publicUrl) || !csrfMatches(form['csrf'], session.csrfToken)) {
        return html(c, <MessagePage title="Refused" message="csrf: this form was not sent from your dashboard session; reload the page and try again." />, 403);
      }
    }
    await next();
  });

  web.post('/sign-out', async (c) => {
    await endSession(db, sessionSecret(c)!, clock());
    clearSessionCookie(c, deps.publicUrl);
    return c.redirect('/sign-in', 303);
  });

  const frame = (c: Context<Env>, title: string, project?: string): Frame => ({
    title,
    account: c.get('accountName'),
    csrf: c.get('session').csrfToken,
    ...(project ? { project } : {}),
  });
  /** The signed-in account's project, or a 404 page (the same for another account's and for none). */
  const project = async (c: Context<Env>): Promise<Principal | Response> => {
    const s = c.get('session');
    try {
      return await principalFor(db, { kind: 'admin', accountId: s.accountId, credentialId: s.credentialId, actor: `admin:${s.credentialId}` }, c.req.param('project') ?? '');
    } catch (e) {
      if (e instanceof VerdictApiError && e.code === 'FORBIDDEN') return notFound(c, 'No such project in your account.');
      throw e;
    }
  };
  const notFound = (c: Context<Env>, message: string) => html(c, <MessagePage title="Not found" message={message} account={c.get('accountName')} csrf={c.get('session').csrfToken} />, 404);
  const form = async (c: Context<Env>) => (await c.req.parseBody()) as Record<string, string | File>;
  const text = (f: Record<string, string | File>, k: string): string => (typeof f[k] === 'string' ? (f[k] as string).trim() : '');
  const base = (p: Principal) => `/projects/${encodeURIComponent(p.project.handle)}`;

  web.get('/projects', async (c) => {
    const s = c.get('session');
    const [projects, account] = await Promise.all([listProjectsOfAccount(db, s.accountId), getAccount(db, s.accountId)]);
    return html(c, <ProjectsPage frame={frame(c, 'Projects')} projects={projects} entitled={account?.stressGateEntitled ?? false} />);
  });

  web.get('/projects/:project/runs', async (c) => {
    const p = await project(c);
    if (p instanceof Response) return p;
    return html(c, <RunsPage frame={frame(c, 'Runs', p.project.handle)} runs={await listRuns(db, p.project)} />);
  });

  web.get('/projects/:project/runs/:runId', async (c) => {
    const p = await project(c);
    if (p instanceof Response) return p;
    const runId = c.req.param('runId');
    if (!v.is(RunId, runId)) return notFound(c, 'No such run.');
    try {
      const page = await runPage(db, p.project, runId);
      return html(c, <RunPageView frame={frame(c, `Run ${runId}`, p.project.handle)} page={page} badge={await runGateBadge(db, p.project, runId)} stress={p.project.stress} />);
    } catch (e) {
      if (e instanceof VerdictApiError && e.code === 'NOT_FOUND') return notFound(c, 'No such run in this project.');
      throw e;
    }
  });

  const testCaseView = async (c: Context<Env>, p: Principal, id: string, extra: { notice?: string } = {}, status: 200 | 400 = 200) => {
    const [page, history] = await Promise.all([testCasePage(db, p.project, id, clock()), testCaseHistory(db, p.project, id)]);
    return html(c, <TestCasePageView frame={frame(c, `${page.suite}.${page.name}`, p.project.handle)} page={page} history={history} {...extra} />, status);
  };
  web.get('/projects/:project/test-cases/:testCaseId', async (c) => {
    const p = await project(c);
    if (p instanceof Response) return p;
    const id = c.req.param('testCaseId');
    if (!isUuid(id)) return notFound(c, 'No such test case.');
    try {
      return await testCaseView(c, p, id);
    } catch (e) {
      if (e instanceof VerdictApiError && e.code === 'NOT_FOUND') return notFound(c, 'No such test case in this project.');
      throw e;
    }
  });
  web.post('/projects/:project/test-cases/:testCaseId/quarantine', async (c) => {
    const p = await project(c);
    if (p instanceof Response) return p;
    const id = c.req.param('testCaseId');
    if (!isUuid(id)) return notFound(c, 'No such test case.');
    const f = await form(c);
    const now = clock();
    try {
      const page = await testCasePage(db, p.project, id, now);
      if (text(f, 'action') === 'unquarantine') {
        await unquarantine(deps, p.project, id, text(f, 'reason') || undefined, p.actor, now);
      } else {
        const expires = text(f, 'expiresAt');
        const body = parseQuarantineWrite({
          state: text(f, 'state'),
          owner: text(f, 'owner'),
          reason: text(f, 'reason'),
          issueUrl: text(f, 'issueUrl') || null,
          expiresAt: expires ? `${expires.length === 16 ? `${expires}:00` : expires}Z` : null,
        });
        const identity = { module: page.module, suite: page.suite, name: page.name };
        await setQuarantine(deps, p.project, { ...identity, testCaseId: id, state: body.state, owner: body.owner, reason: body.reason, issueUrl: body.issueUrl, expiresAt: body.expiresAt ? new Date(body.expiresAt) : null }, p.actor, now);
      }
    } catch (e) {
      if (e instanceof VerdictApiError && e.code === 'BAD_REQUEST') return testCaseView(c, p, id, { notice: `Not changed: ${e.message}` }, 400);
      if (e instanceof VerdictApiError && e.code === 'NOT_FOUND') return notFound(c, e.message);
      throw e;
    }
    return c.redirect(`${base(p)}/test-cases/${id}`, 303);
  });

  web.get('/projects/:project/flaky-tests', async (c) => {
    const p = await project(c);
    if (p instanceof Response) return p;
    const r = await flakyTests(db, p.project, clock());
    return html(c, <FlakyTestsPage frame={frame(c, 'Flaky tests', p.project.handle)} windowDays={r.windowDays} tests={r.tests} />);
  });

  web.get('/projects/:project/quarantine', async (c) => {
    const p = await project(c);
    if (p instanceof Response) return p;
    const r = await listQuarantine(db, p.project.projectId, clock(), { limit: 1000, cursor: null });
    return html(c, <QuarantinePage frame={frame(c, 'Quarantine', p.project.handle)} tests={r.tests} />);
  });

  const settingsView = async (c: Context<Env>, p: Principal, extra: { error?: string; notice?: string } = {}, status: 200 | 400 = 200) =>
    html(c, <SettingsPage frame={frame(c, 'Settings', p.project.handle)} project={p.project} entitled={p.account.stressGateEntitled} audit={await settingsAudit(db, p.project.projectId)} {...extra} />, status);
  web.get('/projects/:project/settings', async (c) => {
    const p = await project(c);
    if (p instanceof Response) return p;
    return settingsView(c, p);
  });
  web.post('/projects/:project/settings', async (c) => {
    const p = await project(c);
    if (p instanceof Response) return p;
    const f = await form(c);
    const number = (k: string) => (text(f, k) === '' ? undefined : Number(text(f, k)));
    try {
      let curve: unknown;
      try {
        curve = JSON.parse(text(f, 'curve') || 'null') ?? undefined;
      } catch {
        throw new VerdictApiError('BAD_REQUEST', 'stress.curve: not valid JSON', 'stress.curve');
      }
      const patch = parseSettingsPatch({
        defaultBranch: text(f, 'defaultBranch') || null,
        flakyPolicy: { autoMarkFlaky: f['autoMarkFlaky'] === '1', autoMarkThreshold: number('autoMarkThreshold'), cooldownDays: number('cooldownDays'), autoQuarantine: f['autoQuarantine'] === '1' },
        stress: { candidateCap: number('candidateCap'), ceilingSeconds: number('ceilingSeconds'), bulkChangeRatio: number('bulkChangeRatio'), bulkChangeFloor: number('bulkChangeFloor'), curve },
      });
      const next = await writeSettings(db, p.project, patch, p.actor, clock());
      return settingsView(c, { ...p, project: next }, { notice: 'Settings saved.' });
    } catch (e) {
      if (e instanceof VerdictApiError && e.code === 'BAD_REQUEST') return settingsView(c, p, { error: `Not saved: ${e.message}` }, 400);
      throw e;
    }
  });

  const webhooksView = async (c: Context<Env>, p: Principal, error?: string) => {
    const [webhooks, deliveries] = await Promise.all([listWebhooks(db, p.project.projectId), deliveryLog(db, p.project.projectId, 100)]);
    return html(c, <WebhooksPage frame={frame(c, 'Webhooks', p.project.handle)} webhooks={webhooks} deliveries={deliveries} {...(error ? { error } : {})} />, error ? 400 : 200);
  };
  web.get('/projects/:project/webhooks', async (c) => {
    const p = await project(c);
    if (p instanceof Response) return p;
    return webhooksView(c, p);
  });
  web.post('/projects/:project/webhooks', async (c) => {
    const p = await project(c);
    if (p instanceof Response) return p;
    const f = await form(c);
    try {
      const input = parseWebhookCreate({ url: text(f, 'url'), secret: typeof f['secret'] === 'string' ? f['secret'] : '' });
      await createWebhook(db, p.project.projectId, await checkedWebhook(input, deps.webhookTargets), clock());
    } catch (e) {
      if (e instanceof VerdictApiError && (e.code === 'BAD_REQUEST' || e.code === 'CONFLICT')) return webhooksView(c, p, `Not added: ${e.message}`);
      throw e;
    }
    return c.redirect(`${base(p)}/webhooks`, 303);
  });
  web.post('/projects/:project/webhooks/:webhookId/delete', async (c) => {
    const p = await project(c);
    if (p instanceof Response) return p;
    const id = c.req.param('webhookId');
    if (!isUuid(id)) return notFound(c, 'No such webhook.');
    await deleteWebhook(db, p.project.projectId, id);
    return c.redirect(`${base(p)}/webhooks`, 303);
  });

  web.get('/projects/:project/tokens', async (c) => {
    const p = await project(c);
    if (p instanceof Response) return p;
    return html(c, <TokensPage frame={frame(c, 'Tokens', p.project.handle)} tokens={await listTokens(db, p.project.projectId)} />);
  });
  web.post('/projects/:project/tokens', async (c) => {
    const p = await project(c);
    if (p instanceof Response) return p;
    const f = await form(c);
    const name = text(f, 'name').slice(0, 256) || 'ci';
    const scope = text(f, 'scope');
    if (scope !== 'default-branch' && scope !== 'merge-request') {
      return html(c, <TokensPage frame={frame(c, 'Tokens', p.project.handle)} tokens={await listTokens(db, p.project.projectId)} error="scope: choose what the token is for: merge requests or the default branch." />, 400);
    }
    let created: Awaited<ReturnType<typeof createToken>>;
    try {
      created = await createToken(db, p.project.projectId, name, scope);
    } catch (e) {
      if (e instanceof VerdictApiError && e.code === 'CONFLICT') return html(c, <TokensPage frame={frame(c, 'Tokens', p.project.handle)} tokens={await listTokens(db, p.project.projectId)} error={`Not created: ${e.message}`} />, 400);
      throw e;
    }
    // Shown once, on this response; never again.
    return html(c, <TokensPage frame={frame(c, 'Tokens', p.project.handle)} tokens={await listTokens(db, p.project.projectId)} created={created} />);
  });
  web.post('/projects/:project/tokens/:tokenId/revoke', async (c) => {
    const p = await project(c);
    if (p instanceof Response) return p;
    const id = c.req.param('tokenId');
    if (!isUuid(id)) return notFound(c, 'No such token.');
    try {
      await revokeToken(db, p.project.projectId, id);
    } catch (e) {
      if (e instanceof VerdictApiError && e.code === 'NOT_FOUND') return notFound(c, 'No such token in this project.');
      throw e;
    }
    return c.redirect(`${base(p)}/tokens`, 303);
  });

  web.get('/projects/:project/ramp', async (c) => {
    const p = await project(c);
    if (p instanceof Response) return p;
    return html(c, <RampPage frame={frame(c, 'Ramp', p.project.handle)} days={await rampPerDay(db, p.project, clock())} />);
  });

  return web;
}
