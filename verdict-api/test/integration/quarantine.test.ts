// Quarantine through the API and webhook delivery against a real loopback receiver, on both
// real engines: states, audit, pagination, validation, expiry, and retried deliveries.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { verifySignature } from '../../src/alerts/sign.js';
import { createWebhookDispatcher, type WebhookDispatcher } from '../../src/alerts/webhook-dispatcher.js';
import { testCaseId } from '../../src/identity/test-case-id.js';
import { silentLogger } from '../../src/log/logger.js';
import { sweep } from '../../src/sweep/sweep.js';
import { ENGINES, openTestDatabase, type TestDatabase } from '../support/engines.js';
import { type ProjectHandle, run, seedProject, testApp } from '../support/api.js';
import { LOOPBACK_TARGETS } from '../support/api.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const SECRET = 'whsec_fedcba9876543210';
const NOW = Date.parse('2026-11-30T12:00:00Z');

describe.each(ENGINES)('quarantine and webhooks on %s ClickHouse', (kind) => {
  let t: TestDatabase;
  let receiver: WebhookReceiver;
  let nowMs = NOW;
  const clock = () => new Date(nowMs);
  const sleeps: number[] = [];
  let dispatcher: WebhookDispatcher;
  let call: ReturnType<typeof testApp>['call'];
  let p: ProjectHandle;
  let other: ProjectHandle;

  beforeAll(async () => {
    t = await openTestDatabase(kind);
    receiver = await startWebhookReceiver();
    dispatcher = createWebhookDispatcher({
      db: t.db,
      log: silentLogger(),
      targets: LOOPBACK_TARGETS,
      maxAttempts: 4,
      backoffMs: (n) => 10 * 2 ** (n - 1),
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      clock,
    });
    call = testApp(t.db, { notifier: dispatcher, clock, webhookTargets: LOOPBACK_TARGETS }).call;
    p = await seedProject(t.db, `quarantine-${kind}`);
    other = await seedProject(t.db, `other-${kind}`);
    await call('POST', `/api/v1/projects/${p.handle}/runs`, p.admin, run('main-1', ['a', 'b', 'c', 'd', 'e']));
    expect((await call('POST', `/api/v1/projects/${p.handle}/webhooks`, p.admin, { url: receiver.url, secret: SECRET })).status).toBe(201);
  });
  afterAll(async () => {
    await dispatcher.drain();
    await receiver.close();
    await t.close();
  });

  const base = () => `/api/v1/projects/${p.handle}`;
  const id = (name: string) => testCaseId(p.projectId, { module: ':app', suite: 'com.example.CheckoutTest', name });

  it('quarantines by identity and by id, audits every change, and unquarantines', async () => {
    const created = await call('POST', `${base()}/quarantine`, p.admin, { module: ':app', suite: 'com.example.CheckoutTest', name: 'a', state: 'muted', owner: 'team-pay', reason: 'flaky on CI', issueUrl: 'https://issues.example/PAY-1' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ testCaseId: id('a'), state: 'muted', owner: 'team-pay', previousState: 'enabled' });
    expect(created.body!.changedBy).toMatch(/^admin:[0-9a-f-]{36}$/);
    nowMs += 1000;
    const skipped = await call('PUT', `${base()}/quarantine/${id('a')}`, p.admin, { state: 'skipped', owner: 'team-pay', reason: 'hangs' });
    expect(skipped.body).toMatchObject({ state: 'skipped', previousState: 'muted', issueUrl: null });
    nowMs += 1000;
    const removed = await call('DELETE', `${base()}/quarantine/${id('a')}`, p.admin, { reason: 'fixed in PAY-1' });
    expect(removed.body).toMatchObject({ state: 'enabled', previousState: 'skipped', reason: 'fixed in PAY-1' });

    const page = (await call('GET', `${base()}/test-cases/${id('a')}`, p.admin)).body!;
    expect(page.quarantine.state).toBe('enabled');
    expect(page.quarantineAudit.map((a: any) => [a.from, a.to, a.reason, a.changedAt])).toEqual([
      ['enabled', 'muted', 'flaky on CI', '2026-11-30 12:00:00'],
      ['muted', 'skipped', 'hangs', '2026-11-30 12:00:01'],
      ['skipped', 'enabled', 'fixed in PAY-1', '2026-11-30 12:00:02'],
    ]);
    expect(page.quarantineAudit.every((a: any) => a.actor === created.body!.changedBy)).toBe(true);
    await dispatcher.drain();
    // Only the change from enabled is "newly quarantined".
    expect(receiver.received.filter((r) => r.json.testCase.testCaseId === id('a')).map((r) => r.json.type)).toEqual(['test.quarantined']);
  });

  it('lists quarantined tests page by page with their identity and state; the CI token reads it', async () => {
    for (const name of ['b', 'c', 'd', 'e']) {
      await call('PUT', `${base()}/quarantine/${id(name)}`, p.admin, { state: name === 'e' ? 'skipped' : 'muted', owner: 'o', reason: 'r' });
    }
    const seen: any[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { status: number; body: Record<string, any> | null } = await call('GET', `${base()}/quarantine?limit=3${cursor ? `&cursor=${cursor}` : ''}`, p.admin);
      expect(res.status).toBe(200);
      seen.push(...res.body!.tests);
      cursor = res.body!.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(2);
    expect(seen.map((x) => x.name).sort()).toEqual(['b', 'c', 'd', 'e']);
    expect(seen.find((x) => x.name === 'e')).toMatchObject({ module: ':app', suite: 'com.example.CheckoutTest', testCaseId: id('e'), state: 'skipped' });
    expect((await call('GET', `/api/v1/projects/${p.handle}/quarantine`, other.token)).status).toBe(403);
  });

  it.each([
    ['PUT', 'quarantine/{id of b}', { state: 'frozen', owner: 'o', reason: 'r' }, 'state'],
    ['PUT', 'quarantine/{id of b}', { state: 'muted', owner: '', reason: 'r' }, 'owner'],
    ['PUT', 'quarantine/{id of b}', { state: 'muted', owner: 'o' }, 'reason'],
    ['PUT', 'quarantine/{id of b}', { state: 'muted', owner: 'o', reason: 'r', issueUrl: 'not a url' }, 'issueUrl'],
    ['PUT', 'quarantine/{id of b}', { state: 'muted', owner: 'o', reason: 'r', expiresAt: 'tomorrow' }, 'expiresAt'],
    ['PUT', 'quarantine/{id of b}', { state: 'muted', owner: 'o', reason: 'r', expiresAt: '2020-01-01T00:00:00Z' }, 'expiresAt'],
    ['PUT', 'quarantine/not-a-uuid', { state: 'muted', owner: 'o', reason: 'r' }, 'testCaseId'],
    ['POST', 'quarantine', { suite: 'S', name: 'n', state: 'muted', owner: 'o', reason: 'r' }, 'module'],
    ['GET', 'quarantine?limit=0', undefined, 'limit'],
    ['GET', 'quarantine?cursor=abc', undefined, 'cursor'],
    ['POST', 'webhooks', { url: 'ftp://x', secret: 'long-enough-secret' }, 'url'],
    ['POST', 'webhooks', { url: 'http://127.0.0.1:1/', secret: 'short' }, 'secret'],
  ])('answers %s %s with %j by 400 naming %s', async (method, path, body, field) => {
    const res = await call(method as string, `${base()}/${(path as string).replace('{id of b}', id('b'))}`, p.admin, body);
    expect(res.status).toBe(400);
    expect(res.body!.error).toMatchObject({ code: 'BAD_REQUEST', field });
  });

  it('answers 404 for a test case the project has never seen', async () => {
    const unknown = testCaseId(p.projectId, { module: ':x', suite: 'S', name: 'never' });
    expect((await call('PUT', `${base()}/quarantine/${unknown}`, p.admin, { state: 'muted', owner: 'o', reason: 'r' })).status).toBe(404);
    expect((await call('GET', `${base()}/test-cases/${unknown}`, p.admin)).status).toBe(404);
    expect((await call('DELETE', `${base()}/quarantine/${unknown}`, p.admin)).status).toBe(404);
  });

  it('returns an expired quarantine to enabled, audits it and alerts', async () => {
    const expiresAt = new Date(nowMs + 3_600_000).toISOString();
    const res = await call('POST', `${base()}/quarantine`, p.admin, { module: ':m', suite: 'Later', name: 'x', state: 'muted', owner: 'o', reason: 'until the fix', expiresAt });
    expect(res.body).toMatchObject({ expiresAt: '2026-11-30 13:00:02' });
    const xid = res.body!.testCaseId as string;
    nowMs += 2 * 3_600_000;
    // Past its expiry it is no longer listed, even before the sweep.
    expect((await call('GET', `${base()}/quarantine?limit=1000`, p.admin)).body!.tests.map((x: any) => x.testCaseId)).not.toContain(xid);
    const out = await sweep({ db: t.db, log: silentLogger(), notifier: dispatcher }, clock());
    expect(out.expired).toEqual([xid]);
    expect((await sweep({ db: t.db, log: silentLogger(), notifier: dispatcher }, clock())).expired).toEqual([]);
    const page = (await call('GET', `${base()}/test-cases/${xid}`, p.admin)).body!;
    expect(page.quarantine.state).toBe('enabled');
    expect(page.quarantineAudit.map((a: any) => [a.from, a.to, a.actor])).toEqual([
      ['enabled', 'muted', res.body!.changedBy],
      ['muted', 'enabled', 'expiry'],
    ]);
    await dispatcher.drain();
    expect(receiver.received.filter((r) => r.json.testCase.testCaseId === xid).map((r) => r.json.type)).toEqual(['test.quarantined', 'test.quarantine_expired']);
  });

  it('retries a failing receiver with exponential backoff until it recovers, and logs every attempt', async () => {
    receiver.script([500, 500]);
    sleeps.length = 0;
    const before = receiver.received.length;
    await call('POST', `${base()}/quarantine`, p.admin, { module: ':m', suite: 'Retry', name: 'y', state: 'muted', owner: 'o', reason: 'r' });
    await dispatcher.drain();
    const got = receiver.received.slice(before);
    expect(got.map((r) => r.status)).toEqual([500, 500, 200]);
    expect(new Set(got.map((r) => r.json.deliveryId)).size).toBe(1);
    expect(got.every((r) => verifySignature(SECRET, r.body, r.headers['x-stress-gate-signature'] as string))).toBe(true);
    expect(sleeps).toEqual([10, 20]);
    const log = (await call('GET', `${base()}/webhooks/deliveries?limit=3`, p.admin)).body!.deliveries;
    expect(log.map((d: any) => [d.attempt, d.outcome, d.statusCode, d.willRetry])).toEqual([
      [3, 'delivered', 200, false],
      [2, 'failed', 500, true],
      [1, 'failed', 500, true],
    ]);
    expect(log[0]).toMatchObject({ event: 'test.quarantined', deliveryId: got[0]!.json.deliveryId });
  });

  it('delivers a burst of alerts (an evaluation marking many tests at once) with one read of the webhooks', async () => {
    let reads = 0;
    const engine = t.db.engine;
    const query: typeof engine.query = (s) => {
      if (/webhooks/.test(s.text)) reads++;
      return engine.query(s);
    };
    const counted = { ...t.db, engine: { ...engine, kind: engine.kind, query } };
    const burst = createWebhookDispatcher({ db: counted, log: silentLogger(), clock, targets: LOOPBACK_TARGETS });
    const before = receiver.received.length;
    for (let i = 0; i < 50; i++) {
      burst.notify({
        type: 'test.marked_flaky',
        projectId: p.projectId,
        project: p.handle,
        testCase: { testCaseId: id(`burst${i}`), module: ':app', suite: 'com.example.CheckoutTest', name: `burst${i}` },
        reason: 'retries disagreed',
        occurredAt: new Date(NOW).toISOString(),
        detail: {},
      });
    }
    await burst.drain();
    expect(reads).toBe(1);
    const got = receiver.received.slice(before);
    expect(got.map((r) => r.json.testCase.name).sort()).toEqual(Array.from({ length: 50 }, (_, i) => `burst${i}`).sort());
    expect(got.every((r) => verifySignature(SECRET, r.body, r.headers['x-stress-gate-signature'] as string))).toBe(true);
  });

  it('gives up after the bounded number of attempts, and lists webhooks without their secret', async () => {
    receiver.script([503, 503, 503, 503, 503]);
    await call('POST', `${base()}/quarantine`, p.admin, { module: ':m', suite: 'Down', name: 'z', state: 'muted', owner: 'o', reason: 'r' });
    await dispatcher.drain();
    receiver.script([]);
    const log = (await call('GET', `${base()}/webhooks/deliveries?limit=4`, p.admin)).body!.deliveries;
    expect(log.map((d: any) => [d.attempt, d.outcome, d.willRetry])).toEqual([
      [4, 'failed', false],
      [3, 'failed', true],
      [2, 'failed', true],
      [1, 'failed', true],
    ]);
    const hooks = await call('GET', `${base()}/webhooks`, p.admin);
    expect(hooks.body!.webhooks).toEqual([{ webhookId: expect.any(String), url: receiver.url, createdAt: expect.any(String) }]);
    expect(JSON.stringify(hooks.body)).not.toContain(SECRET);
  });
});
