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
import { expectBounded, MiB, openTenTimes, settle, startTwoTenants, type TwoTenants, underLoadLine } from '../support/read-under-load.js';

const SUITE = 'com.example.generated.EvidenceTest';
let t: TwoTenants;

beforeAll(async () => {
  t = await startTwoTenants('operator-credential-of-the-gate-evidence-test-0123456789');
}, 120_000);
afterAll(async () => {
  await t?.api.stop();
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

describe('a tenant’s largest gate result', () => {
  it('opened 10 times at once (dashboard and API) and as its report: pages under 2 MB, the server under 1 GB, another account’s verdict p99 under 500 ms', async () => {
    const { api, json } = t;
    const gate = largestGate(16 * MiB - 64 * 1024);
    await settle();
    const testCases = Array.from({ length: gate.candidates }, (_, i) => ({ module: ':app', suite: SUITE, name: `fails_${i}`, status: 'success', durationMs: 100 }));
    const run = { runId: 'largest-gate', branch: 'feature/huge', commit: 'c0ffee', isCi: true, status: 'success', durationMs: 60_000, startedAt: new Date().toISOString(), testCases };
    expect((await json('POST', `/api/v1/projects/${api.project}/runs`, api.token, run)).status).toBe(201);
    const upload = await fetch(`${api.url}/api/v1/projects/${api.project}/runs/largest-gate/gate`, { method: 'POST', headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' }, body: gate.body });
    expect([upload.status, upload.status === 201 ? '' : await upload.text()]).toEqual([201, '']);
    const read = await openTenTimes(t, 'largest-gate', async () => {
      const report = await fetch(`${api.url}/api/v1/projects/${api.project}/runs/largest-gate/report.md`, { headers: { authorization: `Bearer ${api.admin}` } });
      return { status: report.status, text: await report.text() };
    });
    const { opens, also: report } = read;
    const reportText = report.text;
    const html = Math.max(...opens.filter((_, i) => i % 2 === 0).map((o) => o.bytes));
    const jsonBytes = Math.max(...opens.filter((_, i) => i % 2 === 1).map((o) => o.bytes));
    const page = JSON.parse(opens[1]!.text) as { gate: Record<string, any> };
    process.stdout.write(`largest gate: ${(gate.body.length / MiB).toFixed(1)} MiB, ${gate.candidates} candidates, report ${Buffer.byteLength(reportText)} bytes; ${underLoadLine(read)}\n`);
    expectBounded(read);
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
  }, 600_000);
});
