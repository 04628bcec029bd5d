// Attack tests (issue 37, "connection flood"): the real verdict API (`verdict-api demo`, embedded
// chDB, its own process with 20,000 descriptors) under 25,000 half-open connections from flood
// processes of their own, while another client asks for health, readiness and its verdict over a
// new connection every 100 ms. Then the header and keep-alive timeouts, one connection each.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';

const FLOOD = fileURLToPath(new URL('../support/connection-flood.mjs', import.meta.url));
const DESCRIPTORS = 20_000;
let api: DemoServer;

beforeAll(async () => {
  api = await startDemoServer({}, { descriptors: DESCRIPTORS });
}, 120_000);
afterAll(async () => {
  await api?.stop();
});

interface Probe {
  status: number;
  ms: number;
}

/** One request over a connection of its own (no keep-alive pool), answered or not within 5 s. */
function probe(method: 'GET' | 'POST', path: string, body?: string): Promise<Probe> {
  const started = performance.now();
  const url = new URL(path, api.url);
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = { authorization: `Bearer ${api.token}`, connection: 'close' };
    if (body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    const req = request(url, { method, agent: false, headers, timeout: 5_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    req.end(body);
  });
}

interface FloodStats {
  opened: number;
  open: number;
  refused: number;
  closedByServer: number;
  errors: Record<string, number>;
  done: boolean;
}

function startFlood(from: string, count: number): { child: ChildProcess; last: () => FloodStats | null; stop: () => Promise<FloodStats | null> } {
  const port = new URL(api.url).port;
  const child = spawn(process.execPath, [FLOOD, '127.0.0.1', port, String(count), from], { stdio: ['ignore', 'pipe', 'inherit'] });
  let latest: FloodStats | null = null;
  let buffered = '';
  child.stdout!.on('data', (d: Buffer) => {
    buffered += d.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) if (line.trim()) latest = JSON.parse(line) as FloodStats;
  });
  return {
    child,
    last: () => latest,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      return latest;
    },
  };
}

const openDescriptors = (pid: number) => readdirSync(`/proc/${pid}/fd`).length;

describe('a connection flood', () => {
  it('25,000 half-open connections against 20,000 descriptors: another client’s health, readiness and verdict answer within 1 s throughout', async () => {
    const verdict = JSON.stringify({ testCases: [{ module: ':app', suite: 'com.example.FloodTest', name: 'answers', durationMs: 5 }] });
    // Warm up: the first verdict loads code and caches.
    expect((await probe('POST', `/api/v1/projects/${api.project}/verdict`, verdict)).status).toBe(200);
    const floods = [startFlood('127.0.0.2', 12_500), startFlood('127.0.0.3', 12_500)];
    const probes: { kind: string; at: number; result: Probe }[] = [];
    let maxDescriptors = 0;
    const started = performance.now();
    try {
      // Probe while the floods open their connections, and 3 s after they have all been made.
      let doneAt: number | null = null;
      while (doneAt === null || performance.now() - doneAt < 3_000) {
        const at = performance.now() - started;
        const [health, ready, answer] = await Promise.all([probe('GET', '/healthz'), probe('GET', '/readyz'), probe('POST', `/api/v1/projects/${api.project}/verdict`, verdict)]);
        probes.push({ kind: 'healthz', at, result: health }, { kind: 'readyz', at, result: ready }, { kind: 'verdict', at, result: answer });
        maxDescriptors = Math.max(maxDescriptors, openDescriptors(api.pid));
        if (doneAt === null && floods.every((f) => f.last()?.done)) doneAt = performance.now();
        if (performance.now() - started > 120_000) throw new Error(`the floods did not finish within 120 s: ${JSON.stringify(floods.map((f) => f.last()))}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      const totals = await Promise.all(floods.map((f) => f.stop()));
      const slowest = (kind: string) => Math.max(...probes.filter((p) => p.kind === kind).map((p) => p.result.ms));
      process.stdout.write(
        `connection flood: ${totals.map((t) => `${t?.opened} opened (${t?.open} still open, ${t?.closedByServer} closed by the server, ${t?.refused} refused)`).join('; ')}; ` +
          `${probes.length / 3} probe rounds over ${((performance.now() - started) / 1000).toFixed(1)} s; slowest healthz ${slowest('healthz').toFixed(0)} ms, ` +
          `readyz ${slowest('readyz').toFixed(0)} ms, verdict ${slowest('verdict').toFixed(0)} ms; server descriptors at most ${maxDescriptors} of ${DESCRIPTORS}\n`,
      );
      // Each flood made all of its 12,500 attempts; the server kept at most 256 from each address.
      for (const t of totals) {
        expect(t!.opened + t!.refused).toBe(12_500);
        expect(t!.open).toBeLessThanOrEqual(256);
      }
    }
    expect(probes.length).toBeGreaterThanOrEqual(30);
    const shown = (list: typeof probes) => list.map((p) => `${p.kind} at ${(p.at / 1000).toFixed(1)} s: ${p.result.status} in ${p.result.ms.toFixed(0)} ms`);
    // Every probe answered within 1 s. (Before the listen backlog and the early refusal, about 1 run
    // in 3 on this 2-core machine had a round of about 1.1 s: a handshake dropped by a full accept
    // queue, retried by TCP a second later.)
    expect(shown(probes.filter((p) => p.result.status !== 200 || p.result.ms >= 1_000))).toEqual([]);
    expect(maxDescriptors).toBeLessThan(DESCRIPTORS / 2);
  }, 240_000);

  it('closes a connection that has not sent its headers within 10 s, and an idle keep-alive connection about 5 s after its answer', async () => {
    const { port } = new URL(api.url);
    const watch = (send: string) =>
      new Promise<{ closedAfterMs: number; answer: string }>((resolve) => {
        const socket = connect({ host: '127.0.0.1', port: Number(port) });
        let answer = '';
        let sentAt = 0;
        socket.on('connect', () => {
          sentAt = performance.now();
          socket.write(send);
        });
        socket.on('data', (d) => (answer += d.toString()));
        socket.on('error', () => {});
        socket.on('close', () => resolve({ closedAfterMs: performance.now() - sentAt, answer }));
      });
    const [partial, idle] = await Promise.all([watch('GET /healthz HTTP/1.1\r\nHost: x\r\n'), watch('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n')]);
    process.stdout.write(`half a request closed after ${partial.closedAfterMs.toFixed(0)} ms; an idle keep-alive connection after ${idle.closedAfterMs.toFixed(0)} ms\n`);
    expect(partial.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(partial.closedAfterMs).toBeGreaterThan(9_000);
    expect(partial.closedAfterMs).toBeLessThan(13_000);
    expect(idle.answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(idle.closedAfterMs).toBeLessThan(7_000);
  }, 60_000);
});
