// The run page's headline, a test's history, search and the flaky page's "caught before merge" in
// a real browser (issue 36): Debian's Chromium driven by playwright-core, against the real verdict
// API (`verdict-api demo`: embedded chDB) holding real uploads: a merge request whose gate blocked
// a new test with a long unbroken name and long evidence, and runs of it on the default branch.
// Signed in as a viewer of the project (the blocked developer), not its admin. At 1,280 and 390 px
// no page is wider than the window. Screenshots go to test-artifacts/.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';

const ARTIFACTS = fileURLToPath(new URL('../../../test-artifacts/', import.meta.url));
const RUN = 'mr-discount-7';
const LONG = 'appliesTheLoyaltyDiscountToEveryLineOfABasketWhoseCustomerJoinedBeforeTheCutOffDateAndPaysInEuros';
const identity = { module: ':checkout-service', suite: 'com.shop.checkout.pricing.discounts.LoyaltyDiscountCalculatorIntegrationTest', name: LONG };
const FAILED = [3, 7, 9];
let api: DemoServer;
let browser: Browser;
let page: Page;

async function call(method: string, p: string, token: string, body?: unknown) {
  const res = await fetch(`${api.url}/api/v1/projects/${api.project}${p}`, { method, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}
const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
const upload = (runId: string, branch: string, startedAt: string) => ({ runId, branch, commit: `sha-${runId}`, isCi: true, status: 'success', durationMs: 4000, startedAt, testCases: [{ ...identity, status: 'success', durationMs: 40 }, { module: ':app', suite: 'com.shop.CartTest', name: 'adds', status: 'success', durationMs: 3 }] });
/** How much wider than the window the document is (0: it fits). */
const overflow = () => page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');

beforeAll(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  api = await startDemoServer();
  for (const [runId, h] of [['main-1', 8], ['main-2', 9]] as const) expect((await call('POST', '/runs', api.token, upload(runId, 'main', new Date(Date.UTC(2026, 11, 1, h)).toISOString()))).status).toBe(201);
  expect((await call('POST', '/runs', api.token, upload(RUN, 'feature/loyalty-discount', new Date(Date.UTC(2026, 11, 1, 10)).toISOString()))).status).toBe(201);
  const trace = `java.lang.AssertionError: ${'expected total 27.00 EUR but was 30.00 EUR for basket '.repeat(6)}\n\tat ${identity.suite}.${LONG}(LoyaltyDiscountCalculatorIntegrationTest.java:142)`;
  expect((await call('POST', `/runs/${RUN}/gate`, api.token, {
    mode: 'enforce', outcome: 'failed', candidatesExamined: 1, stressed: 1, excluded: 0, guard: null, blocked: true, wouldHaveBlocked: true,
    testCases: [{
      ...identity, outcome: 'failed',
      repetitions: Array.from({ length: 10 }, (_, i) => ({ repetition: i + 1, status: FAILED.includes(i + 1) ? 'failure' : 'success', durationMs: 40 + i })),
      failures: FAILED.map((repetition) => ({ repetition, kind: 'failure', type: 'java.lang.AssertionError', message: 'expected total 27.00 EUR but was 30.00 EUR', stackTrace: trace, stdoutTail: `basket=${'x'.repeat(400)}`, stderrTail: null, durationMs: 40, exitCode: null, signal: null, hsErrFile: null })),
      failureGroups: [{ signature: `java.lang.AssertionError at ${identity.suite}.${LONG}(LoyaltyDiscountCalculatorIntegrationTest.java:142)`, type: 'java.lang.AssertionError', location: 'LoyaltyDiscountCalculatorIntegrationTest.java:142', count: 3, repetitions: FAILED }],
      reproduce: { launcher: { kind: 'package', version: '0.1.0' }, tool: ['gradle'], buildArgs: ['test'], repetitions: 50 },
    }],
  })).status).toBe(201);
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  // Signed in as the blocked developer would be: a viewer of the project, not its admin.
  const viewer = await call('POST', '/viewers', api.admin, { name: 'team-loyalty' });
  expect(viewer.status).toBe(201);
  await page.goto(`${api.url}/sign-in`);
  await page.getByLabel('Admin credential or viewer credential').fill(viewer.body.credential as string);
  await page.getByRole('button', { name: 'Sign in' }).click();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await api?.stop();
});

describe('the blocked developer’s pages in Chromium', () => {
  const base = () => `${api.url}/projects/${api.project}`;

  it('opens the run page on its headline: the blocking test, its failure and message, above the fold', async () => {
    await page.goto(`${base()}/runs/${RUN}`);
    const headline = page.locator('section.headline');
    expect(await headline.locator('h2').textContent()).toBe('Blocked: 1 new test disagreed with itself');
    const test = headline.locator('article.blocking-test');
    expect(await test.locator('h3').textContent()).toBe(`LoyaltyDiscountCalculatorIntegrationTest.${LONG}`);
    expect(await test.textContent()).toContain('failed 3 of 10 repetitions, each in a fresh JVM');
    expect(await test.textContent()).toContain('AssertionError at LoyaltyDiscountCalculatorIntegrationTest.java:142');
    expect(await test.locator('pre.message').textContent()).toBe('expected total 27.00 EUR but was 30.00 EUR');
    // Above the fold at 1280x800: the test's name and message start within the first screen.
    expect((await test.locator('pre.message').boundingBox())!.y).toBeLessThan(800);
    // …and the command that reruns it, built by the server from the stored identity.
    expect(await test.locator('pre.command').textContent()).toBe(`npx -p @stress-gate/orchestrator@0.1.0 stress-orchestrator gradle --stress-tests ':checkout-service ${identity.suite}.${LONG}' --repetitions 50 -- test`);
    expect(await page.locator('main').textContent()).not.toContain('failed (blocked)');
    await shot('history-01-run-page-1280');
  }, 60_000);

  it('keeps every page within the window at 1280 and 390 px', async () => {
    const testUrl = `${base()}${await page.locator('article.blocking-test h3 a').getAttribute('href').then((h) => h!.replace(`/projects/${api.project}`, ''))}`;
    const pages: [string, string][] = [['run', `${base()}/runs/${RUN}`], ['test', testUrl], ['search', `${base()}/search?q=loyalty`], ['flaky', `${base()}/flaky-tests`], ['ramp', `${base()}/ramp`], ['runs', `${base()}/runs`]];
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      for (const [name, url] of pages) {
        await page.goto(url);
        // Open every failure, as a reader would, before measuring.
        await page.evaluate("document.querySelectorAll('details').forEach((d) => d.setAttribute('open', ''))");
        expect([name, width, await overflow()]).toEqual([name, width, 0]);
        if (width === 390) await shot(`history-02-${name}-390`);
        if (width === 390 && name === 'run') {
          // The first screen of a phone, with the failures closed again: what the author sees first.
          await page.evaluate("document.querySelectorAll('details').forEach((d) => d.removeAttribute('open'))");
          await page.screenshot({ path: path.join(ARTIFACTS, 'history-02-run-390-first-screen.png') });
        }
      }
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  }, 120_000);

  it('shows the test’s history as a chart whose points link to their runs, in words as well', async () => {
    await page.goto(`${base()}/runs/${RUN}`);
    await page.locator('article.blocking-test h3 a').click();
    // Not role=img: its points are links. Named by its title, described by its summary in words.
    const chart = page.locator('section.test-history svg.history-chart');
    expect(await chart.getAttribute('aria-labelledby')).toBe('history-title history-desc');
    expect(await chart.locator('title#history-title').textContent()).toBe('Outcomes of this test over its last 3 runs');
    expect(await chart.locator('desc#history-desc').textContent()).toContain('Stressed in 1 run: 3 of 10 repetitions failed.');
    const links = await chart.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(links.map((h) => h!.split('/runs/')[1])).toEqual(['main-1', 'main-2', RUN]);
    expect(await page.locator('section.test-history').textContent()).toContain('stress: 3 of 10 stress repetitions failed');
    await shot('history-03-test-page-1280');
    await chart.locator(`a[href$="/runs/${RUN}"]`).click();
    expect(page.url()).toBe(`${base()}/runs/${RUN}`);
  }, 60_000);

  it('finds the test and the run from the header’s search box', async () => {
    await page.goto(`${base()}/runs`);
    await page.getByRole('searchbox').first().fill('LoyaltyDiscount');
    await page.getByRole('searchbox').first().press('Enter');
    expect(page.url()).toBe(`${base()}/search?q=LoyaltyDiscount`);
    expect(await page.locator('main').textContent()).toContain(LONG);
    await page.getByRole('searchbox').first().fill('loyalty-discount');
    await page.getByRole('searchbox').first().press('Enter');
    expect(await page.locator(`main a[href$="/runs/${RUN}"]`).count()).toBeGreaterThan(0);
    await shot('history-04-search-1280');
  }, 60_000);

  it('names the gate’s catch on the flaky-tests page, in its own section, with its run', async () => {
    await page.goto(`${base()}/flaky-tests`);
    const text = (await page.locator('main').textContent())!;
    expect(text).not.toContain('No flaky tests.');
    expect(text).toContain('the stress gate caught 1 new test before merge');
    const caught = page.locator('section[aria-labelledby="caught"]');
    expect(await caught.locator('h2').textContent()).toBe('Caught before merge by the stress gate (1)');
    expect(await caught.locator(`a[href$="/runs/${RUN}"]`).count()).toBe(1);
    expect(await caught.textContent()).toContain('blocked its merge request');
    await shot('history-05-flaky-tests-1280');
  }, 60_000);
});
