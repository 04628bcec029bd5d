// The upload client of bench-ingest.ts, in a worker thread: it builds each run's body and posts
// it, so that the API's event loop and heap (the thread being measured) are the service's own.
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
// Database-free helpers only: this worker must not load chDB (see bench-util).
import { IDENTITIES_PER_PROJECT, knownIdentity, newIdentity, postBody } from './bench-util.js';

export interface ClientPlan {
  url: string;
  token: string;
  cases: number;
  runs: number;
  /** Uploads before the timed ones: a process's first uploads are slower (JIT, heap growth, ClickHouse's first parts). */
  warmups: number;
}

export interface ClientResult {
  /** Wall time of each timed run's request, ms. */
  walls: number[];
  /** Wall time of each warm-up's request, ms (printed, not counted). */
  warmupWalls: number[];
  /** Bytes of one body. */
  size: number;
}

export const runId = (label: string): string => `bench-${label}-${process.pid}-${Date.now().toString(36)}`;

/** One run: the project's 10,000 known identities plus new ones; ~10% repeated twice, some failing or skipped. */
export function upload(runId: string, cases: number): string {
  const testCases = [];
  for (let i = 0; i < cases; i++) {
    const id = i < IDENTITIES_PER_PROJECT ? knownIdentity(i) : newIdentity(i);
    const durationMs = ((i * 7919) % 12_000) + 0.5;
    const repeated = i % 10 === 3;
    const status = i % 97 === 5 ? 'skipped' : repeated || i % 113 === 7 ? 'failure' : 'success';
    testCases.push({
      ...id,
      status,
      durationMs,
      ...(i % 50 === 0 ? { muted: true } : {}),
      ...(repeated
        ? {
            repetitions: [
              { repetition: 1, status: 'failure', durationMs },
              { repetition: 2, status: 'success', durationMs: durationMs * 0.9 },
            ],
          }
        : {}),
    });
  }
  return JSON.stringify({
    runId,
    branch: 'main',
    commit: 'a3f1c0ffee',
    isCi: true,
    status: 'failure',
    durationMs: 1_234_567,
    startedAt: new Date().toISOString(),
    testCases,
  });
}

/** One POST of a body encoded before its timed request, over node:http (bench-util's postBody). */
const post = (plan: ClientPlan, body: Buffer) => postBody(plan.url, { authorization: `Bearer ${plan.token}`, 'content-type': 'application/json' }, body);

/** `warmups` runs, then `runs` timed ones; each body is built before its request starts. */
async function client(plan: ClientPlan): Promise<ClientResult> {
  const warmupWalls: number[] = [];
  for (let k = 0; k < plan.warmups; k++) {
    const text = Buffer.from(upload(runId(`warmup${k}`), plan.cases), 'utf8');
    const t = performance.now();
    const warm = await post(plan, text);
    warmupWalls.push(performance.now() - t);
    if (warm.status !== 201) throw new Error(`runs answered ${warm.status}: ${warm.text.slice(0, 500)}`);
  }
  const walls: number[] = [];
  let size = 0;
  for (let k = 0; k < plan.runs; k++) {
    const text = Buffer.from(upload(runId(`run${k}`), plan.cases), 'utf8');
    size = text.length;
    parentPort!.postMessage({ kind: 'start' });
    const t = performance.now();
    const r = await post(plan, text);
    const wall = performance.now() - t;
    parentPort!.postMessage({ kind: 'end' });
    if (r.status !== 201) throw new Error(`runs answered ${r.status}: ${r.text.slice(0, 500)}`);
    const result = JSON.parse(r.text) as { testCases: number; duplicate: boolean };
    if (result.testCases !== plan.cases || result.duplicate) throw new Error(`unexpected answer ${r.text}`);
    walls.push(wall);
  }
  return { walls, warmupWalls, size };
}

if (!isMainThread && (workerData as { cases?: unknown } | null)?.cases !== undefined) {
  client(workerData as ClientPlan).then(
    (result) => parentPort!.postMessage({ kind: 'done', ...result }),
    (error: unknown) => {
      throw error;
    },
  );
}
