// The attack tests of a tenant's largest reads (security-run-size, security-gate-evidence-size):
// the real verdict API in its own process (`verdict-api demo`, embedded chDB) with a second
// account, and a run's page opened 10 times at once while that other account asks for verdicts
// every 50 ms and the server's resident memory is sampled from /proc.
import { expect } from '@jest/globals';
import { startDemoServer, type DemoServer } from './demo-server.js';
import { residentBytes } from './stream-client.js';

export const MiB = 1024 * 1024;

/** The demo server and another account's project with its CI token. */
export interface TwoTenants {
  api: DemoServer;
  other: { handle: string; token: string };
  json: (method: string, path: string, token: string, body?: unknown) => Promise<{ status: number; body: Record<string, any> }>;
}

/** Starts the demo server with an operator, who makes another account, its project and its default-branch token. */
export async function startTwoTenants(operator: string): Promise<TwoTenants> {
  const api = await startDemoServer({ STRESS_GATE_OPERATOR_TOKEN: operator, STRESS_GATE_ACCOUNT_REQUESTS_PER_SECOND: '0' });
  const json = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(`${api.url}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  const account = await json('POST', '/api/v1/admin/accounts', operator, { name: 'Other', entitled: true });
  const credential = await json('POST', `/api/v1/admin/accounts/${account.body['accountId']}/credentials`, operator, { name: 'ops' });
  const project = await json('POST', `/api/v1/accounts/${account.body['accountId']}/projects`, credential.body['credential'], { handle: 'other-tenant', defaultBranch: 'main' });
  expect(project.status).toBe(201);
  const token = await json('POST', '/api/v1/projects/other-tenant/tokens', credential.body['credential'], { name: 'ci', scope: 'default-branch' });
  return { api, other: { handle: 'other-tenant', token: token.body['token'] }, json };
}

/**
 * Lets the event loop see what happened while a large body was being built: a pooled keep-alive
 * connection the server closed after its 5 s idle time would otherwise be taken for the upload,
 * which then fails with EPIPE (building 94 MiB takes longer than 5 s on a loaded machine).
 */
export const settle = () => new Promise((r) => setTimeout(r, 100));

export const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;

/** What opening a run under load measured. */
export interface UnderLoad<T> {
  /** Even: the dashboard's page; odd: the API's JSON. */
  opens: { status: number; bytes: number; text: string }[];
  openMs: number;
  rssBefore: number;
  rssMax: number;
  verdicts: { status: number; ms: number }[];
  /** What `alsoDuring` returned. */
  also: T;
}

/**
 * Opens run `runId`'s page 10 times at once (dashboard and API in turn), then `alsoDuring`, while
 * the other account asks for its verdict every 50 ms and the server's RSS is sampled every 25 ms.
 */
export async function openTenTimes<T>({ api, other }: TwoTenants, runId: string, alsoDuring: () => Promise<T>): Promise<UnderLoad<T>> {
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
  const rssBefore = residentBytes(api.pid).rss;

  let opening = true;
  let rssMax = rssBefore;
  const sampler = (async () => {
    while (opening) {
      rssMax = Math.max(rssMax, residentBytes(api.pid).rss);
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
          ? await fetch(`${api.url}/projects/${api.project}/runs/${runId}`, { headers: { cookie: `sg_session=${cookie}` } })
          : await fetch(`${api.url}/api/v1/projects/${api.project}/runs/${runId}`, { headers: { authorization: `Bearer ${api.admin}` } });
      const text = await res.text();
      return { status: res.status, bytes: Buffer.byteLength(text), text };
    }),
  );
  const openMs = performance.now() - started;
  const also = await alsoDuring();
  // A few more verdicts after the pages are out, then stop.
  await new Promise((r) => setTimeout(r, 500));
  opening = false;
  await Promise.all([sampler, asker]);
  return { opens, openMs, rssBefore, rssMax, verdicts, also };
}

/** "10 opens in …: pages … (HTML), … (JSON); server RSS …; another account's verdict …". */
export function underLoadLine(u: UnderLoad<unknown>): string {
  const ms = u.verdicts.map((v) => v.ms);
  return (
    `10 opens in ${(u.openMs / 1000).toFixed(1)} s: pages ${Math.max(...u.opens.filter((_, i) => i % 2 === 0).map((o) => o.bytes))} bytes (HTML), ` +
    `${Math.max(...u.opens.filter((_, i) => i % 2 === 1).map((o) => o.bytes))} bytes (JSON); server RSS ${(u.rssBefore / MiB).toFixed(0)} -> at most ${(u.rssMax / MiB).toFixed(0)} MiB; ` +
    `another account's verdict over ${u.verdicts.length} asks: p50 ${quantile(ms, 0.5).toFixed(0)} ms, p99 ${quantile(ms, 0.99).toFixed(0)} ms`
  );
}

/** Every open answered; the server under 1 GB; the other account answered every time, p99 under 500 ms. */
export function expectBounded(u: UnderLoad<unknown>): void {
  expect(u.opens.map((o) => o.status)).toEqual(Array(10).fill(200));
  expect(u.rssMax).toBeLessThan(1024 * MiB);
  expect(u.verdicts.every((v) => v.status === 200)).toBe(true);
  expect(u.verdicts.length).toBeGreaterThanOrEqual(5);
  expect(quantile(u.verdicts.map((v) => v.ms), 0.99)).toBeLessThan(500);
}
