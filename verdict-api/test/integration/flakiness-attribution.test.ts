// PROOF, per attributing consumer, on both real engines: a test whose only disagreement is a
// stress finding (a gated observation, in report and in enforce mode) gets no mark, starts no
// cooldown, sends no webhook, moves no aggregate and is not auto-quarantined; the same
// disagreement arriving as organic retries in the run upload does all of that.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { createWebhookDispatcher, type WebhookDispatcher } from '../../src/alerts/webhook-dispatcher.js';
import { verifySignature } from '../../src/alerts/sign.js';
import { getProject } from '../../src/accounts/projects.js';
import { testCaseId } from '../../src/identity/test-case-id.js';
import { silentLogger } from '../../src/log/logger.js';
import { sweep } from '../../src/sweep/sweep.js';
import { DAY_MS } from '../../src/clock/clock.js';
import { ENGINES, openTestDatabase, type TestDatabase } from '../support/engines.js';
import { type ProjectHandle, seedProject, testApp } from '../support/api.js';
import { LOOPBACK_TARGETS } from '../support/api.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const SECRET = 'whsec_0123456789abcdef';
const T = { module: ':app', suite: 'com.example.CheckoutTest', name: 'pays' };
const D0 = Date.parse('2026-11-02T10:00:00Z');

describe.each(ENGINES)('flakiness attribution on %s ClickHouse', (kind) => {
  let t: TestDatabase;
  let receiver: WebhookReceiver;
  let nowMs = D0;
  const clock = () => new Date(nowMs);
  let dispatcher: WebhookDispatcher;
  let call: ReturnType<typeof testApp>['call'];
  let n = 0;

  beforeAll(async () => {
    t = await openTestDatabase(kind);
    receiver = await startWebhookReceiver();
    dispatcher = createWebhookDispatcher({ db: t.db, log: silentLogger(), backoffMs: () => 5, clock, targets: LOOPBACK_TARGETS });
    call = testApp(t.db, { notifier: dispatcher, clock, webhookTargets: LOOPBACK_TARGETS }).call;
  });
  afterEach(async () => {
    await dispatcher.drain();
  });
  afterAll(async () => {
    await dispatcher.drain();
    await receiver.close();
    await t.close();
  });

  const reps = (fails: number[], count: number) =>
    Array.from({ length: count }, (_, i) => ({ repetition: i + 1, status: fails.includes(i + 1) ? ('failure' as const) : ('success' as const), durationMs: 4 }));

  /** A project with a webhook, auto-quarantine on, and T trusted: a successful CI run on main. */
  async function project(label: string): Promise<ProjectHandle & { id: string }> {
    nowMs = D0;
    const p = await seedProject(t.db, `${label}-${kind}-${++n}`);
    expect((await call('PATCH', `/api/v1/projects/${p.handle}/settings`, p.admin, { flakyPolicy: { autoQuarantine: true } })).status).toBe(200);
    expect((await call('POST', `/api/v1/projects/${p.handle}/webhooks`, p.admin, { url: receiver.url, secret: SECRET })).status).toBe(201);
    await upload(p, { runId: 'main-1', branch: 'main', commit: 'm1', testCases: [{ ...T, status: 'success', durationMs: 4 }] });
    return { ...p, id: testCaseId(p.projectId, T) };
  }

  async function upload(p: ProjectHandle, run: Record<string, unknown>) {
    const res = await call('POST', `/api/v1/projects/${p.handle}/runs`, p.admin, {
      isCi: true,
      status: 'success',
      durationMs: 100,
      startedAt: new Date(nowMs).toISOString(),
      ...run,
    });
    expect(res.status).toBe(201);
  }

  /** The disagreement as the stress gate finds it: first pass green, stress repetitions failing, report then enforce. */
  async function stressFinding(p: ProjectHandle, tag: string) {
    for (const [i, mode] of (['report', 'enforce'] as const).entries()) {
      const runId = `feat-${tag}-${mode}`;
      await upload(p, { runId, branch: 'feature/pay', commit: `f-${tag}-${i}`, testCases: [{ ...T, status: 'success', durationMs: 4 }] });
      const res = await call('POST', `/api/v1/projects/${p.handle}/runs/${runId}/gate`, p.admin, {
        mode,
        outcome: 'failed',
        candidatesExamined: 1,
        stressed: 1,
        excluded: 0,
        guard: null,
        blocked: mode === 'enforce',
        wouldHaveBlocked: true,
        testCases: [{ ...T, outcome: 'failed', repetitions: reps([2, 7], 10) }],
      });
      expect(res.status).toBe(201);
    }
  }

  /** The same disagreement as organic retries: the build retried T and the retries disagreed. */
  async function organicRetries(p: ProjectHandle, tag: string) {
    await upload(p, { runId: `feat-${tag}-retried`, branch: 'feature/pay', commit: `f-${tag}`, testCases: [{ ...T, status: 'success', durationMs: 4, repetitions: reps([1], 2) }] });
  }

  const page = async (p: ProjectHandle & { id: string }) => (await call('GET', `/api/v1/projects/${p.handle}/test-cases/${p.id}`, p.admin)).body!;
  const flaky = async (p: ProjectHandle) => (await call('GET', `/api/v1/projects/${p.handle}/flaky-tests`, p.admin)).body!.tests as any[];
  const hooksFor = (p: ProjectHandle) => receiver.received.filter((r) => r.json.project === p.handle);
  const domain = () => ({ db: t.db, log: silentLogger(), notifier: dispatcher });

  it('cross-run aggregate (GET …/flaky-tests): a stress finding moves nothing; organic retries do', async () => {
    const p = await project('aggregate');
    await stressFinding(p, 'a');
    expect(await flaky(p)).toEqual([]);
    await organicRetries(p, 'a');
    const tests = await flaky(p);
    expect(tests.map((x) => [x.name, x.flakyRuns, x.flakyCommits, x.markedFlaky])).toEqual([['pays', 1, 1, true]]);
    expect(tests[0].mark.reason).toContain('its retries disagreed in run feat-a-retried');
  });

  it('auto-mark: a stress finding marks nothing and writes no history; organic retries mark the test', async () => {
    const p = await project('mark');
    await stressFinding(p, 'a');
    const before = await page(p);
    expect(before.mark).toEqual({ marked: false, reason: null, changedAt: null, lastFlakyAt: null });
    expect(before.markHistory).toEqual([]);
    expect((await sweep(domain(), new Date(nowMs + 60_000))).marked).toEqual([]); // the sweep's catch-up is blind too
    await organicRetries(p, 'a');
    const after = await page(p);
    expect(after.mark).toMatchObject({ marked: true, changedAt: '2026-11-02 10:00:00', lastFlakyAt: '2026-11-02 10:00:00' });
    expect(after.markHistory).toEqual([{ marked: true, reason: after.mark.reason, changedAt: '2026-11-02 10:00:00' }]);
  });

  it('cooldown: a stress finding neither starts nor extends it; organic retries do', async () => {
    const p = await project('cooldown');
    // Never marked: a stress finding starts no cooldown (no mark row at all).
    await stressFinding(p, 'a');
    expect((await page(p)).mark.lastFlakyAt).toBeNull();
    // Marked organically on day 0; a stress finding on day 10 does not restart the 14 days.
    await organicRetries(p, 'a');
    nowMs = D0 + 10 * DAY_MS;
    await stressFinding(p, 'b');
    expect((await page(p)).mark.lastFlakyAt).toBe('2026-11-02 10:00:00');
    expect((await sweep(domain(), new Date(D0 + 14 * DAY_MS - 1000))).cleared).not.toContain(p.id);
    expect((await sweep(domain(), new Date(D0 + 14 * DAY_MS))).cleared).toContain(p.id);
    const cleared = await page(p);
    expect(cleared.mark.marked).toBe(false);
    expect(cleared.markHistory.map((h: any) => [h.marked, h.changedAt])).toEqual([[true, '2026-11-02 10:00:00'], [false, '2026-11-16 10:00:00']]);
    expect(cleared.markHistory[1].reason).toBe('cooldown: no flaky run for 14 days (last 2026-11-02 10:00:00 UTC)');

    // The same on organic evidence: retries on day 10 push the cooldown to day 24.
    const q = await project('cooldown-organic');
    await organicRetries(q, 'a');
    nowMs = D0 + 10 * DAY_MS;
    await organicRetries(q, 'b');
    expect((await page(q)).mark.lastFlakyAt).toBe('2026-11-12 10:00:00');
    // A late upload of an older run's retries does not move it back.
    nowMs = D0 + 5 * DAY_MS;
    await organicRetries(q, 'late');
    expect((await page(q)).mark.lastFlakyAt).toBe('2026-11-12 10:00:00');
    expect((await sweep(domain(), new Date(D0 + 14 * DAY_MS))).cleared).not.toContain(q.id);
    expect((await sweep(domain(), new Date(D0 + 24 * DAY_MS))).cleared).toContain(q.id);
  });

  it('alerts (webhooks): a stress finding sends none; organic retries send a signed test.marked_flaky', async () => {
    const p = await project('alerts');
    await stressFinding(p, 'a');
    await dispatcher.drain();
    expect(hooksFor(p)).toEqual([]);
    expect((await call('GET', `/api/v1/projects/${p.handle}/webhooks/deliveries`, p.admin)).body!.deliveries).toEqual([]);
    await organicRetries(p, 'a');
    await dispatcher.drain();
    const marked = hooksFor(p).find((h) => h.json.type === 'test.marked_flaky')!;
    expect(marked.json).toMatchObject({ type: 'test.marked_flaky', testCase: { testCaseId: p.id, ...T } });
    expect(verifySignature(SECRET, marked.body, marked.headers['x-stress-gate-signature'] as string)).toBe(true);
    // A delivery carries a batch of events; the header lists their types.
    expect((marked.headers['x-stress-gate-event'] as string).split(',')).toContain('test.marked_flaky');
  });

  it('auto-quarantine: a stress finding never quarantines; organic retries mute a trusted test, never an untrusted one', async () => {
    const p = await project('autoq');
    await stressFinding(p, 'a');
    expect((await page(p)).quarantine.state).toBe('enabled');
    expect((await call('GET', `/api/v1/projects/${p.handle}/quarantine`, p.admin)).body!.tests).toEqual([]);
    await organicRetries(p, 'a');
    const after = await page(p);
    expect(after.quarantine).toMatchObject({ state: 'muted', owner: 'auto-quarantine', changedBy: 'auto-quarantine' });
    expect(after.quarantineAudit.map((a: any) => [a.from, a.to, a.actor])).toEqual([['enabled', 'muted', 'auto-quarantine']]);
    const list = (await call('GET', `/api/v1/projects/${p.handle}/quarantine`, p.admin)).body!.tests;
    expect(list.map((x: any) => [x.testCaseId, x.state])).toEqual([[p.id, 'muted']]);
    await dispatcher.drain();
    expect(hooksFor(p).map((h) => h.json.type).sort()).toEqual(['test.marked_flaky', 'test.quarantined']);

    // A new test with no successful default-branch CI run: marked flaky, but never auto-quarantined.
    const fresh = { module: ':app', suite: 'com.example.NewTest', name: 'fresh' };
    await upload(p, { runId: 'feat-new', branch: 'feature/new', commit: 'n1', testCases: [{ ...fresh, status: 'success', durationMs: 4, repetitions: reps([2], 2) }] });
    const freshPage = (await call('GET', `/api/v1/projects/${p.handle}/test-cases/${testCaseId(p.projectId, fresh)}`, p.admin)).body!;
    expect([freshPage.mark.marked, freshPage.quarantine.state]).toEqual([true, 'enabled']);
  });

  it('commit evidence: a failing and a passing CI run of one commit mark the test flaky and fire the webhook', async () => {
    const p = await project('commit');
    const other = { module: ':app', suite: 'com.example.CheckoutTest', name: 'refunds' };
    await upload(p, { runId: 'ci-1', branch: 'main', commit: 'abc123', status: 'failure', testCases: [{ ...T, status: 'failure', durationMs: 4 }, { ...other, status: 'success', durationMs: 4 }] });
    expect((await page(p)).mark.marked).toBe(false);
    nowMs += 60_000;
    await upload(p, { runId: 'ci-2', branch: 'main', commit: 'abc123', testCases: [{ ...T, status: 'success', durationMs: 4 }, { ...other, status: 'success', durationMs: 4 }] });
    const after = await page(p);
    expect(after.mark.marked).toBe(true);
    expect(after.mark.reason).toContain('commit abc123 has both a failing and a passing CI run');
    expect((await flaky(p)).map((x) => [x.name, x.flakyRuns, x.flakyCommits, x.markedFlaky])).toEqual([['pays', 0, 1, true]]);
    await dispatcher.drain();
    expect(hooksFor(p).filter((h) => h.json.type === 'test.marked_flaky').map((h) => h.json.testCase.name)).toEqual(['pays']);
    // The policy reads threshold and auto-mark from the project record.
    expect((await getProject(t.db, p.projectId))!.flakyPolicy).toMatchObject({ autoMarkFlaky: true, autoMarkThreshold: 1, cooldownDays: 14 });
  });
});
