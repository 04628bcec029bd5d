// Attack test (issue 37, "memory and no storage quota"): a tenant uploads its largest run (94 MiB,
// 100,000 test cases, the most a run may hold) to the real verdict API (`verdict-api demo`, embedded chDB, its own
// process), then opens its page 10 times at once, as the dashboard and as the API, while another
// account asks for verdicts every 50 ms. The server's resident memory is sampled from /proc.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { residentBytes } from '../support/stream-client.js';

const MiB = 1024 * 1024;
const OPERATOR = 'operator-credential-of-the-run-size-test-0123456789';
let api: DemoServer;
/** Another account's project and CI token. */
let other: { handle: string; token: string };

const json = async (method: string, path: string, token: string, body?: unknown) => {
  const res = await fetch(`${api.url}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

beforeAll(async () => {
  api = await startDemoServer({ STRESS_GATE_OPERATOR_TOKEN: OPERATOR, STRESS_GATE_ACCOUNT_REQUESTS_PER_SECOND: '0' });
  const account = await json('POST', '/api/v1/admin/accounts', OPERATOR, { name: 'Other', entitled: true });
  const credential = await json('POST', `/api/v1/admin/accounts/${account.body['accountId']}/credentials`, OPERATOR, { name: 'ops' });
  const project = await json('POST', `/api/v1/accounts/${account.body['accountId']}/projects`, credential.body['credential'], { handle: 'other-tenant', defaultBranch: 'main' });
  expect(project.status).toBe(201);
  const token = await json('POST', '/api/v1/projects/other-tenant/tokens', credential.body['credential'], { name: 'ci', scope: 'default-branch' });
  other = { handle: 'other-tenant', token: token.body['token'] };
}, 120_000);
afterAll(async () => {
  await api?.stop();
});

/** A run upload of about `bytes` bytes in `count` test cases (long names), one in 997 failed. */
function largestRun(bytes: number, count: number): string {
  const head = JSON.stringify({ runId: 'largest', branch: 'feature/huge', commit: 'c0ffee', isCi: true, status: 'failure', durationMs: 600_000, startedAt: new Date().toISOString(), testCases: [] }).slice(0, -2);
  const cases: string[] = [];
  const pad = Math.floor(bytes / count) - 150;
  for (let i = 0; i < count; i++) {
    const c = JSON.stringify({ module: `:module-${i % 40}`, suite: `com.example.generated.Suite${Math.floor(i / 50)}`, name: `test_${i}_${'x'.repeat(pad)}`, status: i % 997 === 0 ? 'failure' : 'success', durationMs: i % 300 });
    cases.push(c);
  }
  return `${head}${cases.join(',')}]}`;
}

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;

describe('a tenant’s largest run', () => {
  it('opened 10 times at once (dashboard and API): the server stays under 1 GB and another account’s verdict p99 under 500 ms', async () => {
    const body = largestRun(94 * MiB, 100_000);
    const upload = await fetch(`${api.url}/api/v1/projects/${api.project}/runs`, { method: 'POST', headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' }, body });
    expect(upload.status).toBe(201);
    const sign = await fetch(`${api.url}/sign-in`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: api.url }, body: new URLSearchParams({ credential: api.admin }).toString() });
    const cookie = /sg_session=([^;]+)/.exec(sign.headers.get('set-cookie') ?? '')![1]!;
    // Let the upload's garbage go before measuring.
    await new Promise((r) => setTimeout(r, 2_000));
    const verdict = JSON.stringify({ testCases: [{ module: ':app', suite: 'com.example.OtherTest', name: 'answers', durationMs: 5 }] });
    const ask = async () => {
      const started = performance.now();
      const res = await fetch(`${api.url}/api/v1/projects/${other.handle}/verdict`, { method: 'POST', headers: { authorization: `Bearer ${other.token}`, 'content-type': 'application/json' }, body: verdict });
      await res.arrayBuffer();
      return { status: res.status, ms: performance.now() - started };
    };
    for (let i = 0; i < 5; i++) await ask();
    const before = residentBytes(api.pid).rss;

    let opening = true;
    let maxRss = before;
    const sampler = (async () => {
      while (opening) {
        maxRss = Math.max(maxRss, residentBytes(api.pid).rss);
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
    const verdicts: { status: number; ms: number }[] = [];
    const asker = (async () => {
      while (opening) {
        verdicts.push(await ask());
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const started = performance.now();
    const opens = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const res =
          i % 2 === 0
            ? await fetch(`${api.url}/projects/${api.project}/runs/largest`, { headers: { cookie: `sg_session=${cookie}` } })
            : await fetch(`${api.url}/api/v1/projects/${api.project}/runs/largest`, { headers: { authorization: `Bearer ${api.admin}` } });
        const text = await res.text();
        return { status: res.status, bytes: text.length, text };
      }),
    );
    const openMs = performance.now() - started;
    // A few more verdicts after the pages are out, then stop.
    await new Promise((r) => setTimeout(r, 500));
    opening = false;
    await Promise.all([sampler, asker]);

    const page = JSON.parse(opens[1]!.text) as { counts: { testCases: number; failed: number }; testCases: unknown[]; nextTestCases: string | null; failedTestCases: unknown[] };
    process.stdout.write(
      `largest run: ${(body.length / MiB).toFixed(0)} MiB, ${page.counts.testCases} test cases (${page.counts.failed} failed); 10 opens in ${(openMs / 1000).toFixed(1)} s: ` +
        `pages ${Math.max(...opens.filter((_, i) => i % 2 === 0).map((o) => o.bytes))} bytes (HTML), ${Math.max(...opens.filter((_, i) => i % 2 === 1).map((o) => o.bytes))} bytes (JSON); ` +
        `server RSS ${(before / MiB).toFixed(0)} -> at most ${(maxRss / MiB).toFixed(0)} MiB; another account's verdict over ${verdicts.length} asks: ` +
        `p50 ${quantile(verdicts.map((v) => v.ms), 0.5).toFixed(0)} ms, p99 ${quantile(verdicts.map((v) => v.ms), 0.99).toFixed(0)} ms\n`,
    );
    expect(opens.map((o) => o.status)).toEqual(Array(10).fill(200));
    expect(page.counts.testCases).toBe(100_000);
    expect(page.testCases.length).toBeLessThanOrEqual(500);
    expect(page.nextTestCases).not.toBeNull();
    expect(maxRss).toBeLessThan(1024 * MiB);
    expect(verdicts.every((v) => v.status === 200)).toBe(true);
    expect(verdicts.length).toBeGreaterThanOrEqual(5);
    expect(quantile(verdicts.map((v) => v.ms), 0.99)).toBeLessThan(500);

    // The next page continues where the first ended.
    const next = await json('GET', `/api/v1/projects/${api.project}/runs/largest?after=${encodeURIComponent(page.nextTestCases!)}&limit=1000`, api.admin);
    expect(next.status).toBe(200);
    expect(next.body['testCases']).toHaveLength(1000);
    expect(new Set([...page.testCases, ...next.body['testCases']].map((t: any) => t.testCaseId)).size).toBe(page.testCases.length + 1000);
    expect((await json('GET', `/api/v1/projects/${api.project}/runs/largest?after=not-a-cursor`, api.admin)).body['error']).toMatchObject({ field: 'after' });
  }, 600_000);
});
