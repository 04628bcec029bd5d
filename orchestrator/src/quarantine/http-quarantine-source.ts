// The quarantine list from the verdict API: every page of GET …/quarantine with the project
// token, fetched before the first pass. Each request has a timeout; a failure is a value (a
// problem sentence for a warning line), never a throw: without the list nothing is masked.
import * as v from 'valibot';
import { QuarantineListResponse } from '#contract';
import { identityKey } from '../identity/identity-key.js';
import type { Logger } from '../base/log.js';
import type { QuarantineFetch, QuarantineSource } from './quarantine-source.js';

/** Where the API is, who we are, how long one page may take, and the page size. */
export interface HttpQuarantineOptions {
  serverUrl: string;
  project: string;
  token: string;
  /** Per page request. */
  timeoutMs: number;
  /** Tests per page (1–1000). Default 1000. */
  pageSize?: number;
  /** Stops a server that never ends its cursor chain. Default 1000 pages. */
  maxPages?: number;
  fetch?: typeof globalThis.fetch;
  logger: Logger;
}

/** Creates the source; nothing is requested until `lists()` is called. */
export function createHttpQuarantineSource(options: HttpQuarantineOptions): QuarantineSource {
  const base = `${options.serverUrl.replace(/\/+$/, '')}/api/v1/projects/${encodeURIComponent(options.project)}/quarantine`;
  const doFetch = options.fetch ?? globalThis.fetch;
  const pageSize = options.pageSize ?? 1000;
  const maxPages = options.maxPages ?? 1000;
  const log = options.logger.child({ module: 'quarantine-source' });

  async function page(cursor: string | null): Promise<{ ok: true; value: QuarantineListResponse } | { ok: false; problem: string }> {
    const url = `${base}?limit=${pageSize}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    let text: string;
    let status: number;
    try {
      const res = await doFetch(url, { headers: { authorization: `Bearer ${options.token}`, accept: 'application/json' }, signal: AbortSignal.timeout(options.timeoutMs) });
      status = res.status;
      text = await res.text();
    } catch (e) {
      const err = e as Error & { cause?: { code?: string; message?: string } };
      const timedOut = err.name === 'TimeoutError' || err.name === 'AbortError';
      return { ok: false, problem: `${url}: ${timedOut ? `no answer within ${options.timeoutMs / 1000} s` : `unreachable (${err.cause?.code ?? err.cause?.message ?? err.message})`}` };
    }
    if (status < 200 || status > 299) return { ok: false, problem: `${url}: HTTP ${status}${errorMessage(text)}` };
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return { ok: false, problem: `${url}: the response is not JSON` };
    }
    const parsed = v.safeParse(QuarantineListResponse, json);
    if (!parsed.success) return { ok: false, problem: `${url}: invalid response: ${v.getDotPath(parsed.issues[0]) ?? '(root)'}: ${parsed.issues[0].message}` };
    return { ok: true, value: parsed.output };
  }

  async function lists(): Promise<QuarantineFetch> {
    const muted = new Set<string>();
    const skipped = new Set<string>();
    const skippedTests: { module: string; suite: string; name: string }[] = [];
    let count = 0;
    let cursor: string | null = null;
    for (let n = 0; n < maxPages; n++) {
      const res = await page(cursor);
      if (!res.ok) {
        log.info({ problem: res.problem }, 'quarantine fetch failed');
        return res;
      }
      for (const t of res.value.tests) {
        const into = t.state === 'skipped' ? skipped : muted;
        into.add(identityKey(t));
        into.add(t.testCaseId);
        if (t.state === 'skipped') skippedTests.push({ module: t.module, suite: t.suite, name: t.name });
        count++;
      }
      cursor = res.value.nextCursor;
      if (cursor === null) return { ok: true, value: { muted, skipped, skippedTests, count } };
    }
    return { ok: false, problem: `${base}: more than ${maxPages} pages; the list was not used` };
  }

  return { lists };
}

function errorMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { code?: string; message?: string } };
    if (body.error?.message) return `: ${body.error.code ? `${body.error.code}: ` : ''}${body.error.message}`;
  } catch {
    /* not an ErrorBody */
  }
  return '';
}
