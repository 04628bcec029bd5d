// A run whose first pass failed only on new tests, end to end on both real engines: the CLI
// uploads the run (status failure) and a gated observation with the stressed candidates (the build's
// exit code stood: not blocked). The server stores them as for any run, and the run page's
// headline names each failing new test flaky (with its counts) or broken, with its command.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ENGINES, openTestDatabase, type TestDatabase } from '../support/engines.js';
import { type ProjectHandle, run, seedProject, testApp } from '../support/api.js';

const SUITE = 'com.example.CheckoutTest';
const PARTS = { launcher: { kind: 'local' as const }, tool: ['gradle'], buildArgs: ['test'], repetitions: 50 };
const reps = (fails: number[] = [], n = 10) => Array.from({ length: n }, (_, i) => ({ repetition: i + 1, status: fails.includes(i + 1) ? 'failure' : 'success', durationMs: 30 + i }));
const assertion = (repetition: number, name: string) => ({
  repetition, kind: 'failure', type: 'java.lang.AssertionError', message: 'expected 30 but was 27', stackTrace: `java.lang.AssertionError: expected 30 but was 27\n\tat ${SUITE}.${name}(CheckoutTest.java:9)`,
  framesOmitted: 12, stdoutTail: null, stderrTail: null, durationMs: 30, exitCode: null, signal: null, hsErrFile: null, truncated: false,
});
const failed = (name: string, fails: number[]) => ({
  module: ':app', suite: SUITE, name, outcome: 'failed', muted: false, durationMs: 30, plannedRepetitions: 10, repetitions: reps(fails),
  failures: fails.map((r) => assertion(r, name)),
  failureGroups: fails.length ? [{ signature: `java.lang.AssertionError at ${SUITE}.${name}(CheckoutTest.java:9)`, type: 'java.lang.AssertionError', location: 'CheckoutTest.java:9', count: fails.length, repetitions: fails }] : [],
  failuresOmitted: 0,
  reproduce: PARTS,
});
// appliesDiscount: failed in the build, passed all 10 repetitions (flaky with no failed repetition);
// expires: failed in the build and every repetition (broken); total: passed everywhere.
const cases = [failed('appliesDiscount', []), failed('expires', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]), { module: ':app', suite: SUITE, name: 'total', outcome: 'passed', repetitions: reps() }];
const gateBody = { mode: 'enforce', outcome: 'failed', candidatesExamined: 3, stressed: 3, excluded: 0, notStressed: 0, guard: null, blocked: false, wouldHaveBlocked: true, testCases: cases };

describe.each(ENGINES)('a first pass that failed only on new tests, on %s ClickHouse', (kind) => {
  let t: TestDatabase;
  let app: ReturnType<typeof testApp>['app'];
  let call: ReturnType<typeof testApp>['call'];
  let p: ProjectHandle;
  beforeAll(async () => {
    t = await openTestDatabase(kind);
    ({ app, call } = testApp(t.db));
    p = await seedProject(t.db, `first-pass-failed-${kind}`);
    const status = (name: string) => (name === 'total' ? 'success' as const : 'failure' as const);
    const upload = run('mr-11', [], { branch: 'feature/discount', status: 'failure', testCases: cases.map((c) => ({ module: c.module, suite: c.suite, name: c.name, status: status(c.name), durationMs: 30 })) });
    expect((await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, upload)).status).toBe(201);
    expect((await call('POST', `/api/v1/projects/${p.handle}/runs/mr-11/gate`, p.token, gateBody)).status).toBe(201);
  });
  afterAll(async () => {
    await t.close();
  });

  it('stores the stressed candidates of a failed run, and the run page calls the failing new tests flaky or broken', async () => {
    const page = (await call('GET', `/api/v1/projects/${p.handle}/runs/mr-11`, p.token)).body!;
    expect(page.status).toBe('failure');
    expect(page.gate).toMatchObject({ outcome: 'failed', blocked: false, wouldHaveBlocked: true });
    expect(page.gate.candidates.map((c: { name: string; outcome: string }) => [c.name, c.outcome])).toEqual([['appliesDiscount', 'failed'], ['expires', 'failed'], ['total', 'passed']]);
    const signIn = await app.request('/sign-in', { method: 'POST', headers: { Origin: 'http://localhost', 'Content-Type': 'application/x-www-form-urlencoded' }, body: `credential=${encodeURIComponent(p.admin)}` });
    const res = await app.request(`/projects/${p.handle}/runs/mr-11`, { headers: { Cookie: signIn.headers.get('set-cookie')!.split(';')[0]! } });
    expect(res.status).toBe(200);
    const text = (await res.text()).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(text).toContain('Flaky in the build');
    expect(text).toContain('failed in the build, then passed 10 of 10 repetitions, each in a fresh JVM: flaky');
    expect(text).toContain('failed in the build and every one of 10 repetitions, each in a fresh JVM: broken');
    expect(text).toContain('Rerunning CI until it passes would merge a flaky test');
    expect(text).toContain('--stress-tests');
    // The runs list's badge says the same words.
    const list = await app.request(`/projects/${p.handle}/runs`, { headers: { Cookie: signIn.headers.get('set-cookie')!.split(';')[0]! } });
    expect((await list.text()).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')).toContain('flaky in the build');
  });
});
