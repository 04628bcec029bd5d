// The verdict API over HTTP: run upload, verdict, gated observation. Every call has a timeout
// and answers a value: ok with the body, or a problem sentence for a warning line. Connection
// errors and 503s are retried with backoff (honouring Retry-After) within that timeout; every
// call is idempotent on the server (a run is keyed by its client-chosen id), so a retried upload
// is still counted once.
import * as v from 'valibot';
import {
  RunUploadResult,
  VerdictResponse,
  type GateUpload,
  type RunUpload,
} from '#contract';
import type { Logger } from '../base/log.js';

/** A call's answer: the validated body, or a problem sentence for a warning line. */
export type ApiResult<T> = { ok: true; value: T } | { ok: false; problem: string };

/** A test case that ran, as the verdict asks about it. */
export interface PostedTestCase {
  module: string;
  suite: string;
  name: string;
  durationMs: number;
  /** Its body fingerprint, sent for the tests in files the merge request changed (diff/). */
  fingerprint?: string | null;
}

/** The three calls the orchestrator makes. */
export interface VerdictClient {
  uploadRun(body: RunUpload): Promise<ApiResult<RunUploadResult>>;
  /** Sent grouped by suite (the API's `suites` form, names and durations side by side): a third of the bytes of one entry per test case. */
  verdict(body: { runId?: string; mode?: 'report' | 'enforce'; testCases: PostedTestCase[] }): Promise<ApiResult<VerdictResponse>>;
  uploadGate(runId: string, body: GateUpload): Promise<ApiResult<unknown>>;
}

/** Where the API is, who we are, and how long to wait. */
export interface VerdictClientOptions {
  serverUrl: string;
  project: string;
  token: string;
  timeoutMs: number;
  fetch?: typeof globalThis.fetch;
  logger: Logger;
  /** Stops waiting (and retrying) when aborted: the run was cancelled. */
  signal?: AbortSignal;
  /** Backoff before retry n (1-based), in ms, when the server sent no Retry-After. Default: 250 × 2^(n-1), at most 4 s. */
  backoffMs?: (attempt: number) => number;
}

/** An HTTP client of the verdict API. */
export function createVerdictClient(options: VerdictClientOptions): VerdictClient {
  const base = `${options.serverUrl.replace(/\/+$/, '')}/api/v1/projects/${encodeURIComponent(options.project)}`;
  const doFetch = options.fetch ?? globalThis.fetch;
  const log = options.logger.child({ module: 'verdict-client' });

  const backoff = options.backoffMs ?? ((n: number) => Math.min(4000, 250 * 2 ** (n - 1)));

  /** One request, retried on connection errors and 503 while the call's time budget lasts. */
  async function send(url: string, body: string): Promise<{ response: Response } | { problem: string }> {
    const deadline = Date.now() + options.timeoutMs;
    let lastProblem: string | null = null;
    const gaveUp = (problem: string, attempts: number, last = '') => ({ problem: `${url}: ${problem}${attempts > 1 ? ` after ${attempts} attempts` : ''}${last}` });
    for (let attempt = 1; ; attempt++) {
      const left = deadline - Date.now();
      let wait: number;
      let problem: string;
      try {
        const response = await doFetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${options.token}` },
          body,
          signal: options.signal ? AbortSignal.any([AbortSignal.timeout(Math.max(1, left)), options.signal]) : AbortSignal.timeout(Math.max(1, left)),
        });
        if (response.status !== 503) return { response };
        await response.body?.cancel().catch(() => undefined);
        problem = `HTTP 503${retryAfterMs(response) === null ? '' : ` (Retry-After ${response.headers.get('retry-after')})`}`;
        wait = retryAfterMs(response) ?? backoff(attempt);
      } catch (e) {
        const err = e as Error;
        if (options.signal?.aborted) return { problem: `${url}: cancelled` };
        const timedOut = err.name === 'TimeoutError' || err.name === 'AbortError';
        if (timedOut) {
          // The budget can end inside a retry: the answers seen before it are the news, not the silence.
          const within = `no answer within ${options.timeoutMs / 1000} s`;
          return lastProblem === null ? gaveUp(within, 1) : gaveUp(lastProblem, attempt, ` (the last: ${within})`);
        }
        problem = describeNetworkError(err);
        wait = backoff(attempt);
      }
      lastProblem = problem;
      const remaining = deadline - Date.now();
      log.info({ url, attempt, problem, wait }, 'request failed');
      if (wait >= remaining || options.signal?.aborted) {
        return gaveUp(problem, attempt);
      }
      await sleep(wait, options.signal);
    }
  }

  async function post<T>(pathName: string, body: unknown, schema: v.GenericSchema<unknown, T> | null): Promise<ApiResult<T>> {
    const url = `${base}${pathName}`;
    const started = Date.now();
    const sent = await send(url, JSON.stringify(body));
    if ('problem' in sent) return { ok: false, problem: sent.problem };
    const { response } = sent;
    let text = '';
    try {
      text = await response.text();
    } catch (e) {
      return { ok: false, problem: `${url}: the response body could not be read (${(e as Error).message})` };
    }
    log.debug({ url, status: response.status, ms: Date.now() - started }, 'response');
    if (!response.ok) {
      return { ok: false, problem: `${url}: HTTP ${response.status}${errorMessage(text)}` };
    }
    if (schema === null) return { ok: true, value: undefined as T };
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return { ok: false, problem: `${url}: the response is not JSON` };
    }
    const parsed = v.safeParse(schema, json);
    if (!parsed.success) {
      const issue = parsed.issues[0];
      return { ok: false, problem: `${url}: invalid response: ${v.getDotPath(issue) ?? '(root)'}: ${issue.message}` };
    }
    return { ok: true, value: parsed.output };
  }

  return {
    uploadRun: (body) => post('/runs', body, RunUploadResult),
    verdict: ({ testCases, ...rest }) => post('/verdict', { ...rest, suites: groupBySuite(testCases) }, VerdictResponse),
    uploadGate: (runId, body) => post(`/runs/${encodeURIComponent(runId)}/gate`, body, null),
  };
}

/** A suite of the verdict request's `suites`, its tests as names with their durations beside them (the API's VerdictSuite). */
export interface PostedSuite {
  module: string;
  suite: string;
  names: string[];
  durationsMs: number[];
  /** Beside names, only in a suite where some test has a fingerprint. */
  fingerprints?: (string | null)[];
}

/** The verdict request's `suites`: the test cases grouped by (module, suite), in order of first appearance. */
export function groupBySuite(testCases: readonly PostedTestCase[]): PostedSuite[] {
  const groups = new Map<string, PostedSuite>();
  for (const t of testCases) {
    // Length-prefixed, so no module and suite pair can spell another's key.
    const key = `${t.module.length}:${t.module}${t.suite}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { module: t.module, suite: t.suite, names: [], durationsMs: [] }));
    if (t.fingerprint && !g.fingerprints) g.fingerprints = g.names.map(() => null);
    g.names.push(t.name);
    g.durationsMs.push(t.durationMs);
    if (g.fingerprints) g.fingerprints.push(t.fingerprint ?? null);
  }
  return [...groups.values()];
}

/** Retry-After in ms (seconds or an HTTP date), or null when absent or unreadable. */
function retryAfterMs(response: Response): number | null {
  const value = response.headers.get('retry-after');
  if (value === null || value.trim() === '') return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

function describeNetworkError(err: Error): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ? `unreachable (${cause.code})` : `unreachable (${cause?.message ?? err.message})`;
}

function errorMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { code?: string; message?: string } };
    if (body.error?.message) return ` ${body.error.code ?? ''}: ${body.error.message}`.replace(/^ :/, ':');
  } catch {
    /* not an ErrorBody */
  }
  return '';
}
