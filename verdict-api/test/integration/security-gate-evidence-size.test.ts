// Attack test (issue 37, "storage and memory bounds"): a tenant uploads the largest gate result the
// API accepts (15.6 MiB under the 16 MiB cap: candidates of 100 repetitions each, every repetition
// failing, each with the most failures, signatures and evidence text the contract allows) to the
// real verdict API (`verdict-api demo`, embedded chDB, its own process), then opens its run 10 times
// at once, as the dashboard and as the API, and its Markdown report, while another account asks
// for verdicts every 50 ms. The server's resident memory is sampled from /proc.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FAILURE_BOUNDS, MAX_REPETITIONS } from '../../src/contract.js';
import { FAILURES_SHOWN, TEXT_SHOWN } from '../../src/run-page/evidence-bounds.js';
import { RUN_PAGE_CANDIDATES } from '../../src/run-page/run-page.js';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';
import { residentBytes } from '../support/stream-client.js';

const MiB = 1024 * 1024;
const OPERATOR = 'operator-credential-of-the-gate-evidence-test-0123456789';
const SUITE = 'com.example.generated.EvidenceTest';
let api: DemoServer;
/** Another account's project and CI token. */
let other: { handle: string; token: string };

const json = async (method: string, path: string, token: string, body?: unknown) => {
  const res = await fetch(`${api.url}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

beforeAll(async () => {
  api = await startDemoServer({ STRESS_GATE_OPERATOR_TOKEN: OPERATOR, STRESS_GATE_ACCOUNT_REQUESTS_PER_SECOND: '0' });
  const account = await json('POST', '/api/v1/admin/accounts', OPERATOR, { name: 'Other', entitled: true });
  const credential = await json('POST', `/api/v1/admin/accounts/${account.body['accountId']}/credentials`, OPERATOR, { name: 'ops' });
  const project = await json('POST', `/api/v1/accounts/${account.body['accountId']}/projects`, credential.body['credential'], { handle: 'other-tenant', defaultBranch: 'main' });
  expect(project.status).toBe(201);
  const token = await json('POST', '/api/v1/projects/other-tenant/tokens', credential.body['credential'], { name: 'ci', scope: 'default-branch' });
  other = { handle: 'other-tenant', token: token.body['token'] };
}, 120_000);
afterAll(async () => {
  await api?.stop();
});

const B = FAILURE_BOUNDS;
/** Text of exactly `n` characters made of `unit` (Java-looking, with characters HTML escapes). */
const fill = (unit: string, n: number) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
const FRAME = "\tat com.example.generated.EvidenceTest.<init>(EvidenceTest.java:42) 'x' & y\n";

/** One candidate at every bound: 100 repetitions all failing, 20 failures of the longest text, 10 signatures. */
function candidate(i: number) {
  const name = `fails_${i}`;
  const repetitions = Array.from({ length: MAX_REPETITIONS }, (_, k) => ({ repetition: k + 1, status: 'failure', durationMs: 100 + k }));
  const failures = Array.from({ length: B.failuresPerCase }, (_, k) => ({
    repetition: k + 1, kind: 'failure', type: fill('java.lang.AssertionError', B.type),
    message: fill(`expected <${i}> but was <${k}> & more `, B.message), stackTrace: fill(FRAME, B.stackTrace), framesOmitted: 7,
    stdoutTail: fill(`stdout of ${name} <line>\n`, B.outputTail), stderrTail: fill(`stderr of ${name} <line>\n`, B.outputTail),
    durationMs: 100 + k, exitCode: null, signal: null, hsErrFile: null, truncated: true,
  }));
  const failureGroups = Array.from({ length: B.groupsPerCase }, (_, g) => ({
    signature: fill(`java.lang.AssertionError at ${SUITE}.${name}(EvidenceTest.java:${g})`, B.signature), type: 'java.lang.AssertionError', location: `EvidenceTest.java:${g}`,
    count: MAX_REPETITIONS / B.groupsPerCase, repetitions: Array.from({ length: MAX_REPETITIONS / B.groupsPerCase }, (_, k) => k * B.groupsPerCase + g + 1),
  }));
  return { module: ':app', suite: SUITE, name, outcome: 'failed', repetitions, failures, failureGroups, failuresOmitted: MAX_REPETITIONS - B.failuresPerCase, reproduce: { launcher: { kind: 'local' }, tool: ['gradle'], buildArgs: ['test'], repetitions: 100 } };
}

/** The largest gate upload under the 16 MiB cap: as many such candidates as fit. */
function largestGate(cap: number): { body: string; candidates: number } {
  const cases: string[] = [];
  let bytes = 400;
  for (let i = 0; ; i++) {
    const c = JSON.stringify(candidate(i));
    if (bytes + c.length + 1 > cap) break;
    cases.push(c);
    bytes += c.length + 1;
  }
  const head = JSON.stringify({ mode: 'enforce', outcome: 'failed', candidatesExamined: cases.length, stressed: cases.length, excluded: 0, guard: null, blocked: true, wouldHaveBlocked: true, testCases: [] }).slice(0, -2);
  return { body: `${head}${cases.join(',')}]}`, candidates: cases.length };
}

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;

describe('a tenant’s largest gate result', () => {
  it('opened 10 times at once (dashboard and API) and as its report: pages under 2 MB, the server under 1 GB, another account’s verdict p99 under 500 ms', async () => {
    const gate = largestGate(16 * MiB - 64 * 1024);
    const testCases = Array.from({ length: gate.candidates }, (_, i) => ({ module: ':app', suite: SUITE, name: `fails_${i}`, status: 'success', durationMs: 100 }));
    const run = { runId: 'largest-gate', branch: 'feature/huge', commit: 'c0ffee', isCi: true, status: 'success', durationMs: 60_000, startedAt: new Date().toISOString(), testCases };
    expect((await json('POST', `/api/v1/projects/${api.project}/runs`, api.token, run)).status).toBe(201);
    const upload = await fetch(`${api.url}/api/v1/projects/${api.project}/runs/largest-gate/gate`, { method: 'POST', headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' }, body: gate.body });
    expect([upload.status, upload.status === 201 ? '' : await upload.text()]).toEqual([201, '']);
    const sign = await fetch(`${api.url}/sign-in`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: api.url }, body: new URLSearchParams({ credential: api.admin }).toString() });
    const cookie = /sg_session=([^;]+)/.exec(sign.headers.get('set-cookie') ?? '')![1]!;
    await new Promise((r) => setTimeout(r, 2_000));
    const verdict = JSON.stringify({ testCases: [{ module: ':app', suite: 'com.example.OtherTest', name: 'answers', durationMs: 5 }] });
    const ask = async () => {
      const started = performance.now();
      const res = await fetch(`${api.url}/api/v1/projects/${other.handle}/verdict`, { method: 'POST', headers: { authorization: `Bearer ${other.token}`, 'content-type': 'application/json' }, body: verdict });
      await res.arrayBuffer();
      return { status: res.status, ms: performance.now() - started };
    };
    for (let i = 0; i < 5; i++) await ask();
    const before = residentBytes(api.pid).rss;

    let opening = true;
    let maxRss = before;
    const sampler = (async () => {
      while (opening) {
        maxRss = Math.max(maxRss, residentBytes(api.pid).rss);
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
    const verdicts: { status: number; ms: number }[] = [];
    const asker = (async () => {
      while (opening) {
        verdicts.push(await ask());
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const started = performance.now();
    const opens = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const res =
          i % 2 === 0
            ? await fetch(`${api.url}/projects/${api.project}/runs/largest-gate`, { headers: { cookie: `sg_session=${cookie}` } })
            : await fetch(`${api.url}/api/v1/projects/${api.project}/runs/largest-gate`, { headers: { authorization: `Bearer ${api.admin}` } });
        const text = await res.text();
        return { status: res.status, bytes: Buffer.byteLength(text), text };
      }),
    );
    const openMs = performance.now() - started;
    const report = await fetch(`${api.url}/api/v1/projects/${api.project}/runs/largest-gate/report.md`, { headers: { authorization: `Bearer ${api.admin}` } });
    const reportText = await report.text();
    await new Promise((r) => setTimeout(r, 500));
    opening = false;
    await Promise.all([sampler, asker]);

    const html = Math.max(...opens.filter((_, i) => i % 2 === 0).map((o) => o.bytes));
    const jsonBytes = Math.max(...opens.filter((_, i) => i % 2 === 1).map((o) => o.bytes));
    const page = JSON.parse(opens[1]!.text) as { gate: Record<string, any> };
    process.stdout.write(
      `largest gate: ${(gate.body.length / MiB).toFixed(1)} MiB, ${gate.candidates} candidates; 10 opens in ${(openMs / 1000).toFixed(1)} s: ` +
        `pages ${html} bytes (HTML), ${jsonBytes} bytes (JSON), report ${Buffer.byteLength(reportText)} bytes; ` +
        `server RSS ${(before / MiB).toFixed(0)} -> at most ${(maxRss / MiB).toFixed(0)} MiB; another account's verdict over ${verdicts.length} asks: ` +
        `p50 ${quantile(verdicts.map((v) => v.ms), 0.5).toFixed(0)} ms, p99 ${quantile(verdicts.map((v) => v.ms), 0.99).toFixed(0)} ms\n`,
    );
    expect(opens.map((o) => o.status)).toEqual(Array(10).fill(200));
    expect(report.status).toBe(200);
    // The verdict and the counts are the upload's, whatever the bounds left out.
    expect(page.gate).toMatchObject({ outcome: 'failed', blocked: true, candidatesExamined: gate.candidates, stressed: gate.candidates });
    // Every bound says where it bites: the candidates paged, the failures and the text cut, counted.
    expect(page.gate).toMatchObject({ candidateCount: gate.candidates, failedCandidates: { failed: gate.candidates, unmuted: gate.candidates } });
    expect(page.gate['candidates']).toHaveLength(RUN_PAGE_CANDIDATES);
    const first = page.gate['candidates'][0];
    expect(first.repetitions).toHaveLength(MAX_REPETITIONS);
    expect(first.failures).toHaveLength(FAILURES_SHOWN);
    expect(first).toMatchObject({ failuresNotShown: B.failuresPerCase - FAILURES_SHOWN, failuresOmitted: MAX_REPETITIONS - B.failuresPerCase, failureGroupsNotShown: 0 });
    expect(first.failures[0].cut).toMatchObject({ message: { shown: TEXT_SHOWN.message, of: B.message }, stdoutTail: { shown: TEXT_SHOWN.outputTail, of: B.outputTail } });
    expect(first.failures[0].cut.stackTrace.of).toBe(B.stackTrace);
    expect(opens[0]!.text).toContain('truncated: the top, ');
    expect(opens[0]!.text).toContain(`${B.failuresPerCase - FAILURES_SHOWN} more failures like these`);
    expect(opens[0]!.text).toContain(`${RUN_PAGE_CANDIDATES} of the ${gate.candidates} candidates on this page`);
    const next = await json('GET', `/api/v1/projects/${api.project}/runs/largest-gate?afterCandidate=${page.gate['nextCandidates']}`, api.admin);
    expect(next.body['gate'].candidates.map((c: any) => c.name)).toEqual(Array.from({ length: gate.candidates }, (_, i) => `fails_${i}`).sort().slice(RUN_PAGE_CANDIDATES));
    expect(html).toBeLessThan(2_000_000);
    expect(jsonBytes).toBeLessThan(2_000_000);
    expect(Buffer.byteLength(reportText)).toBeLessThan(65_536);
    expect(maxRss).toBeLessThan(1024 * MiB);
    expect(verdicts.every((v) => v.status === 200)).toBe(true);
    expect(verdicts.length).toBeGreaterThanOrEqual(5);
    expect(quantile(verdicts.map((v) => v.ms), 0.99)).toBeLessThan(500);
  }, 600_000);
});
