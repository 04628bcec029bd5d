// A test case's outcome history and the project's search (issue 36), on both engines, through the
// API as a client uploads and reads: order, the default branch apart, bounds (the newest runs
// asked first, the whole project when they hold too few), tenancy, hostile search text, and the
// dashboard's test and search pages.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { testCaseId } from '../../src/identity/test-case-id.js';
import { type ProjectHandle, seedProject, testApp } from '../support/api.js';
import { ENGINES, openTestDatabase, type TestDatabase } from '../support/engines.js';
import { createProject } from '../../src/accounts/projects.js';
import { createToken } from '../../src/accounts/tokens.js';

const SUITE = 'com.example.CheckoutTest';
const HOSTILE_NAMES = ['50%_off', 'under_score', 'back\\slash', "quote'd", 'plain'];
const hour = (h: number) => new Date(Date.UTC(2026, 10, 1, h)).toISOString();
type Case = { name: string; status?: 'success' | 'failure' | 'skipped'; repetitions?: { repetition: number; status: 'success' | 'failure'; durationMs: number }[] };
const upload = (runId: string, h: number, branch: string, cases: Case[]) => ({
  runId,
  branch,
  commit: `c0ffee${String(h).padStart(2, '0')}`,
  isCi: true,
  status: cases.some((c) => c.status === 'failure') ? 'failure' : 'success',
  durationMs: 1000,
  startedAt: hour(h),
  testCases: cases.map((c) => ({ module: ':app', suite: SUITE, name: c.name, status: c.status ?? 'success', durationMs: 12, ...(c.repetitions ? { repetitions: c.repetitions } : {}) })),
});

describe.each(ENGINES)('test history and search on %s', (kind) => {
  let t: TestDatabase;
  let p: ProjectHandle;
  /** Another account's project, with the same test names and run ids. */
  let other: ProjectHandle;
  /** Another project of p's account. */
  let sibling: { handle: string; token: string; projectId: string };
  let call: ReturnType<typeof testApp>['call'];
  let app: ReturnType<typeof testApp>['app'];
  const idOf = (project: string, name: string) => testCaseId(project, { module: ':app', suite: SUITE, name });
  const history = (id: string, query = '', token: string | null = p.admin, handle = p.handle) => call('GET', `/api/v1/projects/${handle}/test-cases/${id}/history${query}`, token);
  const find = (q: string, extra = '', token: string | null = p.admin, handle = p.handle) => call('GET', `/api/v1/projects/${handle}/search?q=${encodeURIComponent(q)}${extra}`, token);
  const names = (res: { body: Record<string, any> | null }) => (res.body!.testCases as { name: string }[]).map((c) => c.name);

  beforeAll(async () => {
    t = await openTestDatabase(kind);
    ({ app, call } = testApp(t.db));
    p = await seedProject(t.db, `hist-${kind}`);
    other = await seedProject(t.db, `hist-other-${kind}`);
    const s = await createProject(t.db, { accountId: p.accountId, handle: `hist-sib-${kind}`, defaultBranch: 'main' });
    sibling = { handle: s.handle, projectId: s.projectId, token: (await createToken(t.db, s.projectId, 'ci', 'default-branch')).token };
    // r01..r12 an hour apart, uploaded out of order (r00 last, though it ran first): odd on main,
    // even on feature/x. `steady` runs in every run; `rare` in r03 and r10 only.
    const runs: [string, number, string, Case[]][] = [];
    for (let i = 1; i <= 12; i++) {
      const steady: Case = { name: 'steady', ...(i === 5 ? { status: 'failure' as const } : i === 7 ? { status: 'skipped' as const } : {}) };
      if (i === 9) steady.repetitions = [{ repetition: 1, status: 'failure', durationMs: 5 }, { repetition: 2, status: 'success', durationMs: 5 }];
      const cases = [steady, ...(i === 3 || i === 10 ? [{ name: 'rare' }] : []), ...(i === 1 ? HOSTILE_NAMES.map((name) => ({ name })) : [])];
      runs.push([`r${String(i).padStart(2, '0')}`, 10 + i, i % 2 ? 'main' : 'feature/x', cases]);
    }
    runs.push(['r00', 10, 'main', [{ name: 'steady' }]]);
    for (const [runId, h, branch, cases] of runs) {
      expect((await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, upload(runId, h, branch, cases))).status).toBe(201);
      // The same run ids and names elsewhere: another account's project, and a sibling in p's account.
      expect((await call('POST', `/api/v1/projects/${other.handle}/runs`, other.token, upload(runId, h + 100, branch, [...cases, { name: 'secretOfOther' }]))).status).toBe(201);
    }
    expect((await call('POST', `/api/v1/projects/${sibling.handle}/runs`, sibling.token, upload('sib-1', 30, 'feature/sibling', [{ name: 'steady' }, { name: 'siblingOnly' }]))).status).toBe(201);
    const gate = {
      mode: 'report', outcome: 'failed', candidatesExamined: 1, stressed: 1, excluded: 0, guard: null, blocked: false, wouldHaveBlocked: true,
      testCases: [{ module: ':app', suite: SUITE, name: 'rare', outcome: 'failed', repetitions: Array.from({ length: 10 }, (_, k) => ({ repetition: k + 1, status: k % 3 === 0 ? 'failure' : 'success', durationMs: 5 })) }],
    };
    expect((await call('POST', `/api/v1/projects/${p.handle}/runs/r10/gate`, p.token, gate)).status).toBe(201);
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  it('answers a test case’s runs newest first, the default branch’s apart, with the first pass and the repetitions of each', async () => {
    const res = await history(idOf(p.projectId, 'steady'));
    expect(res.status).toBe(200);
    const points = res.body!.points as Record<string, any>[];
    expect(points.map((x) => x.runId)).toEqual(['r12', 'r11', 'r10', 'r09', 'r08', 'r07', 'r06', 'r05', 'r04', 'r03', 'r02', 'r01', 'r00']);
    expect(res.body).toMatchObject({ defaultBranch: 'main', limit: 100, more: false });
    expect(points.filter((x) => x.onDefaultBranch).map((x) => x.runId)).toEqual(['r11', 'r09', 'r07', 'r05', 'r03', 'r01', 'r00']);
    expect(points.filter((x) => !x.onDefaultBranch).every((x) => x.branch === 'feature/x')).toBe(true);
    const at = (runId: string) => points.find((x) => x.runId === runId)!;
    expect(at('r05')).toMatchObject({ firstPass: 'failure', stress: null, organic: null, ranAt: '2026-11-01 15:00:00' });
    expect(at('r07').firstPass).toBe('skipped');
    expect(at('r09')).toMatchObject({ firstPass: 'success', organic: { repetitions: 2, failed: 1 } });
    const rare = await history(idOf(p.projectId, 'rare'));
    expect(rare.body!.points).toEqual([
      expect.objectContaining({ runId: 'r10', branch: 'feature/x', onDefaultBranch: false, firstPass: 'success', stress: { repetitions: 10, failed: 4 } }),
      expect.objectContaining({ runId: 'r03', branch: 'main', onDefaultBranch: true, stress: null }),
    ]);
  });

  it('bounds the history to its newest runs and says that more exist, also when the newest runs hold too few', async () => {
    const five = await history(idOf(p.projectId, 'steady'), '?limit=5');
    expect(five.body!.points.map((x: { runId: string }) => x.runId)).toEqual(['r12', 'r11', 'r10', 'r09', 'r08']);
    expect(five.body!.more).toBe(true);
    expect((await history(idOf(p.projectId, 'steady'), '?limit=13')).body!.more).toBe(false);
    // `rare` is not among the project's newest few runs but r10: the whole project is read.
    const one = await history(idOf(p.projectId, 'rare'), '?limit=1');
    expect(one.body!.points.map((x: { runId: string }) => x.runId)).toEqual(['r10']);
    expect(one.body!.more).toBe(true);
    expect((await history(idOf(p.projectId, 'rare'), '?limit=2')).body!.more).toBe(false);
    for (const bad of ['?limit=0', '?limit=201', '?limit=x', '?limit=1.5']) expect(await history(idOf(p.projectId, 'rare'), bad)).toMatchObject({ status: 400, body: { error: { field: 'limit' } } });
    expect(await history('not-a-uuid')).toMatchObject({ status: 400, body: { error: { field: 'testCaseId' } } });
  });

  it('never shows another project’s or account’s runs, and answers only the project’s own readers', async () => {
    // Another project's test case id, asked of p: nothing (its runs share p's run ids and names).
    expect((await history(idOf(other.projectId, 'steady'))).body!.points).toEqual([]);
    // p's test in the sibling project of the same account: only the sibling's own run.
    const sib = await history(idOf(p.projectId, 'steady'), '', p.admin, sibling.handle);
    expect(sib).toMatchObject({ status: 200, body: { points: [] } });
    const sibOwn = await history(idOf(sibling.projectId, 'steady'), '', p.admin, sibling.handle);
    expect(sibOwn.body!.points.map((x: { runId: string }) => x.runId)).toEqual(['sib-1']);
    expect((await history(idOf(p.projectId, 'steady'), '', other.admin)).status).toBe(403);
    expect((await history(idOf(p.projectId, 'steady'), '', null)).status).toBe(401);
    expect((await history(idOf(p.projectId, 'steady'), '', p.token)).status).toBe(403);
    expect((await find('steady', '', other.admin)).status).toBe(403);
    expect((await find('steady', '', null)).status).toBe(401);
    expect((await find('steady', '', p.token)).status).toBe(403);
    const mine = await find('s');
    expect(names(mine)).not.toContain('secretOfOther');
    expect(names(mine)).not.toContain('siblingOnly');
    expect(mine.body!.runs.map((r: { runId: string }) => r.runId)).not.toContain('sib-1');
    expect((await find('secret')).body).toMatchObject({ testCases: [], runs: [] });
    expect((await find('sibling')).body).toMatchObject({ testCases: [], runs: [] });
  });

  it('finds test cases by a part of module, suite or name, and runs by id, branch or commit, case-insensitively and bounded', async () => {
    expect(names(await find('STEAD'))).toEqual(['steady']);
    expect(names(await find('checkouttest.ra'))).toEqual(['rare']);
    expect(names(await find(':app', '&limit=2'))).toHaveLength(2);
    expect((await find(':app', '&limit=2')).body!.moreTestCases).toBe(true);
    expect((await find(':app')).body!.moreTestCases).toBe(false);
    const byBranch = await find('feature/');
    expect(byBranch.body!.runs.map((r: { runId: string }) => r.runId)).toEqual(['r12', 'r10', 'r08', 'r06', 'r04', 'r02']);
    expect(byBranch.body!.runs[0]).toEqual({ runId: 'r12', branch: 'feature/x', commit: 'c0ffee22', status: 'success', startedAt: '2026-11-01 22:00:00' });
    expect((await find('r1')).body!.runs.map((r: { runId: string }) => r.runId)).toEqual(['r12', 'r11', 'r10']);
    expect((await find('C0FFEE15')).body!.runs).toEqual([expect.objectContaining({ runId: 'r05', status: 'failure' })]);
    const two = await find('r', '&limit=2');
    expect(two.body!.runs).toHaveLength(2);
    expect(two.body!.moreRuns).toBe(true);
  });

  it('takes hostile text literally: LIKE wildcards, quotes and backslashes match only themselves', async () => {
    expect(names(await find('%'))).toEqual(['50%_off']);
    expect(names(await find('_'))).toEqual(['50%_off', 'under_score']);
    expect(names(await find('%_'))).toEqual(['50%_off']);
    expect(names(await find('\\'))).toEqual(['back\\slash']);
    expect(names(await find("'"))).toEqual(["quote'd"]);
    expect(names(await find('\\s'))).toEqual(['back\\slash']);
    for (const q of ["' OR 1=1 --", "x') OR ('1'='1", '\\%', '%%', '\u0000', '\\\'', '"; DROP TABLE test_runs; --']) {
      const res = await find(q);
      expect(res).toMatchObject({ status: 200, body: { testCases: [], runs: [] } });
    }
    for (const [q, field] of [['', 'q'], ['   ', 'q'], ['x'.repeat(201), 'q']] as const) expect(await find(q)).toMatchObject({ status: 400, body: { error: { field } } });
    expect(await find('x', '&limit=101')).toMatchObject({ status: 400, body: { error: { field: 'limit' } } });
    // Not well-formed in the URL itself: refused or read as text, never a 5xx.
    for (const raw of ['%ED%A0%80', '%FF', '%', '%E0%A4']) {
      expect((await call('GET', `/api/v1/projects/${p.handle}/search?q=${raw}`, p.admin)).status).toBeLessThan(500);
    }
    expect((await find('plain')).status).toBe(200);
  });

  it('shows the history chart on the test page and the search page in the dashboard, escaped, for the project’s own account only', async () => {
    const origin = 'http://localhost';
    const signIn = await app.request(`${origin}/sign-in`, { method: 'POST', headers: { origin, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ credential: p.admin }).toString() });
    const cookie = /sg_session=[^;]+/.exec(signIn.headers.get('set-cookie') ?? '')![0];
    const get = (path: string) => app.request(`${origin}${path}`, { headers: { cookie } });
    const page = await get(`/projects/${p.handle}/test-cases/${idOf(p.projectId, 'steady')}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const chart = html.slice(html.indexOf('<svg class="history-chart"'), html.indexOf('</svg>'));
    expect([...chart.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1])).toEqual(['r00', 'r01', 'r02', 'r03', 'r04', 'r05', 'r06', 'r07', 'r08', 'r09', 'r10', 'r11', 'r12'].map((r) => `/projects/${p.handle}/runs/${r}`));
    expect(html).toContain('<summary>The same 13 runs as a table, newest first</summary>');
    expect(html).toContain(`action="/projects/${p.handle}/search"`);
    const search = await get(`/projects/${p.handle}/search?q=${encodeURIComponent("<b>'_%")}`);
    expect(search.status).toBe(200);
    const found = await search.text();
    expect(found).not.toContain('<b>');
    expect(found).toContain('No test case of this project has “&lt;b&gt;&#39;_%” in its module, suite or name.');
    const hits = await (await get(`/projects/${p.handle}/search?q=_`)).text();
    expect(hits).toContain(`<a href="/projects/${p.handle}/test-cases/${idOf(p.projectId, 'under_score')}"><code>${SUITE}.under_score</code></a>`);
    expect((await get(`/projects/${p.handle}/search?q=${'x'.repeat(201)}`)).status).toBe(400);
    expect((await get(`/projects/${other.handle}/search?q=steady`)).status).toBe(404);
    expect((await get(`/projects/${other.handle}/test-cases/${idOf(other.projectId, 'steady')}`)).status).toBe(404);
  });
});
