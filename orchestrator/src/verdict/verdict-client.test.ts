import { describe, expect, it } from '@jest/globals';
import { silentLogger } from '../log.js';
import { createVerdictClient } from './verdict-client.js';

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

  it('validates the verdict response', async () => {
    const fetch = (async () => Response.json({ entitled: 'yes' })) as unknown as typeof globalThis.fetch;
    const r = await client(fetch).verdict({ testCases: [] });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.problem).toMatch(/invalid response: projectId: /);
  });
});
