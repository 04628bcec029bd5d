// The blocked developer's path in a real browser (issue 36): Debian's Chromium driven by
// playwright-core, against the real verdict API (`verdict-api demo`: embedded chDB) holding a real
// stored run whose gate blocked a new test. A signed-out link to that run goes through sign-in
// with a viewer credential and lands on the run; the viewer reads, and cannot change settings,
// quarantine or tokens (403). Screenshots go to test-artifacts/.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';

const ARTIFACTS = fileURLToPath(new URL('../../../test-artifacts/', import.meta.url));
const RUN = 'mr-blocked-1';
const identity = { module: ':app', suite: 'com.shop.CheckoutTest', name: 'appliesDiscount' };
let api: DemoServer;
let browser: Browser;
let page: Page;
let viewer: string;

/** A call of the real server's API with `token`; the answer's status and JSON. */
async function call(method: string, p: string, token: string, body?: unknown) {
  const res = await fetch(`${api.url}/api/v1/projects/${api.project}${p}`, { method, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}
const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });

beforeAll(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  api = await startDemoServer();
  // A merge request's run whose new test failed 3 of 10 repetitions: the gate blocked it.
  expect((await call('POST', '/runs', api.token, { runId: RUN, branch: 'feature/discount', commit: 'sha-discount', isCi: true, status: 'success', durationMs: 4000, testCases: [{ ...identity, status: 'success', durationMs: 40 }] })).status).toBe(201);
  expect((await call('POST', `/runs/${RUN}/gate`, api.token, {
    mode: 'enforce', outcome: 'failed', candidatesExamined: 1, stressed: 1, excluded: 0, guard: null, blocked: true, wouldHaveBlocked: true,
    testCases: [{ ...identity, outcome: 'failed', repetitions: Array.from({ length: 10 }, (_, i) => ({ repetition: i + 1, status: [3, 7, 9].includes(i + 1) ? 'failure' : 'success', durationMs: 40 + i })) }],
  })).status).toBe(201);
  const created = await call('POST', '/viewers', api.admin, { name: 'team-checkout' });
  expect(created.status).toBe(201);
  viewer = created.body.credential;
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await api?.stop();
});

describe('a viewer in Chromium, on a blocked run', () => {
  const runUrl = () => `${api.url}/projects/${api.project}/runs/${RUN}`;

  it('opens the blocked run from a signed-out link: sign-in with the viewer credential lands on that run', async () => {
    await page.goto(runUrl());
    expect(page.url()).toBe(`${api.url}/sign-in?next=${encodeURIComponent(new URL(runUrl()).pathname)}`);
    await page.getByLabel('Admin credential or viewer credential').fill(viewer);
    await shot('viewer-01-sign-in');
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(page.url()).toBe(runUrl());
    expect(await page.title()).toBe(`Run ${RUN} · Stress gate`);
    // The headline, first in the page, names the blocking test, on the first screen.
    const headline = page.locator('section.headline');
    expect(await headline.locator('h2').textContent()).toBe('Blocked: 1 new test disagreed with itself');
    expect(await headline.locator('article.blocking-test h3').textContent()).toBe('CheckoutTest.appliesDiscount');
    expect((await headline.locator('article.blocking-test').boundingBox())!.y).toBeLessThan(800);
    expect(await page.getByLabel('repetitions of appliesDiscount').first().locator('li.bad').count()).toBe(3);
    const cookie = (await page.context().cookies()).find((c) => c.name === 'sg_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    // A viewer's navigation has no admin pages.
    const nav = page.getByRole('navigation', { name: 'Project' });
    expect(await nav.getByRole('link', { name: 'Flaky tests' }).count()).toBe(1);
    for (const name of ['Settings', 'Tokens', 'Webhooks', 'Viewers']) expect(await nav.getByRole('link', { name }).count()).toBe(0);
    await shot('viewer-02-blocked-run');
  }, 60_000);

  it('cannot change settings, quarantine or tokens: the pages and the forms answer 403, and nothing changed', async () => {
    const base = `${api.url}/projects/${api.project}`;
    for (const p of ['settings', 'tokens']) {
      const res = await page.goto(`${base}/${p}`);
      expect([p, res!.status()]).toEqual([p, 403]);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Forbidden');
    }
    await shot('viewer-03-settings-forbidden');

    // The test's page shows no quarantine form to a viewer.
    await page.goto(runUrl());
    await page.locator('main a', { hasText: 'appliesDiscount' }).first().click();
    expect(page.url()).toMatch(/\/test-cases\/[0-9a-f-]{36}$/);
    const testCasePath = new URL(page.url()).pathname;
    expect(await page.getByRole('button', { name: 'Quarantine' }).count()).toBe(0);
    expect(await page.locator('main').textContent()).toContain('signed in as a viewer');
    await shot('viewer-04-test-case');

    // The admin's forms, sent from this signed-in browser with the session's own CSRF token.
    const csrf = (await page.locator('input[name="csrf"]').first().getAttribute('value'))!;
    const post = (p: string, form: Record<string, string>) => page.request.post(`${api.url}${p}`, { form: { csrf, ...form }, headers: { Origin: api.url }, maxRedirects: 0 });
    const forms: [string, Record<string, string>][] = [
      [`/projects/${api.project}/settings`, { defaultBranch: 'viewer-was-here', candidateCap: '1' }],
      [`${testCasePath}/quarantine`, { action: 'quarantine', state: 'muted', owner: 'viewer', reason: 'muting it myself' }],
      [`/projects/${api.project}/tokens`, { name: 'viewer-token', scope: 'default-branch' }],
    ];
    for (const [p, form] of forms) expect([p, (await post(p, form)).status()]).toEqual([p, 403]);
    const tokenId = (await call('GET', '/tokens', api.admin)).body.tokens[0].tokenId as string;
    expect((await post(`/projects/${api.project}/tokens/${tokenId}/revoke`, {})).status()).toBe(403);

    const settings = (await call('GET', '/settings', api.admin)).body;
    expect([settings.defaultBranch, settings.stress.candidateCap]).toEqual(['main', 200]);
    expect((await call('GET', '/quarantine', api.admin)).body.tests).toEqual([]);
    const tokens = (await call('GET', '/tokens', api.admin)).body.tokens as { name: string; revoked: boolean }[];
    expect(tokens.map((t) => t.name)).not.toContain('viewer-token');
    expect(tokens.every((t) => !t.revoked)).toBe(true);
    // The same through the API with the viewer credential as a bearer.
    expect((await call('PATCH', '/settings', viewer, { stress: { candidateCap: 1 } })).status).toBe(403);
    expect((await call('POST', '/quarantine', viewer, { ...identity, state: 'muted', owner: 'viewer', reason: 'r' })).status).toBe(403);
    expect((await call('POST', '/tokens', viewer, {})).status).toBe(403);
  }, 60_000);
});
