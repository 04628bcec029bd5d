import { afterEach, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { silentLogger } from '../base/log.js';
import { postedTestCases } from '../../test/support/fake-verdict-server.js';
import { createVerdictClient, groupBySuite } from './verdict-client.js';

const client = (fetch: typeof globalThis.fetch, timeoutMs = 1000) =>
  createVerdictClient({ serverUrl: 'http://api.test/', project: 'my proj', token: 't0k', timeoutMs, fetch, logger: silentLogger() });

describe('verdict client', () => {
  it('posts to the project URL with the bearer token', async () => {
    const seen: [string, RequestInit][] = [];
    const fetch = (async (url: string, init: RequestInit) => {
      seen.push([url, init]);
      return new Response('{}', { status: 201 });
    }) as unknown as typeof globalThis.fetch;
    expect(await client(fetch).uploadGate('run:1', { mode: 'report', outcome: 'passed', candidatesExamined: 0, stressed: 0, excluded: 0, guard: null, blocked: false, wouldHaveBlocked: false, testCases: [] })).toEqual({ ok: true, value: undefined });
    expect(seen[0]![0]).toBe('http://api.test/api/v1/projects/my%20proj/runs/run%3A1/gate');
    expect((seen[0]![1].headers as Record<string, string>)['authorization']).toBe('Bearer t0k');
  });

  it('gives up after the timeout with a problem, not a throw', async () => {
    const hang = ((_url: string, init: RequestInit) =>
      new Promise((_resolve, reject) => init.signal!.addEventListener('abort', () => reject(init.signal!.reason)))) as unknown as typeof globalThis.fetch;
    const started = Date.now();
    const r = await client(hang, 50).verdict({ testCases: [] });
    expect(r).toEqual({ ok: false, problem: 'http://api.test/api/v1/projects/my%20proj/verdict: no answer within 0.05 s' });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('when the budget ends inside a retry, says what the earlier attempts were answered', async () => {
    let calls = 0;
    const fetch = ((_url: string, init: RequestInit) =>
      ++calls === 1
        ? Promise.resolve(new Response('{}', { status: 503 }))
        : new Promise((_resolve, reject) => init.signal!.addEventListener('abort', () => reject(init.signal!.reason)))) as unknown as typeof globalThis.fetch;
    const r = await client(fetch, 600).verdict({ testCases: [] });
    expect(r).toEqual({ ok: false, problem: 'http://api.test/api/v1/projects/my%20proj/verdict: HTTP 503 after 2 attempts (the last: no answer within 0.6 s)' });
  });

  it('sends the verdict request grouped by suite, in order of first appearance', async () => {
    let sent: unknown;
    const fetch = (async (_url: string, init: RequestInit) => {
      sent = JSON.parse(String(init.body));
      return Response.json({});
    }) as unknown as typeof globalThis.fetch;
    const testCases = [
      { module: ':app', suite: 'A', name: 'a1', durationMs: 1 },
      { module: ':lib', suite: 'A', name: 'a1', durationMs: 2 },
      { module: ':app', suite: 'B', name: 'b1', durationMs: 3 },
      { module: ':app', suite: 'A', name: 'a2', durationMs: 4 },
      // No module and suite pair can spell another's key.
      { module: ':app:x', suite: 'y', name: 'n', durationMs: 5 },
      { module: ':app', suite: ':xy', name: 'n', durationMs: 6 },
    ];
    await client(fetch).verdict({ runId: 'r1', mode: 'report', testCases });
    expect(sent).toEqual({
      runId: 'r1',
      mode: 'report',
      suites: [
        { module: ':app', suite: 'A', names: ['a1', 'a2'], durationsMs: [1, 4] },
        { module: ':lib', suite: 'A', names: ['a1'], durationsMs: [2] },
        { module: ':app', suite: 'B', names: ['b1'], durationsMs: [3] },
        { module: ':app:x', suite: 'y', names: ['n'], durationsMs: [5] },
        { module: ':app', suite: ':xy', names: ['n'], durationsMs: [6] },
      ],
    });
    expect(postedTestCases({ suites: groupBySuite(testCases) })).toHaveLength(testCases.length);
  });

  it('validates the verdict response', async () => {
    const fetch = (async () => Response.json({ entitled: 'yes' })) as unknown as typeof globalThis.fetch;
    const r = await client(fetch).verdict({ testCases: [] });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.problem).toMatch(/invalid response: projectId: /);
  });
});

/** A loopback server answering each request with the next of `answers` (status, headers). */
async function loopback(answers: { status: number; headers?: Record<string, string> }[], port = 0) {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push(body);
      const a = answers[Math.min(seen.length - 1, answers.length - 1)]!;
      res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
      res.end(a.status === 201 ? '{}' : '{"error":{"code":"unavailable","message":"ClickHouse is unreachable"}}');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
  open.push(close);
  return { url, seen, close };
}

/** Servers still listening when a test ends (a failed expectation skips its close): closed after it, or jest never exits. */
const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((close) => close()));
});

const gate = { mode: 'report' as const, outcome: 'passed' as const, candidatesExamined: 0, stressed: 0, excluded: 0, guard: null, blocked: false, wouldHaveBlocked: false, testCases: [] };
const real = (url: string, timeoutMs: number) =>
  createVerdictClient({ serverUrl: url, project: 'p', token: 't', timeoutMs, logger: silentLogger(), backoffMs: () => 50 });

describe('verdict client retries (real loopback server)', () => {
  it('retries a 503, honouring Retry-After, until the server answers', async () => {
    const s = await loopback([{ status: 503, headers: { 'retry-after': '0' } }, { status: 503, headers: { 'retry-after': '1' } }, { status: 201 }]);
    const started = Date.now();
    expect(await real(s.url, 5000).uploadGate('r1', gate)).toEqual({ ok: true, value: undefined });
    expect(s.seen).toHaveLength(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000); // waited the second Retry-After
    await s.close();
  });

  it('retries a refused connection until the server comes up', async () => {
    const probe = await loopback([{ status: 201 }]);
    const port = Number(new URL(probe.url).port);
    await probe.close();
    const later = new Promise<Awaited<ReturnType<typeof loopback>>>((resolve) => setTimeout(() => resolve(loopback([{ status: 201 }], port)), 300));
    expect(await real(probe.url, 5000).uploadGate('r1', gate)).toEqual({ ok: true, value: undefined });
    const s = await later;
    expect(s.seen).toHaveLength(1);
    await s.close();
  });

  it('gives up within the timeout, saying how often it tried; a Retry-After beyond it is not waited for', async () => {
    const s = await loopback([{ status: 503 }]);
    const r = await real(s.url, 1500).uploadGate('r1', gate);
    expect(r.ok).toBe(false);
    // The budget ends between attempts or inside one; either way the 503s are what is said.
    expect(!r.ok && r.problem).toMatch(/\/runs\/r1\/gate: HTTP 503 after \d+ attempts( \(the last: no answer within 1\.5 s\))?$/);
    await s.close();
    const long = await loopback([{ status: 503, headers: { 'retry-after': '60' } }]);
    const started = Date.now();
    const r2 = await real(long.url, 2000).uploadGate('r1', gate);
    expect(!r2.ok && r2.problem).toMatch(/HTTP 503 \(Retry-After 60\)$/);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(long.seen).toHaveLength(1);
    await long.close();
  });

  it('does not retry other errors (a 500 is an answer)', async () => {
    const s = await loopback([{ status: 500 }, { status: 201 }]);
    const r = await real(s.url, 2000).uploadGate('r1', gate);
    expect(!r.ok && r.problem).toMatch(/HTTP 500 unavailable: ClickHouse is unreachable$/);
    expect(s.seen).toHaveLength(1);
    await s.close();
  });
});
