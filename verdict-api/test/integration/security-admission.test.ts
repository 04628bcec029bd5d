// Attack tests (issue 31, "one tenant cannot hurt another"): verdicts of two accounts on a real
// server on a port (embedded chDB, four verdicts at once). One account sends slow bodies, or a
// burst of heavy verdicts; the other account's verdict must not wait behind them.
import { Agent, request } from 'node:http';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { silentLogger } from '../../src/log/logger.js';
import { type RunningServer, startServer } from '../../src/server.js';
import { ids, type ProjectHandle, run, seedProject } from '../support/api.js';
import { openTestDatabase, type TestDatabase } from '../support/engines.js';
import { streamBody } from '../support/stream-client.js';

let t: TestDatabase;
let server: RunningServer;
let a: ProjectHandle;
let b: ProjectHandle;

beforeAll(async () => {
  t = await openTestDatabase('embedded');
  a = await seedProject(t.db, 'tenant-a');
  b = await seedProject(t.db, 'tenant-b');
  server = await startServer(t.db, silentLogger(), '127.0.0.1', 0, { verdictConcurrency: 4 });
  for (const p of [a, b]) {
    const res = await fetch(`${server.url}/api/v1/projects/${p.handle}/runs`, { method: 'POST', headers: { authorization: `Bearer ${p.token}`, 'content-type': 'application/json' }, body: JSON.stringify(run(`${p.handle}-history`, ['known'])) });
    expect(res.status).toBe(201);
  }
}, 120_000);
afterAll(async () => {
  agent.destroy();
  await server?.close();
  await t?.close();
});

// Every request on a connection of its own, all at once (fetch's pool may queue some client-side).
const agent = new Agent({ keepAlive: true, maxSockets: 128 });
const verdictOf = (p: ProjectHandle, body: string) =>
  new Promise<{ status: number; ms: number; at: number }>((resolve, reject) => {
    const started = performance.now();
    const bytes = Buffer.from(body);
    const req = request(`${server.url}/api/v1/projects/${p.handle}/verdict`, { method: 'POST', agent, headers: { authorization: `Bearer ${p.token}`, 'content-type': 'application/json', 'content-length': bytes.length } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, at: performance.now() }));
    });
    req.on('error', reject);
    req.end(bytes);
  });

type Answer = { status: number; ms: number; at: number };
/** Sends A's burst, then (300 ms later) B's verdict, from a worker thread; answers their timings. */
function burstFromAnotherThread(plan: { url: string; a: { handle: string; token: string; body: string; count: number }; b: { handle: string; token: string; body: string } }): Promise<{ started: number; a: Answer[]; b: Answer }> {
  const code = `
    const { parentPort, workerData: plan } = require('node:worker_threads');
    const { Agent, request } = require('node:http');
    const { performance } = require('node:perf_hooks');
    const agent = new Agent({ keepAlive: true, maxSockets: 128 });
    const post = (handle, token, body) => new Promise((resolve, reject) => {
      const started = performance.now();
      const bytes = Buffer.from(body);
      const req = request(plan.url + '/api/v1/projects/' + handle + '/verdict', { method: 'POST', agent, headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json', 'content-length': bytes.length } }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - started, at: performance.now() }));
      });
      req.on('error', reject);
      req.end(bytes);
    });
    (async () => {
      const started = performance.now();
      const a = Array.from({ length: plan.a.count }, () => post(plan.a.handle, plan.a.token, plan.a.body));
      await new Promise((r) => setTimeout(r, 300));
      const b = await post(plan.b.handle, plan.b.token, plan.b.body);
      parentPort.postMessage({ started, a: await Promise.all(a), b });
      agent.destroy();
    })().catch((e) => parentPort.postMessage({ error: String(e) }));
  `;
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, { eval: true, workerData: plan });
    worker.once('message', (m: { error?: string; started: number; a: Answer[]; b: Answer }) => (m.error ? reject(new Error(m.error)) : resolve(m)));
    worker.once('error', reject);
  });
}

describe('verdict admission', () => {
  it("answers one account's verdict at once while another account sends four slow bodies", async () => {
    const body = Buffer.from(JSON.stringify({ testCases: ids(Array.from({ length: 200 }, (_, i) => `slow-${i}`)) }));
    // Each slow body takes about 10 s to arrive: 20 pieces, 500 ms apart.
    const slow = Array.from({ length: 4 }, () =>
      streamBody(`${server.url}/api/v1/projects/${a.handle}/verdict`, { body, declareLength: body.length, chunkBytes: Math.ceil(body.length / 20), delayMs: 500, headers: { authorization: `Bearer ${a.token}` } }),
    );
    await new Promise((r) => setTimeout(r, 1_000));
    const other = await verdictOf(b, JSON.stringify({ testCases: ids(['known', 'fresh']) }));
    process.stdout.write(`tenant B's verdict beside four slow bodies of tenant A: ${other.status} in ${other.ms.toFixed(0)} ms\n`);
    expect(other.status).toBe(200);
    expect(other.ms).toBeLessThan(3_000);
    expect((await Promise.all(slow)).map((r) => r.status)).toEqual([200, 200, 200, 200]);
  }, 120_000);

  it("serves one account's verdict before a burst of another account's that came first", async () => {
    // Tenant A's suite: 20,000 tests with history, which every verdict of its burst posts again
    // (the usual verdict: a suite, nearly all known). Both scopes are held whole first (embedded
    // chDB), so that the verdicts below are CPU work only.
    const suite = Array.from({ length: 20_000 }, (_, i) => `suite-test-with-a-longer-name-${i}`);
    const history = await fetch(`${server.url}/api/v1/projects/${a.handle}/runs`, { method: 'POST', headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json' }, body: JSON.stringify(run('a-suite', suite)) });
    expect(history.status).toBe(201);
    await verdictOf(a, JSON.stringify({ testCases: ids(['known', 'warm-up']) }));
    await verdictOf(b, JSON.stringify({ testCases: ids(['known', 'warm-up']) }));
    await new Promise((r) => setTimeout(r, 1_000));
    const alone = await verdictOf(b, JSON.stringify({ testCases: ids(['known', 'fresh-1']) }));
    // The clients run in a thread of their own, as real clients run elsewhere: sharing the
    // server's event loop, B's request would wait for that loop merely to be sent.
    const result = await burstFromAnotherThread({
      url: server.url,
      a: { handle: a.handle, token: a.token, body: JSON.stringify({ testCases: ids([...suite, 'new-in-a']) }), count: 48 },
      b: { handle: b.handle, token: b.token, body: JSON.stringify({ testCases: ids(['known', 'fresh-2']) }) },
    });
    const after = result.a.filter((d) => d.at > result.b.at).length;
    const burstMs = Math.max(...result.a.map((d) => d.at)) - result.started;
    process.stdout.write(
      `tenant B's verdict (${alone.ms.toFixed(0)} ms alone) beside a burst of 48 verdicts of 20,000 identities of tenant A (${burstMs.toFixed(0)} ms in all): ` +
        `${result.b.ms.toFixed(0)} ms; ${after} of A's 48 answered after it\n`,
    );
    expect([...result.a.map((d) => d.status), result.b.status].every((s) => s === 200)).toBe(true);
    // In turn with A's burst, B's verdict waits for a few of A's (those in places and the next in
    // A's turn), not for the burst; alone on this machine it comes before nearly all of them. With
    // other test files taking the cores, each turn of the server's event loop runs up to four of
    // A's verdicts, and B's request needs a few turns to be read at all: it still comes before a
    // good part of the burst (measured: about half).
    // The order is the measure (before the fix: 0 of A's after B); the time is a looser second
    // look, since B's clock starts a little after the burst's (measured: 0.47 to 0.75 of it).
    expect(after).toBeGreaterThanOrEqual(12);
    expect(result.b.ms).toBeLessThan(burstMs * 0.9);
  }, 120_000);
});
