// The verdict API over HTTP: run upload, verdict, gated observation. Every call has a timeout
// and answers a value: ok with the body, or a problem sentence for a warning line.
import * as v from 'valibot';
import {
  RunUploadResult,
  VerdictResponse,
  type GateUpload,
  type RunUpload,
} from '#contract';
import type { Logger } from '../log.js';

/** A call's answer: the validated body, or a problem sentence for a warning line. */
export type ApiResult<T> = { ok: true; value: T } | { ok: false; problem: string };

/** The three calls the orchestrator makes. */
export interface VerdictClient {
  uploadRun(body: RunUpload): Promise<ApiResult<RunUploadResult>>;
  verdict(body: { testCases: { module: string; suite: string; name: string; durationMs: number }[] }): Promise<ApiResult<VerdictResponse>>;
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
}

/** An HTTP client of the verdict API. */
export function createVerdictClient(options: VerdictClientOptions): VerdictClient {
  const base = `${options.serverUrl.replace(/\/+$/, '')}/api/v1/projects/${encodeURIComponent(options.project)}`;
  const doFetch = options.fetch ?? globalThis.fetch;
  const log = options.logger.child({ module: 'verdict-client' });

  async function post<T>(pathName: string, body: unknown, schema: v.GenericSchema<unknown, T> | null): Promise<ApiResult<T>> {
    const url = `${base}${pathName}`;
    const started = Date.now();
    let response: Response;
    try {
      response = await doFetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${options.token}` },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (e) {
      const err = e as Error;
      const timedOut = err.name === 'TimeoutError' || err.name === 'AbortError';
      const reason = timedOut ? `no answer within ${options.timeoutMs / 1000} s` : describeNetworkError(err);
      log.info({ url, err: err.message }, 'request failed');
      return { ok: false, problem: `${url}: ${reason}` };
    }
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
    verdict: (body) => post('/verdict', body, VerdictResponse),
    uploadGate: (runId, body) => post(`/runs/${encodeURIComponent(runId)}/gate`, body, null),
  };
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
