// Attack tests (issue 31, "no one reads a body before being known"): bodies sent to the real
// verdict API (`verdict-api demo`, embedded chDB, its own process) without a credential, over a
// route's cap by their declared length, and chunked past it. The server's memory is read from
// /proc before and after the 200 MiB attack, and printed.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { floodChunked, residentBytes, streamBody } from '../support/stream-client.js';

const MiB = 1024 * 1024;
let api: DemoServer;

beforeAll(async () => {
  api = await startDemoServer();
}, 120_000);
afterAll(async () => {
  await api?.stop();
});

const mb = (bytes: number) => `${(bytes / MiB).toFixed(0)} MiB`;

describe('bodies before authentication', () => {
  it('answers a 200 MiB chunked upload with no credential 401 before reading it, and the server does not grow', async () => {
    // Warm up: the first requests load code and caches.
    for (let i = 0; i < 3; i++) await fetch(`${api.url}/api/v1/projects/${api.project}/quarantine`, { headers: { authorization: `Bearer ${api.token}` } });
    const before = residentBytes(api.pid);
    const res = await streamBody(`${api.url}/api/v1/projects/${api.project}/runs`, { totalBytes: 200 * MiB });
    await new Promise((r) => setTimeout(r, 500));
    const after = residentBytes(api.pid);
    process.stdout.write(
      `unauthenticated 200 MiB chunked body: status ${res.status} after ${mb(res.sentBeforeAnswer)} sent (${res.answeredAfterMs.toFixed(0)} ms; ${mb(res.sent)} in all, ${res.error ?? "no socket error"}); ` +
        `server RSS ${mb(before.rss)} -> ${mb(after.rss)}, peak ${mb(before.peak)} -> ${mb(after.peak)}\n`,
    );
    expect(res.status).toBe(401);
    expect(res.sentBeforeAnswer).toBeLessThan(32 * MiB);
    expect(after.peak - before.peak).toBeLessThan(48 * MiB);
  }, 120_000);

  it('cuts off a client that goes on sending after its 401, keeping none of it', async () => {
    const before = residentBytes(api.pid);
    // Far more than loopback carries in the server's 500 ms: a quiet machine sent 1 GiB in 0.35 s,
    // so the client finished before the server closed, and the test failed although the server was right.
    const res = await floodChunked(`${api.url}/api/v1/projects/${api.project}/runs`, {}, 32 * 1024 * MiB);
    const after = residentBytes(api.pid);
    process.stdout.write(
      `going on after the 401: ${mb(res.sent)} sent in all, closed by the server ${res.closedAfterAnswerMs.toFixed(0)} ms after the answer; ` +
        `server RSS peak ${mb(before.peak)} -> ${mb(after.peak)}\n`,
    );
    expect(res.response).toMatch(/^HTTP\/1\.1 401 /);
    expect(res.closedByServer).toBe(true);
    // What comes after the answer is discarded for at most 500 ms (@hono/node-server), then the connection is closed.
    expect(res.closedAfterAnswerMs).toBeLessThan(2_000);
    // Read and dropped, not kept: the peak grows by the garbage of those 500 ms before a collection
    // (measured 38-57 MiB while 164-386 MiB arrived), never by the body (678 MiB before the fix).
    expect(after.peak - before.peak).toBeLessThan(96 * MiB);
  }, 120_000);

  it('answers a chunked body with a wrong token 401 before reading it', async () => {
    const res = await streamBody(`${api.url}/api/v1/projects/${api.project}/verdict`, { totalBytes: 200 * MiB, headers: { authorization: 'Bearer sg_not-a-token' } });
    expect(res.status).toBe(401);
    expect(res.sentBeforeAnswer).toBeLessThan(32 * MiB);
  }, 120_000);

  it('refuses a settings body over its cap by its declared length, before any of it is sent', async () => {
    const res = await streamBody(`${api.url}/api/v1/projects/${api.project}/settings`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${api.admin}` },
      declareLength: 8 * MiB,
      totalBytes: 8 * MiB,
      chunkBytes: 64 * 1024,
      delayMs: 100,
    });
    expect(res.status).toBe(413);
    expect(res.sentBeforeAnswer).toBeLessThan(MiB);
    expect(JSON.parse(res.body).error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', field: 'body' });
  }, 120_000);

  it('refuses a run upload declaring 200 MiB at once (over the upload cap)', async () => {
    const res = await streamBody(`${api.url}/api/v1/projects/${api.project}/runs`, {
      headers: { authorization: `Bearer ${api.token}` },
      declareLength: 200 * MiB,
      totalBytes: 200 * MiB,
      chunkBytes: 256 * 1024,
      delayMs: 20,
    });
    expect(res.status).toBe(413);
    expect(res.sentBeforeAnswer).toBeLessThan(8 * MiB);
  }, 120_000);

  it('stops reading a chunked verdict body the moment it passes the verdict cap', async () => {
    const res = await streamBody(`${api.url}/api/v1/projects/${api.project}/verdict`, { totalBytes: 200 * MiB, headers: { authorization: `Bearer ${api.token}` }, prefix: Buffer.from('{"testCases":[') });
    process.stdout.write(`authenticated 200 MiB chunked verdict body: status ${res.status} after ${mb(res.sentBeforeAnswer)} sent\n`);
    expect(res.status).toBe(413);
    expect(res.sentBeforeAnswer).toBeLessThan(64 * MiB + 16 * MiB);
  }, 120_000);
});
