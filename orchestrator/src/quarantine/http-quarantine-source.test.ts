import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { identityKey } from '../identity/identity-key.js';
import { silentLogger } from '../base/log.js';
import { createHttpQuarantineSource } from './http-quarantine-source.js';
import { mutedCheck } from './quarantine-source.js';

const uuid = (n: number) => `00000000-0000-5000-8000-${String(n).padStart(12, '0')}`;
const listed = Array.from({ length: 5 }, (_, i) => ({
  module: ':app',
  suite: 'com.example.CheckoutTest',
  name: `t${i}`,
  testCaseId: uuid(i),
  state: i === 4 ? 'skipped' : 'muted',
  owner: 'team',
  reason: 'flaky',
  issueUrl: null,
  expiresAt: null,
  changedBy: 'token:x',
  changedAt: '2026-11-30 12:00:00',
}));

describe('HTTP quarantine source', () => {
  const requests: { url: string; auth: string | undefined }[] = [];
  let handler: (req: IncomingMessage, res: ServerResponse) => void = () => undefined;
  const server = createServer((req, res) => {
    requests.push({ url: req.url!, auth: req.headers.authorization });
    handler(req, res);
  });
  let url = '';
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });

  const source = (timeoutMs = 2000) => createHttpQuarantineSource({ serverUrl: url, project: 'my proj', token: 'sg_t0k', timeoutMs, pageSize: 2, logger: silentLogger() });

  /** A paginated server like the verdict API: limit + cursor (the last test_case_id). */
  const paginated = (req: IncomingMessage, res: ServerResponse) => {
    const q = new URL(req.url!, 'http://x').searchParams;
    const limit = Number(q.get('limit'));
    const after = q.get('cursor');
    const rest = listed.filter((t) => after === null || t.testCaseId > after);
    const tests = rest.slice(0, limit);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ tests, nextCursor: rest.length > limit ? tests.at(-1)!.testCaseId : null }));
  };

  it('fetches every page with the project token and splits muted from skipped', async () => {
    handler = paginated;
    requests.length = 0;
    const res = await source().lists();
    expect(requests.map((r) => r.url)).toEqual([
      '/api/v1/projects/my%20proj/quarantine?limit=2',
      `/api/v1/projects/my%20proj/quarantine?limit=2&cursor=${uuid(1)}`,
      `/api/v1/projects/my%20proj/quarantine?limit=2&cursor=${uuid(3)}`,
    ]);
    expect(requests.every((r) => r.auth === 'Bearer sg_t0k')).toBe(true);
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.value.count).toBe(5);
    expect([...res.value.skipped]).toEqual([identityKey(listed[4]!), uuid(4)]);
    expect(res.value.muted.size).toBe(8);
    expect(res.value.skippedTests).toEqual([{ module: listed[4]!.module, suite: listed[4]!.suite, name: listed[4]!.name }]);
    const muted = mutedCheck(res.value.muted);
    expect([muted(listed[0]!), muted(listed[4]!), muted({ module: ':app', suite: 'X', name: 'y' })]).toEqual([true, false, false]);
  });

  it('answers a failing page with a problem', async () => {
    handler = (_req, res) => res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 'FORBIDDEN', message: 'this token does not grant access to project "my proj"' } }));
    expect(await source().lists()).toEqual({ ok: false, problem: `${url}api/v1/projects/my%20proj/quarantine?limit=2: HTTP 403: FORBIDDEN: this token does not grant access to project "my proj"` });
  });

  it('gives up after its timeout and refuses a malformed page', async () => {
    handler = () => undefined; // never answers
    const started = Date.now();
    const r = await source(100).lists();
    expect(r).toEqual({ ok: false, problem: `${url}api/v1/projects/my%20proj/quarantine?limit=2: no answer within 0.1 s` });
    expect(Date.now() - started).toBeLessThan(2000);
    handler = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ tests: [{ name: 'x' }], nextCursor: null }));
    const bad = await source().lists();
    expect(!bad.ok && bad.problem).toMatch(/invalid response: tests\.0\.module: /);
  });
});
