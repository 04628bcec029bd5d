// Which dashboard pages need a session is decided by where they are added, not by the order they
// are added in (web/signed-in.tsx): a page added to the signed-in pages after everything else is
// still behind the session guard, one added to the dashboard's app is public, and every page of
// the whole app but the public ones sends a request without a session to sign-in (embedded chDB).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { accountUsageStore } from '../../src/accounts/account-usage.js';
import { noNotifier } from '../../src/alerts/alert-event.js';
import { systemClock } from '../../src/clock/clock.js';
import { PUBLIC_ONLY } from '../../src/config/webhook-allow-list.js';
import { DEFAULT_BODY_CAPS } from '../../src/limits/body-caps.js';
import { STORAGE_QUOTA } from '../../src/limits/storage-quota.js';
import { StorageQuotas } from '../../src/limits/storage-usage.js';
import { silentLogger } from '../../src/log/logger.js';
import { type Dashboard, dashboardRoutes } from '../../src/web/dashboard.js';
import { type ProjectHandle, seedProject, testApp } from '../support/api.js';
import { openTestDatabase, type TestDatabase } from '../support/engines.js';

/** The dashboard's routes a request without a session may reach (besides the JSON API's). */
const PUBLIC = ['GET /', 'GET /static/style.css', 'GET /sign-in', 'POST /sign-in', 'GET /healthz', 'GET /readyz'];

let t: TestDatabase;
let p: ProjectHandle;
let dashboard: Dashboard;
let cookie: string;

beforeAll(async () => {
  t = await openTestDatabase('embedded');
  p = await seedProject(t.db, 'access');
  dashboard = dashboardRoutes({
    db: t.db,
    log: silentLogger(),
    notifier: noNotifier,
    clock: systemClock,
    ready: async () => {},
    caps: DEFAULT_BODY_CAPS,
    webhookTargets: PUBLIC_ONLY,
    storage: new StorageQuotas(STORAGE_QUOTA, accountUsageStore(t.db)),
  });
  // Added after every page and the sign-in routes: where they go decides, not when.
  dashboard.pages.get('/late-page', (c) => c.text(`late page of ${c.get('session').role}`));
  dashboard.pages.post('/late-form', (c) => c.text('late form sent'));
  dashboard.web.get('/late-public', (c) => c.text('late public page'));
  const signIn = await dashboard.web.request('/sign-in', {
    method: 'POST',
    headers: { Origin: 'http://localhost', 'Content-Type': 'application/x-www-form-urlencoded' },
    body: `credential=${encodeURIComponent(p.admin)}`,
  });
  expect(signIn.status).toBe(303);
  cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe("the dashboard's signed-in pages", () => {
  it('guards a page added to the signed-in pages after everything else', async () => {
    const res = await dashboard.web.request('/late-page?x=1');
    expect([res.status, res.headers.get('location')]).toEqual([303, `/sign-in?next=${encodeURIComponent('/late-page?x=1')}`]);
    const signedIn = await dashboard.web.request('/late-page', { headers: { Cookie: cookie } });
    expect([signedIn.status, await signedIn.text()]).toEqual([200, 'late page of admin']);
    expect((await dashboard.web.request('/late-page', { headers: { Cookie: 'sg_session=forged' } })).status).toBe(303);
  });

  it("checks a late form's session, origin and CSRF token", async () => {
    const form = (headers: Record<string, string>, body: string) =>
      dashboard.web.request('/late-form', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers }, body });
    const anonymous = await form({ Origin: 'http://localhost' }, 'csrf=x');
    expect([anonymous.status, anonymous.headers.get('location')]).toEqual([303, '/sign-in']);
    expect((await form({ Origin: 'http://localhost', Cookie: cookie }, 'csrf=wrong')).status).toBe(403);
    const page = await (await dashboard.web.request(`/projects/${p.handle}/settings`, { headers: { Cookie: cookie } })).text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!;
    expect((await form({ Origin: 'https://elsewhere.example', Cookie: cookie }, `csrf=${csrf}`)).status).toBe(403);
    const sent = await form({ Origin: 'http://localhost', Cookie: cookie }, `csrf=${csrf}`);
    expect([sent.status, await sent.text()]).toEqual([200, 'late form sent']);
  });

  it('leaves a page added to the dashboard app itself public, before a session or after', async () => {
    const res = await dashboard.web.request('/late-public');
    expect([res.status, await res.text()]).toEqual([200, 'late public page']);
    expect((await dashboard.web.request('/sign-in')).status).toBe(200);
    expect((await dashboard.web.request('/static/style.css')).status).toBe(200);
  });

  it('sends every page of the app but the public ones to sign-in without a session', async () => {
    const { app } = testApp(t.db);
    const pages = new Set(
      app.routes
        .filter((r) => (r.method === 'GET' || r.method === 'POST') && !r.path.startsWith('/api/'))
        .map((r) => `${r.method} ${r.path}`)
        .filter((route) => !PUBLIC.includes(route)),
    );
    expect(pages.size).toBeGreaterThan(20);
    for (const route of pages) {
      const [method, path] = route.split(' ') as [string, string];
      const url = path.replace(/:\w+/g, 'x');
      const res = await app.request(url, { method, headers: { Origin: 'http://localhost', 'Content-Type': 'application/x-www-form-urlencoded' }, ...(method === 'POST' ? { body: 'csrf=x' } : {}) });
      expect([route, res.status, res.headers.get('location')?.replace(/\?next=.*/, '')]).toEqual([route, 303, '/sign-in']);
    }
    // A path no page has: the same 404 with a session or without.
    for (const headers of [{}, { Cookie: cookie }] as Record<string, string>[]) expect((await app.request('/projects/x/no-such-page', { headers })).status).toBe(404);
    for (const route of PUBLIC.filter((r) => r.startsWith('GET '))) {
      expect([route, (await app.request(route.slice(4))).status]).toEqual([route, route === 'GET /' ? 303 : 200]);
    }
  });
});
