// Attack tests (issue 31): webhooks as a way into the server's own network (SSRF), as a flood
// (one upload, hundreds of simultaneous deliveries), and replayed later. Real servers on ports,
// a real receiver on loopback, both engines.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { verifySignature } from '../../src/alerts/sign.js';
import { silentLogger } from '../../src/log/logger.js';
import { type RunningServer, startServer } from '../../src/server.js';
import { activeWebhooks } from '../../src/alerts/webhooks-store.js';
import { formatDateTime, sql } from '../../src/sql/bind.js';
import { database } from '../../src/storage/database.js';
import { ephemeralSecretBox } from '../../src/storage/secret-box.js';
import { nextVersion } from '../../src/storage/version.js';
import { type ProjectHandle, run, seedProject } from '../support/api.js';
import { ENGINES, openTestDatabase, type TestDatabase } from '../support/engines.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const SECRET = 'a-webhook-secret-of-16+';
type ServerOptions = NonNullable<Parameters<typeof startServer>[4]>;
/** Verification as a receiver does it, at a time of its choosing (seconds). */
const verifyAt = verifySignature as (secret: string, body: string, signature: string | undefined, nowSeconds?: number) => boolean;

const waitFor = async (what: () => Promise<boolean> | boolean, ms = 30_000) => {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await what()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
};

describe.each(ENGINES)('webhooks on %s ClickHouse', (kind) => {
  let t: TestDatabase;
  let receiver: WebhookReceiver;
  /** A server as it runs by default: no allow-list. */
  let plain: RunningServer;
  /** A server whose operator allows loopback targets (STRESS_GATE_WEBHOOK_ALLOW=127.0.0.1/32). */
  let allowing: RunningServer;
  let p: ProjectHandle;
  let q: ProjectHandle;

  const call = async (server: RunningServer, project: ProjectHandle, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}/api/v1/projects/${project.handle}${path}`, {
      method,
      headers: { authorization: `Bearer ${project.admin}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, any>) : null };
  };

  beforeAll(async () => {
    t = await openTestDatabase(kind);
    receiver = await startWebhookReceiver();
    p = await seedProject(t.db, `hooks-${kind}`);
    q = await seedProject(t.db, `flood-${kind}`);
    plain = await startServer(t.db, silentLogger(), '127.0.0.1', 0);
    allowing = await startServer(t.db, silentLogger(), '127.0.0.1', 0, { webhookAllow: '127.0.0.1/32' } as ServerOptions);
  }, 120_000);
  afterAll(async () => {
    await plain?.close();
    await allowing?.close();
    await receiver?.close();
    await t?.close();
  });

  it.each([
    ['the loopback receiver', () => receiver.url],
    ['a name that resolves to loopback', () => `http://localhost:${receiver.port}/h`],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
    ['a private address', () => 'http://10.1.2.3/hook'],
    ['IPv6 loopback', () => 'http://[::1]:9/h'],
    ['a unique-local IPv6 address', () => 'http://[fd00::1]/h'],
    ['an IPv4-mapped loopback', () => 'http://[::ffff:127.0.0.1]:9/h'],
  ])('refuses to register a webhook to %s', async (_label, url) => {
    const res = await call(plain, p, 'POST', '/webhooks', { url: url(), secret: SECRET });
    expect([res.status, res.body?.error?.field]).toEqual([400, 'url']);
  });

  it("refuses at delivery a target that resolves to loopback, and logs no status of it", async () => {
    // As if registered while the name pointed elsewhere (DNS rebinding), or before this check existed.
    await t.db.engine.insert(t.db.t('webhooks'), [
      { project_id: p.projectId, webhook_id: randomUUID(), url: `http://localhost:${receiver.port}/rebound`, secret: SECRET, active: 1, created_at: formatDateTime(new Date()), version: nextVersion() },
    ]);
    receiver.script([418]);
    const before = receiver.requests.length;
    expect((await call(plain, p, 'POST', '/quarantine', { module: ':m', suite: 'S', name: 'rebound', state: 'muted', owner: 'o', reason: 'r' })).status).toBe(201);
    expect(await waitFor(async () => ((await call(plain, p, 'GET', '/webhooks/deliveries?limit=5')).body!.deliveries as unknown[]).length > 0)).toBe(true);
    const log = (await call(plain, p, 'GET', '/webhooks/deliveries?limit=5')).body!.deliveries as { statusCode: number; error: string }[];
    receiver.script([]);
    expect(receiver.requests.length).toBe(before);
    expect(log[0]).toMatchObject({ statusCode: 0, error: expect.stringContaining('loopback') });
  });

  it('delivers to a loopback target the operator allows', async () => {
    expect((await call(allowing, q, 'POST', '/webhooks', { url: receiver.url, secret: SECRET })).status).toBe(201);
  });

  it('delivers 300 alerts of one upload in a few batched requests, never 300 at once', async () => {
    receiver.delay(150);
    const before = { requests: receiver.requests.length, events: receiver.received.length };
    const flaky = run('flood', [], {
      testCases: Array.from({ length: 300 }, (_, i) => ({ module: ':app', suite: 'com.example.FloodTest', name: `t${i}`, status: 'success' as const, durationMs: 5, repetitions: [{ repetition: 1, status: 'failure' as const, durationMs: 5 }, { repetition: 2, status: 'success' as const, durationMs: 5 }] })),
    });
    const res = await fetch(`${allowing.url}/api/v1/projects/${q.handle}/runs`, { method: 'POST', headers: { authorization: `Bearer ${q.token}`, 'content-type': 'application/json' }, body: JSON.stringify(flaky) });
    expect(res.status).toBe(201);
    expect(await waitFor(() => receiver.received.length - before.events >= 300)).toBe(true);
    receiver.delay(0);
    const requests = receiver.requests.length - before.requests;
    process.stdout.write(`${kind}: 300 alerts of one upload -> ${requests} requests, at most ${receiver.maxInFlight()} at once\n`);
    expect(receiver.maxInFlight()).toBeLessThanOrEqual(4);
    expect(requests).toBeLessThanOrEqual(10);
    expect(new Set(receiver.received.slice(before.events).map((e) => e.json.testCase.name)).size).toBe(300);
  }, 120_000);

  it('keeps one account’s 10 slow receivers from delaying another account’s alert', async () => {
    const slow = await startWebhookReceiver();
    const fast = await startWebhookReceiver();
    try {
      slow.delay(5_000);
      const a = await seedProject(t.db, `slow-hooks-${kind}`);
      const b = await seedProject(t.db, `fast-hook-${kind}`);
      for (let i = 0; i < 10; i++) expect((await call(allowing, a, 'POST', '/webhooks', { url: `${slow.url}/a${i}`, secret: SECRET })).status).toBe(201);
      expect((await call(allowing, b, 'POST', '/webhooks', { url: fast.url, secret: SECRET })).status).toBe(201);
      const mute = (project: ProjectHandle, name: string) => call(allowing, project, 'POST', '/quarantine', { module: ':m', suite: 'S', name, state: 'muted', owner: 'o', reason: 'r' });
      expect((await mute(a, 'held-up')).status).toBe(201);
      // A's ten deliveries are in flight or waiting for a place when B's alert is raised.
      expect(await waitFor(() => slow.requests.length >= 2)).toBe(true);
      const raised = performance.now();
      expect((await mute(b, 'not-held-up')).status).toBe(201);
      expect(await waitFor(() => fast.received.length >= 1, 30_000)).toBe(true);
      const waited = performance.now() - raised;
      process.stdout.write(`${kind}: another account's alert delivered ${waited.toFixed(0)} ms after it was raised, beside ${slow.requests.length} of one account's deliveries held 5 s each (at most ${slow.maxInFlight()} at once)\n`);
      expect(waited).toBeLessThan(2_000);
      expect(slow.maxInFlight()).toBeLessThanOrEqual(2);
    } finally {
      slow.delay(0);
      await slow.close();
      await fast.close();
    }
  }, 120_000);

  it('signs the time with the body: a captured delivery replayed 10 minutes later is refused', async () => {
    const delivery = receiver.requests.at(-1)!;
    const signature = delivery.headers['x-stress-gate-signature'] as string;
    const now = Math.floor(Date.now() / 1000);
    expect(verifyAt(SECRET, delivery.body, signature, now)).toBe(true);
    expect(verifyAt(SECRET, delivery.body, signature, now + 600)).toBe(false);
  });

  it("stores a webhook's secret sealed, seals one stored in the clear at the next start, and sends nothing unsigned from a server with another key", async () => {
    // Every version of every row, merged or not: no secret in the clear.
    const stored = async () => (await t.db.engine.query<{ secret: string }>(sql`SELECT secret FROM ${t.db.t('webhooks')}`)).map((r) => r.secret);
    // The clear row the rebinding test wrote directly (as a webhook registered before sealing) is sealed at the next start.
    expect((await stored()).some((x) => x === SECRET)).toBe(true);
    const restarted = await startServer(t.db, silentLogger(), '127.0.0.1', 0);
    await restarted.close();
    const after = await stored();
    process.stdout.write(`${kind}: ${after.length} stored webhook secrets after the restart, ${after.filter((x) => x.includes(SECRET)).length} in the clear\n`);
    expect(after.length).toBeGreaterThan(0);
    expect(after.filter((x) => !x.startsWith('sgs1:'))).toEqual([]);
    // The deliveries above were signed with the secret as registered (the replay test verified one).
    expect((await activeWebhooks(t.db, q.projectId)).map((h) => h.secret)).toEqual([SECRET]);
    // A server over the same database with another key: its deliveries are refused, loudly, never sent unsigned.
    const otherKey = database(t.db.engine, t.db.name, ephemeralSecretBox());
    const [hook] = await activeWebhooks(otherKey, q.projectId);
    expect(hook).toMatchObject({ secret: null, unreadable: expect.stringContaining('sealed with another key') });
    const other = await startServer(otherKey, silentLogger(), '127.0.0.1', 0, { webhookAllow: '127.0.0.1/32' } as ServerOptions);
    try {
      const before = receiver.requests.length;
      expect((await call(other, q, 'POST', '/quarantine', { module: ':m', suite: 'S', name: 'other-key', state: 'muted', owner: 'o', reason: 'r' })).status).toBe(201);
      const refused = async () => ((await call(other, q, 'GET', '/webhooks/deliveries?limit=5')).body!.deliveries as { error: string }[]).find((d) => d.error.startsWith('not sent:'));
      expect(await waitFor(async () => (await refused()) !== undefined)).toBe(true);
      expect((await refused())!.error).toContain("the webhook's secret is sealed with another key");
      expect(receiver.requests.length).toBe(before);
    } finally {
      await other.close();
    }
  });
});
