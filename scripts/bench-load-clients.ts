// The load benchmarks' clients (bench-load, bench-cluster), in a worker thread so that an API in
// the benchmark's own process keeps its event loop: closed-loop verdict clients and upload
// clients, spread over one or more API instances, first the uploads alone, then all together.
import { Agent } from 'node:http';
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { groupBySuite } from '../orchestrator/dist/verdict/verdict-client.js';
// Database-free helpers only: this worker must not load chDB (see bench-util).
import { IDENTITIES_PER_PROJECT, knownIdentity, loadUploadBody, newIdentity, postBody } from './bench-util.js';

export interface Plan {
  /** The API instances: verdict client c and upload client u post to urls[c % n] and urls[u % n]. */
  urls: string[];
  handle: string;
  token: string;
  clients: number;
  /** Upload clients, each posting runs back to back. */
  uploaders: number;
  seconds: number;
  solo: number;
  verdictBodies: string[];
  expectedNew: number;
  uploadCases: number;
  /** The number of the first upload (its run id, its commit; 0 when unset): a later call's uploads must not repeat an earlier one's, or they are duplicates. */
  firstUpload?: number;
  /** Fault mode: refused uploads are posted again, and every request's end and status is kept. */
  fault: boolean;
}

export interface PhaseResult {
  seconds: number;
  verdicts: number[];
  verdictErrors: Record<string, number>;
  uploads: number;
  uploadErrors: Record<string, number>;
  uploadLatencies: number[];
  wrongAnswers: number;
  /** Fault mode: per request [start, end (Date.now()), 0 verdict | 1 upload, HTTP status or 0 for no answer]. */
  events: Event[];
  /** Fault mode: the run ids of the acknowledged uploads, and of those acknowledged after a refusal. */
  acknowledged: string[];
  retried: string[];
}

export type Event = [start: number, end: number, kind: number, status: number];

export const FORMS = ['grouped', 'tests', 'flat'] as const;
export type Form = (typeof FORMS)[number];

async function clients(plan: Plan): Promise<{ solo: PhaseResult; load: PhaseResult }> {
  const headers = { authorization: `Bearer ${plan.token}`, 'content-type': 'application/json' };
  const bases = plan.urls.map((url) => `${url}/api/v1/projects/${plan.handle}`);
  let uploadSeq = plan.firstUpload ?? 0;
  // Encoded once: a real client's encoding is not the API machine's CPU (this worker shares its cores).
  const verdictBodies = plan.verdictBodies.map((b) => Buffer.from(b, 'utf8'));
  // node:http over kept-alive sockets rather than fetch (bench-util's postBody); the limit is per instance.
  const agent = new Agent({ keepAlive: true, maxSockets: plan.clients + plan.uploaders });
  const post = (client: number, path: string, body: Buffer) => postBody(`${bases[client % bases.length]!}/${path}`, headers, body, agent);
  const count = (errors: Record<string, number>, key: string) => void (errors[key] = (errors[key] ?? 0) + 1);

  async function phase(seconds: number, verdictClients: number): Promise<PhaseResult> {
    const result: PhaseResult = { seconds, verdicts: [], verdictErrors: {}, uploads: 0, uploadErrors: {}, uploadLatencies: [], wrongAnswers: 0, events: [], acknowledged: [], retried: [] };
    const event = (start: number, kind: number, status: number) => void (plan.fault && result.events.push([start, Date.now(), kind, status]));
    const end = performance.now() + seconds * 1000;
    const verdictLoop = async (c: number) => {
      for (let k = c; performance.now() < end; k += verdictClients) {
        const t = performance.now();
        const started = Date.now();
        try {
          const { status, text } = await post(c, 'verdict', verdictBodies[k % verdictBodies.length]!);
          event(started, 0, status);
          if (status !== 200) count(result.verdictErrors, `HTTP ${status}`);
          else {
            result.verdicts.push(performance.now() - t);
            // Every answer is checked, so speed never comes from a wrong or empty verdict.
            if ((JSON.parse(text) as { candidates: unknown[] }).candidates.length !== plan.expectedNew) result.wrongAnswers++;
          }
        } catch (error) {
          event(started, 0, 0);
          count(result.verdictErrors, (error as Error).message);
        }
      }
    };
    const uploadLoop = async (u: number) => {
      while (performance.now() < end) {
        const runId = `load-${process.pid}-${uploadSeq}`;
        const body = Buffer.from(loadUploadBody(runId, uploadSeq++, plan.uploadCases), 'utf8'); // built outside the timed section
        // In fault mode a refused upload is posted again until acknowledged, as the CLI retries.
        for (let attempt = 0; performance.now() < end || attempt === 0; attempt++) {
          const t = performance.now();
          const started = Date.now();
          let status = 0;
          try {
            status = (await post(u, 'runs', body)).status;
            if (status !== 201) count(result.uploadErrors, `HTTP ${status}`);
          } catch (error) {
            count(result.uploadErrors, (error as Error).message);
          }
          event(started, 1, status);
          if (status === 201) {
            result.uploads++;
            result.uploadLatencies.push(performance.now() - t);
            if (plan.fault) result.acknowledged.push(runId);
            if (plan.fault && attempt > 0) result.retried.push(runId);
            break;
          }
          if (!plan.fault) break;
          await new Promise((r) => setTimeout(r, 200));
        }
      }
    };
    await Promise.all([...Array.from({ length: plan.uploaders }, (_, u) => uploadLoop(u)), ...Array.from({ length: verdictClients }, (_, c) => verdictLoop(c))]);
    return result;
  }

  const solo = await phase(plan.solo, 0);
  parentPort?.postMessage({ phase: 'load' });
  const load = await phase(plan.seconds, plan.clients);
  agent.destroy();
  return { solo, load };
}

if (!isMainThread && (workerData as Partial<Plan> | null)?.verdictBodies !== undefined) {
  clients(workerData as Plan).then(
    (r) => parentPort!.postMessage(r),
    (error: unknown) => parentPort!.postMessage({ error: String((error as Error).stack ?? error) }),
  );
}

/** Runs `plan`'s clients in a worker thread; `onLoad` is called as the load phase starts (after the uploads alone). */
export async function runClients(plan: Plan, onLoad: () => void): Promise<{ solo: PhaseResult; load: PhaseResult }> {
  const worker = new Worker(new URL(import.meta.url), { workerData: plan });
  try {
    const result = await new Promise<{ solo: PhaseResult; load: PhaseResult } | { error: string }>((resolve, reject) => {
      worker.on('message', (m: { phase?: string }) => (m.phase === 'load' ? onLoad() : resolve(m as { solo: PhaseResult; load: PhaseResult })));
      worker.once('error', reject);
    });
    if ('error' in result) throw new Error(result.error);
    return result;
  } finally {
    await worker.terminate();
  }
}

/**
 * Request k: `fresh` identities no run ever had (never cached: each is asked of ClickHouse), the
 * rest known ones from a window rotating over the project's 10,000. Grouped by suite as the CLI
 * sends it (`grouped`), grouped with an object per test (`tests`, older CLIs), or one entry per test
 * case (`flat`, older clients).
 */
export function verdictBody(identities: number, fresh: number, k: number, form: Form): string {
  const known = Math.min(identities - fresh, IDENTITIES_PER_PROJECT);
  const testCases = [];
  for (let j = 0; j < known; j++) testCases.push({ ...knownIdentity((k * known + j) % IDENTITIES_PER_PROJECT), durationMs: ((j * 7919) % 40_000) + 3 });
  for (let j = 0; j < identities - known; j++) testCases.push({ ...newIdentity(k * identities + j), durationMs: ((j * 104_729) % 40_000) + 3 });
  if (form === 'flat') return JSON.stringify({ testCases, mode: 'report', runId: `load-verdict-${k}` });
  if (form === 'tests') {
    const suites = groupBySuite(testCases).map((g) => ({ module: g.module, suite: g.suite, tests: g.names.map((name, i) => ({ name, durationMs: g.durationsMs[i]! })) }));
    return JSON.stringify({ suites, mode: 'report', runId: `load-verdict-${k}` });
  }
  return JSON.stringify({ suites: groupBySuite(testCases), mode: 'report', runId: `load-verdict-${k}` });
}

/** The `plan.verdictBodies` and `plan.expectedNew` of verdicts of `identities` identities, `fresh` of them never seen. */
export function verdictWork(identities: number, fresh: number, form: Form): Pick<Plan, 'verdictBodies' | 'expectedNew'> {
  return {
    verdictBodies: Array.from({ length: 1_000 }, (_, k) => verdictBody(identities, fresh, k, form)),
    expectedNew: identities - Math.min(identities - fresh, IDENTITIES_PER_PROJECT),
  };
}
