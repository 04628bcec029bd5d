// Viewer credentials (issue 36) on both engines: read access to one project for its developers,
// without the account's admin credential. An admin issues, lists and revokes them (audited); a
// viewer reads runs, test cases and flaky tests through the API and the dashboard; every write is
// 403 (API routes and dashboard forms); a viewer of one project sees nothing of another, nor of
// another account; revoking ends its API access and its sessions; a CI token never signs in; and
// sign-in lands on the page asked for, never on another origin.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createProject } from '../../src/accounts/projects.js';
import { createApp } from '../../src/http/app.js';
import { silentLogger } from '../../src/log/logger.js';
import { type ProjectHandle, run, seedProject, testApp } from '../support/api.js';
import { ENGINES, openTestDatabase, type TestDatabase } from '../support/engines.js';

const ORIGIN = 'http://localhost';
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
/** The gate of a merge request whose new test disagreed with itself: blocked. */
const blockedGate = {
  mode: 'enforce', outcome: 'failed', candidatesExamined: 1, stressed: 1, excluded: 0, guard: null, blocked: true, wouldHaveBlocked: true,
  testCases: [{ module: ':app', suite: 'com.shop.CheckoutTest', name: 'appliesDiscount', outcome: 'failed', repetitions: Array.from({ length: 10 }, (_, i) => ({ repetition: i + 1, status: i === 2 ? 'failure' : 'success', durationMs: 40 })) }],
};
/** `next` values a link could carry to send a person elsewhere once signed in. */
const HOSTILE_NEXT = ['https://evil.example/', '//evil.example/', '/\\evil.example', '/\t/evil.example', '/.//evil.example', '/%2e//evil.example', 'javascript:alert(1)', '/api/v1/projects/x/settings'];

describe.each(ENGINES)('viewer credentials on %s', (kind) => {
  let t: TestDatabase;
  let a: ProjectHandle;
  let bHandle: string;
  let other: ProjectHandle;
  let api: ReturnType<typeof testApp>;
  let viewer: { viewerId: string; credential: string };
  let testCaseId: string;

  /** A dashboard request with a session cookie (and this origin on a POST). */
  const page = (path: string, cookie: string, init: { method?: string; body?: string } = {}) =>
    api.app.request(path, { ...init, headers: { cookie: `sg_session=${cookie}`, ...(init.body !== undefined ? { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' } : {}) } });
  const signIn = (fields: Record<string, string>) =>
    api.app.request('/sign-in', { method: 'POST', headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' }, body: form(fields) });
  const cookieOf = (res: Response) => /sg_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1] ?? null;
  const csrfOf = async (res: Response) => /name="csrf" value="([^"]+)"/.exec(await res.text())![1]!;

  beforeAll(async () => {
    t = await openTestDatabase(kind);
    a = await seedProject(t.db, `view-a-${kind}`);
    bHandle = (await createProject(t.db, { accountId: a.accountId, handle: `view-b-${kind}`, defaultBranch: 'main' })).handle;
    other = await seedProject(t.db, `view-other-${kind}`);
    api = testApp(t.db);
    expect((await api.call('POST', `/api/v1/projects/${a.handle}/runs`, a.token, run('mr-1', ['appliesDiscount'], { branch: 'feature/discount' }))).status).toBe(201);
    expect((await api.call('POST', `/api/v1/projects/${a.handle}/runs/mr-1/gate`, a.token, blockedGate)).status).toBe(201);
    const b = await api.call('POST', `/api/v1/accounts/${a.accountId}/projects`, a.admin, { handle: `view-b2-${kind}` });
    expect(b.status).toBe(201);
    expect((await api.call('POST', `/api/v1/projects/${other.handle}/runs`, other.token, run('other-1', ['secret']))).status).toBe(201);
    const created = await api.call('POST', `/api/v1/projects/${a.handle}/viewers`, a.admin, { name: 'team-checkout' });
    expect(created.status).toBe(201);
    viewer = created.body as typeof viewer;
    testCaseId = (await api.call('GET', `/api/v1/projects/${a.handle}/runs/mr-1`, a.admin)).body!.testCases[0].testCaseId;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('is issued, listed and revoked by an admin only, each change audited, and shown once', async () => {
    expect(viewer.credential).toMatch(/^sgv_[A-Za-z0-9_-]{43}$/);
    const list = await api.call('GET', `/api/v1/projects/${a.handle}/viewers`, a.admin);
    expect(list.body!.viewers).toEqual([expect.objectContaining({ viewerId: viewer.viewerId, name: 'team-checkout', revoked: false })]);
    expect(JSON.stringify(list.body)).not.toContain(viewer.credential);
    for (const token of [a.token, viewer.credential, other.admin]) {
      expect((await api.call('POST', `/api/v1/projects/${a.handle}/viewers`, token, {})).status).toBe(403);
      expect((await api.call('GET', `/api/v1/projects/${a.handle}/viewers`, token)).status).toBe(403);
    }
    const spare = await api.call('POST', `/api/v1/projects/${a.handle}/viewers`, a.admin, {});
    expect((await api.call('DELETE', `/api/v1/projects/${a.handle}/viewers/${spare.body!.viewerId}`, a.token)).status).toBe(403);
    expect((await api.call('DELETE', `/api/v1/projects/${other.handle}/viewers/${spare.body!.viewerId}`, other.admin)).status).toBe(404);
    const revoked = await api.call('DELETE', `/api/v1/projects/${a.handle}/viewers/${spare.body!.viewerId}`, a.admin);
    expect(revoked.body).toMatchObject({ viewerId: spare.body!.viewerId, name: 'viewer', revoked: true });
    const audit = await api.call('GET', `/api/v1/projects/${a.handle}/access-audit?kind=viewer`, a.admin);
    const adminActor = expect.stringMatching(/^admin:[0-9a-f-]{36}$/);
    expect(audit.body!.changes).toEqual([
      expect.objectContaining({ action: 'revoked', kind: 'viewer', id: spare.body!.viewerId, actor: adminActor }),
      expect.objectContaining({ action: 'created', kind: 'viewer', id: spare.body!.viewerId, actor: adminActor }),
      expect.objectContaining({ action: 'created', kind: 'viewer', id: viewer.viewerId, name: 'team-checkout', actor: adminActor }),
    ]);
    // CI tokens are audited the same way.
    const token = await api.call('POST', `/api/v1/projects/${a.handle}/tokens`, a.admin, { name: 'gl', scope: 'merge-request' });
    const tokens = await api.call('GET', `/api/v1/projects/${a.handle}/access-audit?kind=token`, a.admin);
    expect(tokens.body!.changes[0]).toMatchObject({ action: 'created', kind: 'token', id: token.body!.tokenId, name: 'gl', scope: 'merge-request', actor: adminActor });
  });

  it('reads the runs, the run page and its report, test cases, flaky tests, the quarantine list and the ramp', async () => {
    const base = `/api/v1/projects/${a.handle}`;
    for (const path of ['/runs', '/runs/mr-1', '/runs/mr-1/report.md', `/test-cases/${testCaseId}`, '/flaky-tests', '/quarantine', '/ramp']) {
      expect([path, (await api.call('GET', `${base}${path}`, viewer.credential)).status]).toEqual([path, 200]);
    }
    expect((await api.call('GET', `${base}/runs/mr-1`, viewer.credential)).body!.gate).toMatchObject({ blocked: true });
  });

  it('changes nothing: every write, upload and admin read answers 403, and nothing changed', async () => {
    const base = `/api/v1/projects/${a.handle}`;
    const identity = { module: ':app', suite: 'com.shop.CheckoutTest', name: 'appliesDiscount' };
    const attempts: [string, string, unknown?][] = [
      ['GET', `${base}/settings`], ['PATCH', `${base}/settings`, { stress: { candidateCap: 1 } }], ['GET', `${base}/settings/audit`],
      ['POST', `${base}/quarantine`, { ...identity, state: 'muted', owner: 'dev', reason: 'r' }], ['PUT', `${base}/quarantine/${testCaseId}`, { state: 'skipped', owner: 'dev', reason: 'r' }], ['DELETE', `${base}/quarantine/${testCaseId}`],
      ['GET', `${base}/tokens`], ['POST', `${base}/tokens`, { scope: 'default-branch' }], ['DELETE', `${base}/tokens/00000000-0000-4000-8000-000000000001`],
      ['GET', `${base}/webhooks`], ['POST', `${base}/webhooks`, { url: 'https://hooks.example.com/x', secret: 's'.repeat(20) }], ['DELETE', `${base}/webhooks/00000000-0000-4000-8000-000000000001`],
      ['GET', `${base}/viewers`], ['POST', `${base}/viewers`, {}], ['DELETE', `${base}/viewers/${viewer.viewerId}`], ['GET', `${base}/access-audit`],
      ['POST', `${base}/runs`, run('viewer-run', ['x'], { branch: 'feature/v' })], ['POST', `${base}/runs/mr-1/gate`, blockedGate], ['POST', `${base}/verdict`, { testCases: [{ ...identity, durationMs: 1 }] }],
      ['POST', `/api/v1/accounts/${a.accountId}/projects`, { handle: `viewer-made-${kind}` }], ['GET', `/api/v1/accounts/${a.accountId}/projects`],
      ['POST', '/api/v1/admin/accounts', { name: 'mine' }],
    ];
    for (const [method, path, body] of attempts) {
      const res = await api.call(method, path, viewer.credential, body);
      expect([method, path, res.status]).toEqual([method, path, 403]);
    }
    expect((await api.call('GET', `${base}/settings`, a.admin)).body!.stress.candidateCap).toBe(200);
    expect((await api.call('GET', `${base}/quarantine`, a.admin)).body!.tests).toEqual([]);
    expect((await api.call('GET', `${base}/viewers`, a.admin)).body!.viewers.find((v: { viewerId: string }) => v.viewerId === viewer.viewerId).revoked).toBe(false);
    expect((await api.call('GET', `${base}/runs/viewer-run`, a.admin)).status).toBe(404);
  });

  it('sees nothing of another project of its account, nor of another account: the same 403 as a project that does not exist', async () => {
    const none = await api.call('GET', '/api/v1/projects/no-such-project/runs', viewer.credential);
    expect(none.status).toBe(403);
    for (const path of [`/api/v1/projects/${bHandle}/runs`, `/api/v1/projects/view-b2-${kind}/flaky-tests`, `/api/v1/projects/${other.handle}/runs/other-1`, `/api/v1/projects/${other.handle}/quarantine`]) {
      const res = await api.call('GET', path, viewer.credential);
      expect([path, res.status, res.body!.error.code]).toEqual([path, 403, 'FORBIDDEN']);
      expect(JSON.stringify(res.body)).not.toContain('secret');
    }
    // The dashboard: its one project listed; the others are the one 404 page.
    const cookie = cookieOf(await signIn({ credential: viewer.credential }))!;
    const projects = await (await page('/projects', cookie)).text();
    expect(projects).toContain(`>${a.handle}</a>`);
    expect(projects).not.toContain(bHandle);
    expect(projects).not.toContain(`view-b2-${kind}`);
    for (const path of [`/projects/${bHandle}/runs`, `/projects/${other.handle}/runs/other-1`, '/projects/no-such-project/runs']) {
      const res = await page(path, cookie);
      expect([path, res.status]).toEqual([path, 404]);
      expect(await res.text()).toContain('No such project for your viewer credential.');
    }
  });

  it('signs in to the dashboard, reads its pages, and every form and admin page answers 403', async () => {
    const signedIn = await signIn({ credential: viewer.credential });
    expect([signedIn.status, signedIn.headers.get('location')]).toEqual([303, `/projects/${a.handle}/runs`]);
    const cookie = cookieOf(signedIn)!;
    const p = `/projects/${a.handle}`;
    const runPage = await page(`${p}/runs/mr-1`, cookie);
    expect(runPage.status).toBe(200);
    const runHtml = await runPage.text();
    expect(runHtml).toContain('(viewer)');
    expect(runHtml).not.toContain(`href="${p}/settings"`);
    const testCase = await page(`${p}/test-cases/${testCaseId}`, cookie);
    const testCaseHtml = await testCase.text();
    expect(testCaseHtml).toContain('signed in as a viewer');
    expect(testCaseHtml).not.toMatch(/<form[^>]*\/test-cases\/[^"]*\/quarantine"/);
    for (const path of ['/runs', '/flaky-tests', '/quarantine', '/ramp']) expect([path, (await page(`${p}${path}`, cookie)).status]).toEqual([path, 200]);
    for (const path of ['/settings', '/webhooks', '/tokens', '/viewers']) {
      const res = await page(`${p}${path}`, cookie);
      expect([path, res.status]).toEqual([path, 403]);
      expect(await res.text()).toContain('You are signed in with a viewer credential');
    }
    const csrf = await csrfOf(await page(`${p}/runs`, cookie));
    const forms: [string, Record<string, string>][] = [
      ['/settings', { defaultBranch: 'evil', candidateCap: '1' }],
      [`/test-cases/${testCaseId}/quarantine`, { action: 'quarantine', state: 'muted', owner: 'dev', reason: 'r' }],
      ['/tokens', { name: 'mine', scope: 'default-branch' }],
      ['/tokens/00000000-0000-4000-8000-000000000001/revoke', {}],
      ['/webhooks', { url: 'https://hooks.example.com/x', secret: 's'.repeat(20) }],
      ['/viewers', { name: 'mine' }],
      [`/viewers/${viewer.viewerId}/revoke`, {}],
    ];
    for (const [path, fields] of forms) {
      const res = await page(`${p}${path}`, cookie, { method: 'POST', body: form({ csrf, ...fields }) });
      expect([path, res.status]).toEqual([path, 403]);
    }
    const settings = (await api.call('GET', `/api/v1/projects/${a.handle}/settings`, a.admin)).body!;
    expect([settings.defaultBranch, settings.stress.candidateCap]).toEqual(['main', 200]);
    expect((await api.call('GET', `/api/v1/projects/${a.handle}/quarantine`, a.admin)).body!.tests).toEqual([]);
    expect((await api.call('GET', `/api/v1/projects/${a.handle}/tokens`, a.admin)).body!.tokens.map((x: { name: string }) => x.name)).not.toContain('mine');
    // Its sign-out is a form like any other: the CSRF token is needed.
    expect((await page('/sign-out', cookie, { method: 'POST', body: form({ csrf: 'forged' }) })).status).toBe(403);
    expect((await page('/sign-out', cookie, { method: 'POST', body: form({ csrf }) })).status).toBe(303);
    expect((await page(`${p}/runs`, cookie)).status).toBe(303);
  });

  it('never signs in with a CI token, of either scope', async () => {
    const mr = await api.call('POST', `/api/v1/projects/${a.handle}/tokens`, a.admin, { scope: 'merge-request' });
    for (const credential of [a.token, mr.body!.token as string]) {
      const res = await signIn({ credential });
      expect(res.status).toBe(400);
      expect(cookieOf(res)).toBeNull();
      expect(await res.text()).toContain('a CI token cannot sign in');
    }
  });

  it('lands on the page asked for after sign-in, and never off this origin', async () => {
    const asked = `/projects/${a.handle}/runs/mr-1`;
    const signedOut = await api.app.request(asked);
    expect([signedOut.status, signedOut.headers.get('location')]).toEqual([303, `/sign-in?next=${encodeURIComponent(asked)}`]);
    const signInPage = await (await api.app.request(signedOut.headers.get('location')!)).text();
    expect(signInPage).toContain(`<input type="hidden" name="next" value="${asked}"/>`);
    const landed = await signIn({ credential: viewer.credential, next: asked });
    expect([landed.status, landed.headers.get('location')]).toEqual([303, asked]);
    // An admin lands there too.
    expect((await signIn({ credential: a.admin, next: asked })).headers.get('location')).toBe(asked);
    for (const next of HOSTILE_NEXT) {
      const res = await signIn({ credential: viewer.credential, next });
      expect([next, res.status, res.headers.get('location')]).toEqual([next, 303, `/projects/${a.handle}/runs`]);
      const html = await (await api.app.request(`/sign-in?next=${encodeURIComponent(next)}`)).text();
      expect([next, html.includes('name="next"')]).toEqual([next, false]);
    }
    // A failed sign-in keeps the page asked for, and only that.
    const failed = await signIn({ credential: 'sgv_wrong', next: asked });
    expect(await failed.text()).toContain(`name="next" value="${asked}"`);
  });

  it('ends its API access and its dashboard sessions the moment it is revoked', async () => {
    const doomed = (await api.call('POST', `/api/v1/projects/${a.handle}/viewers`, a.admin, { name: 'leaver' })).body as { viewerId: string; credential: string };
    const cookie = cookieOf(await signIn({ credential: doomed.credential }))!;
    expect((await page(`/projects/${a.handle}/runs/mr-1`, cookie)).status).toBe(200);
    expect((await api.call('GET', `/api/v1/projects/${a.handle}/runs/mr-1`, doomed.credential)).status).toBe(200);
    // Revoked from the admin's own dashboard page, with its form.
    const adminCookie = cookieOf(await signIn({ credential: a.admin }))!;
    const viewersPage = await page(`/projects/${a.handle}/viewers`, adminCookie);
    const csrf = await csrfOf(viewersPage);
    const revoked = await page(`/projects/${a.handle}/viewers/${doomed.viewerId}/revoke`, adminCookie, { method: 'POST', body: form({ csrf }) });
    expect(revoked.status).toBe(303);
    expect((await api.call('GET', `/api/v1/projects/${a.handle}/runs/mr-1`, doomed.credential)).status).toBe(401);
    const after = await page(`/projects/${a.handle}/runs/mr-1`, cookie);
    expect([after.status, after.headers.get('location')]).toEqual([303, `/sign-in?next=${encodeURIComponent(`/projects/${a.handle}/runs/mr-1`)}`]);
    expect((await signIn({ credential: doomed.credential })).status).toBe(400);
    const audit = (await api.call('GET', `/api/v1/projects/${a.handle}/access-audit?kind=viewer`, a.admin)).body!.changes;
    expect(audit[0]).toMatchObject({ action: 'revoked', id: doomed.viewerId, name: 'leaver' });
  });
});

describe('viewer sessions keep the dashboard protections', () => {
  let t: TestDatabase;
  let a: ProjectHandle;
  let credential: string;
  beforeAll(async () => {
    t = await openTestDatabase('embedded');
    a = await seedProject(t.db, 'view-protected');
    credential = (await testApp(t.db).call('POST', `/api/v1/projects/${a.handle}/viewers`, a.admin, {})).body!.credential;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('sets the cookie HttpOnly, SameSite=Lax and Secure behind a TLS proxy, and refuses a sign-in from another origin', async () => {
    const app = createApp({ db: t.db, log: silentLogger(), ready: async () => {}, accountRate: null, publicUrl: 'https://stress.example.com' });
    const res = await app.request('/sign-in', { method: 'POST', headers: { origin: 'https://stress.example.com', 'content-type': 'application/x-www-form-urlencoded' }, body: form({ credential }) });
    expect(res.status).toBe(303);
    expect(res.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    expect(res.headers.get('set-cookie')).toMatch(/SameSite=Lax/i);
    expect(res.headers.get('set-cookie')).toMatch(/;\s*Secure/i);
    const forged = await app.request('/sign-in', { method: 'POST', headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, body: form({ credential }) });
    expect(forged.status).toBe(403);
  });

  it('slows down guessing viewer credentials as it does admin credentials', async () => {
    const { app } = testApp(t.db);
    const guess = (value: string) => app.request('/sign-in', { method: 'POST', headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' }, body: form({ credential: value }) });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await guess(`sgv_guess-${i}`)).status);
    expect(statuses).toEqual([...Array(10).fill(400), 429, 429]);
    expect((await guess(credential)).status).toBe(429);
  });
});
