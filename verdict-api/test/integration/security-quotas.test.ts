// Attack tests (issue 31): one account's volume against the service. Repetitions without end on
// one test case; requests without end; request bodies held without end; projects and webhooks
// without end. Real servers on ports, both engines.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MAX_REPETITIONS } from '../../src/contract.js';
import { silentLogger } from '../../src/log/logger.js';
import { type RunningServer, startServer } from '../../src/server.js';
import { type ProjectHandle, run, seedProject } from '../support/api.js';
import { ENGINES, openTestDatabase, type TestDatabase } from '../support/engines.js';
import { streamBody } from '../support/stream-client.js';

type ServerOptions = NonNullable<Parameters<typeof startServer>[4]>;
const MiB = 1024 * 1024;

describe.each(ENGINES)('quotas on %s ClickHouse', (kind) => {
  let t: TestDatabase;
  /** Rates and bodies limited tightly, so that a test reaches them in a moment. */
  let server: RunningServer;
  let a: ProjectHandle;
  let b: ProjectHandle;

  const call = async (p: ProjectHandle, method: string, path: string, body?: unknown, token = p.token) => {
    const res = await fetch(`${server.url}/api/v1/projects/${p.handle}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as Record<string, any>) : null };
  };

  beforeAll(async () => {
    t = await openTestDatabase(kind);
    a = await seedProject(t.db, `quota-a-${kind}`);
    b = await seedProject(t.db, `quota-b-${kind}`);
    server = await startServer(t.db, silentLogger(), '127.0.0.1', 0, { accountRate: { perSecond: 20, burst: 60 }, accountBodyBytes: 40 * MiB } as ServerOptions);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  it('refuses 500,000 repetitions of one test case in a run upload and in a gate upload', async () => {
    const repetitions = Array.from({ length: 500_000 }, (_, i) => ({ repetition: (i % MAX_REPETITIONS) + 1, status: 'success' as const, durationMs: 1 }));
    const upload = await call(a, 'POST', '/runs', run('many-reps', [], { testCases: [{ module: ':app', suite: 'S', name: 'n', status: 'success', durationMs: 1, repetitions }] }));
    expect([upload.status, upload.body?.error?.field]).toEqual([400, 'testCases[0].repetitions']);
    await new Promise((r) => setTimeout(r, 3_000)); // the bucket refills
    const gateOf = (reps: typeof repetitions) => ({
      mode: 'report', outcome: 'passed', candidatesExamined: 1, stressed: 1, excluded: 0, guard: null, blocked: false, wouldHaveBlocked: false,
      testCases: [{ module: ':app', suite: 'S', name: 'n', outcome: 'passed', repetitions: reps }],
    });
    // 500,000 repetitions are past the gate's body cap already; 101 are past the repetitions' cap.
    expect((await call(a, 'POST', '/runs/many-reps-gate/gate', gateOf(repetitions))).status).toBe(413);
    const gate = await call(a, 'POST', '/runs/many-reps-gate/gate', gateOf(repetitions.slice(0, 101)));
    expect([gate.status, gate.body?.error?.field]).toEqual([400, 'testCases[0].repetitions']);
  }, 120_000);

  it("limits one account's request rate, and not another's", async () => {
    await new Promise((r) => setTimeout(r, 3_000)); // a full bucket
    const burst = await Promise.all(Array.from({ length: 200 }, () => call(a, 'GET', '/quarantine')));
    const limited = burst.filter((r) => r.status === 429);
    process.stdout.write(`${kind}: 200 requests of one account at once: ${burst.length - limited.length} answered, ${limited.length} x 429\n`);
    expect(limited.length).toBeGreaterThanOrEqual(100);
    expect(limited[0]!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(limited[0]!.body!.error).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    expect((await call(b, 'GET', '/quarantine')).status).toBe(200);
  });

  it("holds one account's request bodies in flight to its budget", async () => {
    await new Promise((r) => setTimeout(r, 3_000));
    // Three uploads declaring 16 MiB each, sent slowly: the third passes the account's 40 MiB.
    const stop = new AbortController();
    const slow = Array.from({ length: 3 }, () =>
      streamBody(`${server.url}/api/v1/projects/${a.handle}/runs`, { headers: { authorization: `Bearer ${a.token}` }, declareLength: 16 * MiB, totalBytes: 16 * MiB, chunkBytes: 64 * 1024, delayMs: 200, signal: stop.signal }),
    );
    const first = await Promise.race(slow);
    stop.abort();
    await Promise.all(slow);
    expect(first.status).toBe(429);
    expect(first.answeredAfterMs).toBeLessThan(2_000);
    // Another account's upload is not held back by it.
    expect((await call(b, 'POST', '/runs', run('b-run', ['x']))).status).toBe(201);
  }, 120_000);

  it('bounds the projects an account creates and the webhooks a project has', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 101; i++) {
      const res = await fetch(`${server.url}/api/v1/accounts/${b.accountId}/projects`, { method: 'POST', headers: { authorization: `Bearer ${b.admin}`, 'content-type': 'application/json' }, body: JSON.stringify({ handle: `many-${kind}-${i}` }) });
      statuses.push(res.status);
    }
    // The account had one project already: 99 more, then the quota.
    expect(statuses.filter((s) => s === 201).length).toBe(99);
    expect(statuses.slice(99)).toEqual([409, 409]);
    const hooks: number[] = [];
    for (let i = 0; i < 11; i++) hooks.push((await call(b, 'POST', '/webhooks', { url: `https://hooks.example.com/${i}`, secret: 'a-webhook-secret-of-16+' }, b.admin)).status);
    expect(hooks).toEqual([...Array(10).fill(201), 409]);
  }, 120_000);
});
