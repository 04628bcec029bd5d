// The dashboard in a real browser: Debian's Chromium driven by playwright-core (no browser
// download), against the real verdict API and real runs made by the real CLI with real Gradle.
// Signs in, reads the runs list and the run page's verdict block and strips, opens a failed
// repetition to read why it failed (evidence posted through the API), mutes a test from
// its page and sees the CLI honour the mute on the next run, keeps accounts apart, signs out.
// Screenshots go to test-artifacts/ for a person to look at.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { main, realDeps } from '../../../orchestrator/src/cli.js';
import { createLogger } from '../../../orchestrator/src/base/log.js';
import { createHttpQuarantineSource } from '../../../orchestrator/src/quarantine/http-quarantine-source.js';
import { checkoutProject, writeTree } from '../../../orchestrator/test/support/fixture-project.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';

const ARTIFACTS = fileURLToPath(new URL('../../../test-artifacts/', import.meta.url));
const CHECKOUT = 'app/src/test/java/com/shop/CheckoutTest.java';
const OPERATOR = 'operator-'.padEnd(48, 'k');
let api: DemoServer;
let dir: string;
let checkoutSource: string;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  api = await startDemoServer({ STRESS_GATE_OPERATOR_TOKEN: OPERATOR });
  const tree = checkoutProject();
  checkoutSource = tree[CHECKOUT]!;
  delete tree[CHECKOUT];
  dir = await writeTree(tree);
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await api?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** One CI job of the real CLI on `branch`, with the quarantine list fetched from the API. */
async function ciJob(branch: string, mode: string) {
  await rm(path.join(dir, 'appliesDiscount.count'), { force: true });
  const out: string[] = [];
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH, HOME: process.env.HOME, JAVA_HOME: process.env.JAVA_HOME,
    GITLAB_CI: 'true', CI: 'true', CI_COMMIT_REF_NAME: branch, CI_COMMIT_SHA: `sha-${branch}`,
    STRESS_NEW_TESTS: mode, STRESS_GATE_URL: api.url, STRESS_GATE_PROJECT: api.project, STRESS_GATE_TOKEN: api.token, STRESS_GATE_LOG_LEVEL: 'warn',
  };
  const quarantine = createHttpQuarantineSource({ serverUrl: api.url, project: api.project, token: api.token, timeoutMs: 10_000, logger: createLogger(env) });
  const code = await main(['gradle', '--offline', '-q', ':app:cleanTest', ':app:test'], { ...realDeps(env), quarantine, cwd: dir, out: (t) => out.push(t), err: () => undefined });
  const report = JSON.parse(await readFile(path.join(dir, 'build/stress-gate/report.json'), 'utf8'));
  return { code, out: out.join(''), report };
}
const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });

describe('the dashboard in Chromium, over real runs', () => {
  let flakyRun: string;
  let testCaseUrl: string;

  it('makes real runs with the CLI and Gradle: history on main, then a branch whose new test is flaky', async () => {
    expect((await ciJob('main', 'report')).code).toBe(0);
    await writeFile(path.join(dir, CHECKOUT), checkoutSource);
    const r = await ciJob('feature/checkout', 'report');
    expect(r.code).toBe(0);
    expect(r.out).toContain(`  Run page: ${api.url}/projects/demo/runs/${r.report.runId}\n`);
    flakyRun = r.report.runId;
  }, 300_000);

  it('signs in with the admin credential (HttpOnly SameSite session cookie) and lists the runs with the gate badge', async () => {
    await page.goto(`${api.url}/projects`);
    expect(page.url()).toBe(`${api.url}/sign-in`);
    await page.getByLabel('Admin credential').fill('sga_wrong');
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await page.getByRole('alert').textContent()).toContain('not a valid admin credential');
    await page.getByLabel('Admin credential').fill(api.admin);
    await shot('01-sign-in');
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(page.url()).toBe(`${api.url}/projects`);
    const cookie = (await page.context().cookies()).find((c) => c.name === 'sg_session')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    expect(cookie.expires).toBeGreaterThan(Date.now() / 1000);
    await page.getByRole('link', { name: 'demo' }).click();
    const row = page.locator('tr', { has: page.locator(`a[href$="/runs/${flakyRun}"]`) });
    expect(await row.textContent()).toContain('feature/checkout');
    expect(await row.locator('.badge').last().textContent()).toBe('would have blocked');
    await shot('02-runs');
  }, 60_000);

  it("shows the run page's verdict block, the strips and the flaky section with the stress label", async () => {
    await page.locator(`a[href$="/runs/${flakyRun}"]`).click();
    const verdict = page.getByLabel('Gate verdict');
    const text = (await verdict.textContent())!;
    expect(text).toContain('Modereport');
    expect(text).toContain('Candidates examined3');
    expect(text).toContain('Stressed3');
    expect(text).toContain('would have blocked (report mode)');
    expect(text).toMatch(/Time the gate added\d/);
    const strip = page.getByLabel('repetitions of appliesDiscount');
    expect(await strip.locator('li').count()).toBe(10);
    // The default (direct) executor confirmed the side-by-side failures alone: 2 of 10 (see end-to-end.test.ts).
    expect(await strip.locator('li.bad').count()).toBe(2);
    expect(await strip.locator('li').first().textContent()).toMatch(/^#1 (pass|fail) \d+/);
    expect(await page.getByLabel('repetitions of clearsCart').locator('li.ok').count()).toBe(10);
    expect(await page.locator('#flaky + table').textContent()).toContain('caught by the stress gate');
    expect(await page.locator('tr', { hasText: 'CheckoutTest.appliesDiscount' }).last().textContent()).toContain('New');
    await shot('03-run-page');

    // The real run's evidence, as the CLI captured it from the real JVMs: a failed repetition of
    // the strip opens on the test's own message and frames, and the reproduce command is shown.
    const failed = strip.locator('li.bad').first();
    const why = failed.getByText(/expected 30 but was 27/).first();
    expect(await why.isVisible()).toBe(false);
    await failed.locator('summary').click();
    expect(await why.isVisible()).toBe(true);
    expect(await failed.textContent()).toContain('at com.shop.CheckoutTest.appliesDiscount(CheckoutTest.java:');
    expect(await page.locator('.reproduce pre').first().textContent()).toContain("--stress-tests ':app com.shop.CheckoutTest.appliesDiscount' --repetitions 50");
    await shot('03a-real-run-failure-opened');
  }, 60_000);

  it('opens a failed repetition of the strip and shows why it failed, with and without JavaScript', async () => {
    // The gate's upload as the contract has it, every kind of evidence (a JVM crash with its
    // signal and hs_err file, groups) in one run of its own, posted with the CI token.
    const post = async (p: string, body: unknown) => {
      const res = await fetch(`${api.url}/api/v1/projects/${api.project}${p}`, { method: 'POST', headers: { Authorization: `Bearer ${api.token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      expect(res.status).toBe(201);
    };
    const identity = { module: ':app', suite: 'com.shop.CheckoutTest', name: 'appliesDiscount' };
    await post('/runs', { runId: 'evidence-1', branch: 'feature/discount', commit: 'sha-evidence', isCi: true, status: 'success', durationMs: 4000, testCases: [{ ...identity, status: 'success', durationMs: 40 }] });
    const trace = ['java.lang.AssertionError: expected 30 but was 27', '\tat org.junit.Assert.fail(Assert.java:89)', '\tat org.junit.Assert.assertEquals(Assert.java:645)', '\tat com.shop.CheckoutTest.appliesDiscount(CheckoutTest.java:42)'].join('\n');
    const failure = { kind: 'failure', type: 'java.lang.AssertionError', message: 'expected 30 but was 27', stackTrace: trace, framesOmitted: 23, stdoutTail: 'cart total before discount: 30\n', stderrTail: null, durationMs: 42, exitCode: null, signal: null, hsErrFile: null };
    await post('/runs/evidence-1/gate', {
      mode: 'enforce', outcome: 'failed', candidatesExamined: 1, stressed: 1, excluded: 0, guard: null, blocked: true, wouldHaveBlocked: true,
      testCases: [{
        ...identity, outcome: 'failed',
        repetitions: Array.from({ length: 10 }, (_, i) => ({ repetition: i + 1, status: [3, 7, 9].includes(i + 1) ? 'failure' : 'success', durationMs: 40 + i })),
        failures: [
          { ...failure, repetition: 3 },
          { ...failure, repetition: 7, durationMs: 46 },
          { repetition: 9, kind: 'crash', type: null, message: null, stackTrace: null, stdoutTail: null, stderrTail: '# A fatal error has been detected by the Java Runtime Environment:\n#  SIGSEGV (0xb)', durationMs: 48, exitCode: 134, signal: 'SIGABRT', hsErrFile: '/builds/shop/hs_err_pid4242.log' },
        ],
        failureGroups: [
          { signature: 'java.lang.AssertionError at com.shop.CheckoutTest.appliesDiscount(CheckoutTest.java:42)', type: 'java.lang.AssertionError', location: 'CheckoutTest.java:42', count: 2, repetitions: [3, 7] },
          { signature: 'JVM crash (SIGABRT)', type: null, location: null, count: 1, repetitions: [9] },
        ],
        reproduce: { launcher: { kind: 'package', version: '0.1.0' }, tool: ['gradle'], buildArgs: ['test'], repetitions: 10 },
      }],
    });

    await page.goto(`${api.url}/projects/demo/runs/evidence-1`);
    const strip = page.getByLabel('repetitions of appliesDiscount');
    const third = strip.locator('li').nth(2);
    const message = third.getByText('expected 30 but was 27', { exact: true });
    expect(await message.isVisible()).toBe(false);
    await third.getByText('#3 fail 42 ms').click();
    expect(await message.isVisible()).toBe(true);
    expect(await third.locator('pre').nth(1).textContent()).toContain('at com.shop.CheckoutTest.appliesDiscount(CheckoutTest.java:42)');
    expect(await third.textContent()).toContain("23 frames beyond the test's own left out.");
    expect(await page.locator('.groups').textContent()).toBe('3 failed, 2 distinct: AssertionError at CheckoutTest.java:42 (2x: #3 #7); JVM crash (SIGABRT) (1x: #9)');
    // Built by the server from the uploaded parts and the stored identity.
    expect(await page.locator('.reproduce pre').textContent()).toBe("npx -p @stress-gate/orchestrator@0.1.0 stress-orchestrator gradle --stress-tests ':app com.shop.CheckoutTest.appliesDiscount' --repetitions 10 -- test");
    // The opened failure takes the strip's whole width, below the repetitions before it.
    const [item, list] = [await third.boundingBox(), await strip.boundingBox()];
    expect(item!.width).toBeGreaterThan(list!.width * 0.9);
    await shot('03b-run-page-failure-opened');

    // The same without JavaScript: <details> opens natively.
    const noScript = await browser.newContext({ viewport: { width: 1280, height: 800 }, javaScriptEnabled: false, storageState: await page.context().storageState() });
    const plain = await noScript.newPage();
    await plain.goto(`${api.url}/projects/demo/runs/evidence-1`);
    const crash = plain.getByLabel('repetitions of appliesDiscount').locator('li').nth(8);
    await crash.getByText('#9 fail 48 ms').click();
    expect(await crash.getByText('The test JVM crashed').isVisible()).toBe(true);
    expect(await crash.locator('dl').textContent()).toContain('Exit code134SignalSIGABRThs_err file/builds/shop/hs_err_pid4242.log');
    await noScript.close();
    await page.goto(`${api.url}/projects/demo/runs/${flakyRun}`);
  }, 60_000);

  it('mutes the flaky test from its page, and the next enforce run honours the mute', async () => {
    await page.locator('#cases + table').getByRole('link', { name: 'com.shop.CheckoutTest.appliesDiscount' }).click();
    testCaseUrl = page.url();
    expect(await page.locator('dl.facts').textContent()).toContain('The gate calls it newyes');
    await page.getByLabel('State').selectOption('muted');
    await page.getByLabel('Owner').fill('team-checkout');
    await page.getByLabel('Reason', { exact: true }).fill('flaky under repetition, PAY-7');
    await page.getByRole('button', { name: 'Quarantine' }).click();
    expect(page.url()).toBe(testCaseUrl);
    expect(await page.locator('.quarantine-state').textContent()).toBe('muted');
    await shot('04-test-case-muted');

    const r = await ciJob('feature/checkout', 'enforce');
    expect(r.code).toBe(0); // the muted candidate failed but cannot fail the gate
    expect(r.out).toContain('muted');
    await page.goto(`${api.url}/projects/demo/runs/${r.report.runId}`);
    const row = page.locator('#cases + table tr', { hasText: 'CheckoutTest.appliesDiscount' });
    expect(await row.textContent()).toContain('muted');
    expect(await page.getByLabel('Gate verdict').textContent()).toContain('did not block');
    await shot('05-run-page-muted');
    await page.goto(`${api.url}/projects/demo/ramp`);
    expect(await page.locator('svg[role="img"]').count()).toBe(1);
    await shot('06-ramp');
  }, 300_000);

  it("never shows one account another account's pages, in the browser or through the API", async () => {
    const call = (method: string, p: string, token: string, body?: unknown) =>
      fetch(`${api.url}${p}`, { method, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
    const other = (await (await call('POST', '/api/v1/admin/accounts', OPERATOR, { name: 'Other' })).json()) as { accountId: string };
    const cred = (await (await call('POST', `/api/v1/admin/accounts/${other.accountId}/credentials`, OPERATOR, {})).json()) as { credential: string };
    expect((await call('GET', '/api/v1/projects/demo/settings', cred.credential)).status).toBe(403);
    const otherPage = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await otherPage.goto(`${api.url}/sign-in`);
    await otherPage.getByLabel('Admin credential').fill(cred.credential);
    await otherPage.getByRole('button', { name: 'Sign in' }).click();
    expect(await otherPage.locator('main').textContent()).not.toContain('demo');
    const res = await otherPage.goto(`${api.url}/projects/demo/runs/${flakyRun}`);
    expect(res!.status()).toBe(404);
    expect(await otherPage.locator('main').textContent()).toContain('No such project in your account.');
    await otherPage.screenshot({ path: path.join(ARTIFACTS, '07-other-account.png'), fullPage: true });
    await otherPage.context().close();
  }, 60_000);

  it('refuses a form without the CSRF token, then signs out and ends the session on the server', async () => {
    const cookie = (await page.context().cookies()).find((c) => c.name === 'sg_session')!;
    const forged = await fetch(`${api.url}${new URL(testCaseUrl).pathname}/quarantine`, {
      method: 'POST',
      headers: { Cookie: `sg_session=${cookie.value}`, Origin: 'https://evil.example', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'action=unquarantine&reason=x',
      redirect: 'manual',
    });
    expect(forged.status).toBe(403);
    await page.goto(testCaseUrl);
    await page.getByRole('button', { name: 'Sign out' }).click();
    expect(page.url()).toBe(`${api.url}/sign-in`);
    await shot('08-signed-out');
    const replay = await fetch(`${api.url}/projects`, { headers: { Cookie: `sg_session=${cookie.value}` }, redirect: 'manual' });
    expect(replay.status).toBe(303);
    expect(replay.headers.get('location')).toBe('/sign-in');
  }, 60_000);
});
