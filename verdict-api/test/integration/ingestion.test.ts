// Ingestion on both real engines: idempotent re-upload, shards merging into one run, the
// gated observation kept apart from organic repetitions.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { StorageUnavailableError } from '../../src/errors/errors.js';
import { INGEST_CHUNK } from '../../src/ingest/ingest-run.js';
import { idsPresentSince } from '../../src/presence/presence.js';
import { formatDateTime, ident, sql, uuid } from '../../src/sql/bind.js';
import { database } from '../../src/storage/database.js';
import { type InsertRows, TsvRows } from '../../src/storage/tab-separated.js';
import { ENGINES, openTestDatabase, type TestDatabase } from '../support/engines.js';
import { run, seedProject, testApp } from '../support/api.js';

describe.each(ENGINES)('ingestion on %s ClickHouse', (kind) => {
  let t: TestDatabase;
  let call: ReturnType<typeof testApp>['call'];
  beforeAll(async () => {
    t = await openTestDatabase(kind);
    call = testApp(t.db).call;
  });
  afterAll(async () => {
    await t.close();
  });

  const count = async (table: Parameters<typeof t.db.t>[0], projectId: string, where = sql``) => {
    const rows = await t.db.engine.query<{ n: unknown }>(sql`SELECT count() AS n FROM ${t.db.t(table)} FINAL WHERE project_id = ${uuid(projectId)}${where}`);
    return Number(rows[0]!.n);
  };

  it('counts a retried upload once', async () => {
    const p = await seedProject(t.db, `retry-${kind}`);
    const body = run('run-1', ['a', 'b'], {
      testCases: [
        { module: ':app', suite: 'S', name: 'a', status: 'success', durationMs: 1, repetitions: [{ repetition: 1, status: 'failure', durationMs: 1 }, { repetition: 2, status: 'success', durationMs: 1 }] },
        { module: ':app', suite: 'S', name: 'b', status: 'failure', durationMs: 2 },
      ],
    });
    const first = await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, body);
    const second = await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, body);
    expect(first.body).toMatchObject({ testCases: 2, duplicate: false });
    expect(second.body).toMatchObject({ testCases: 2, duplicate: true });
    expect(await count('test_runs', p.projectId)).toBe(1);
    expect(await count('test_case_runs', p.projectId)).toBe(2);
    expect(await count('test_case_run_repetitions', p.projectId)).toBe(2);
    const raw = await t.db.engine.query<{ n: unknown }>(sql`SELECT count() AS n FROM ${t.db.t('test_case_runs')} WHERE project_id = ${uuid(p.projectId)}`);
    expect(Number(raw[0]!.n)).toBe(2);
  });

  it('badges a test case new unless it ran in CI on the default branch within 90 days', async () => {
    const p = await seedProject(t.db, `badge-${kind}`);
    const ago = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    const post = (body: ReturnType<typeof run>) => call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, body);
    await post(run('long-ago', ['old'], { startedAt: ago(100) }));
    await post(run('recent', ['known'], { startedAt: ago(10), testCases: [...run('x', ['known']).testCases, { module: ':app', suite: 'com.example.CheckoutTest', name: 'skipped', status: 'skipped', durationMs: 0 }] }));
    await post(run('feature', ['branch-only'], { branch: 'feature/x', startedAt: ago(1) }));
    await post(run('laptop', ['local-only'], { isCi: false, startedAt: ago(1) }));
    const now = await post(run('now', ['old', 'known', 'skipped', 'branch-only', 'local-only', 'brand-new'], { startedAt: ago(0) }));
    expect(now.body).toMatchObject({ testCases: 6, newTestCases: 5, duplicate: false });
    const rows = await t.db.engine.query<{ name: string; is_new: unknown }>(sql`
      SELECT name, is_new FROM ${t.db.t('test_case_runs')} FINAL WHERE project_id = ${uuid(p.projectId)} AND run_id = 'now' ORDER BY name`);
    expect(rows.map((r) => [r.name, Number(r.is_new)])).toEqual([
      ['branch-only', 1],
      ['brand-new', 1],
      ['known', 0],
      ['local-only', 1],
      ['old', 1],
      ['skipped', 1],
    ]);
  });

  it('reads a scope whole only up to its limit, within the window and the scope', async () => {
    const p = await seedProject(t.db, `scope-read-${kind}`);
    const ago = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    const post = (body: ReturnType<typeof run>) => call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, body);
    await post(run('recent', ['a', 'b', 'c'], { startedAt: ago(5) }));
    await post(run('recent-again', ['a'], { startedAt: ago(1) })); // a second presence row of `a`: counted once
    await post(run('long-ago', ['old'], { startedAt: ago(100) }));
    await post(run('feature', ['branch-only'], { branch: 'feature/x', startedAt: ago(1) }));
    const scope = { projectId: p.projectId, branch: 'main', isCi: true };
    const since = new Date(Date.now() - 90 * 86_400_000);
    const names = async (ids: Set<string> | null) => (ids === null ? null : (await t.db.engine.query<{ name: string }>(sql`
      SELECT name FROM ${t.db.t('test_cases')} FINAL WHERE project_id = ${uuid(p.projectId)} AND toString(test_case_id) IN (${[...ids, '']})`)).map((r) => r.name).sort());
    expect(await names(await idsPresentSince(t.db, scope, since, 3))).toEqual(['a', 'b', 'c']);
    expect(await idsPresentSince(t.db, scope, since, 2)).toBeNull();
    expect(await names(await idsPresentSince(t.db, scope, new Date(Date.now() - 200 * 86_400_000), 10))).toEqual(['a', 'b', 'c', 'old']);
  });

  it('badges an upload of several chunks alike whether its scope is read whole or chunk by chunk', async () => {
    // History on main: 3,000 of the upload's names, plus `others` names it does not carry.
    const upload = Array.from({ length: INGEST_CHUNK + 1_000 }, (_, i) => `case${i}`);
    const badged = async (others: number) => {
      const p = await seedProject(t.db, `chunks-${others}-${kind}`);
      const history = [...upload.slice(0, 3_000), ...Array.from({ length: others }, (_, i) => `other${i}`)];
      expect((await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, run('history', history))).status).toBe(201);
      // The upload through an engine that notes how its badges were read.
      const reads: string[] = [];
      const e = t.db.engine;
      const noting = database({ ...e, query: (s) => (/test_case_branch_presence/.test(s.text) && reads.push(/groupArray/.test(s.text) ? 'scope' : 'ids'), e.query(s)) }, t.db.name);
      const res = await testApp(noting).call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, run('mr', upload));
      const rows = await t.db.engine.query<{ name: string }>(sql`
        SELECT name FROM ${t.db.t('test_case_runs')} FINAL WHERE project_id = ${uuid(p.projectId)} AND run_id = 'mr' AND is_new = 0`);
      return { body: res.body, old: rows.map((r) => r.name).sort(), reads };
    };
    const expected = { body: { runId: 'mr', shard: { index: 0, total: 1 }, testCases: upload.length, newTestCases: upload.length - 3_000, duplicate: false }, old: upload.slice(0, 3_000).sort() };
    // A scope of 3,000 + 1,000 ids: read whole (at most twice the upload).
    expect(await badged(1_000)).toEqual({ ...expected, reads: ['scope'] });
    // A scope of more than twice the upload: the read stops, and each chunk asks for its own ids.
    expect(await badged(2 * upload.length)).toEqual({ ...expected, reads: ['scope', 'ids', 'ids'] });
  }, 120_000);

  it('catalogues each test case once, from the upload that badged it new', async () => {
    const p = await seedProject(t.db, `catalogue-${kind}`);
    const post = (body: ReturnType<typeof run>) => call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, body);
    const at = (days: number) => new Date(Math.floor(Date.now() / 86_400_000 - days) * 86_400_000);
    expect((await post(run('first', ['a', 'b'], { startedAt: at(3).toISOString() }))).status).toBe(201);
    expect((await post(run('second', ['a', 'b', 'c'], { startedAt: at(2).toISOString() }))).status).toBe(201);
    // A feature branch's run: `a` ran in CI on main, `d` is new.
    expect((await post(run('feature', ['a', 'd'], { branch: 'feature/x', startedAt: at(1).toISOString() }))).status).toBe(201);
    // Each row was written once: `a` and `b` keep the time of the run that badged them new.
    const rows = await t.db.engine.query<{ name: string; at: string }>(sql`
      SELECT name, toString(last_ran_at) AS at FROM ${t.db.t('test_cases')} FINAL WHERE project_id = ${uuid(p.projectId)} ORDER BY name`);
    expect(rows.map((r) => [r.name, r.at])).toEqual([
      ['a', formatDateTime(at(3))],
      ['b', formatDateTime(at(3))],
      ['c', formatDateTime(at(2))],
      ['d', formatDateTime(at(1))],
    ]);
  });

  /** The test database through an engine whose inserts that `refuse` picks fail (ClickHouse gone). */
  const refusing = (refuse: (table: string, rows: InsertRows) => boolean) => {
    const e = t.db.engine;
    return database({ ...e, insert: async (table, rows) => (refuse(table.text, rows) ? Promise.reject(new StorageUnavailableError('connection reset (injected)')) : e.insert(table, rows)) }, t.db.name);
  };

  const catalogued = async (projectId: string) =>
    (await t.db.engine.query<{ name: string }>(sql`SELECT name FROM ${t.db.t('test_cases')} FINAL WHERE project_id = ${uuid(projectId)} ORDER BY name`)).map((r) => r.name);

  it('catalogues every test case of a project without a default branch, before their runs', async () => {
    const p = await seedProject(t.db, `catalogue-no-default-${kind}`, { defaultBranch: null });
    const post = (body: ReturnType<typeof run>, db = t.db) => testApp(db).call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, body);
    expect((await post(run('r', ['x', 'y']))).body).toMatchObject({ newTestCases: 0 });
    expect(await catalogued(p.projectId)).toEqual(['x', 'y']);
    // Nothing is badged new there, so the catalogue is written apart: when that fails, the runs are not stored.
    expect((await post(run('s', ['x', 'z']), refusing((table) => /test_cases`?$/.test(table)))).status).toBe(503);
    expect(await count('test_case_runs', p.projectId, sql` AND run_id = 's'`)).toBe(0);
    expect((await post(run('s', ['x', 'z']))).body).toMatchObject({ testCases: 2, duplicate: false });
    expect(await catalogued(p.projectId)).toEqual(['x', 'y', 'z']);
  });

  it('catalogues on a retry the new test cases an earlier attempt stored without their catalogue rows', async () => {
    const p = await seedProject(t.db, `catalogue-retry-${kind}`);
    const names = Array.from({ length: INGEST_CHUNK + 10 }, (_, i) => `case${i}`);
    // The first attempt stores its first chunk while the catalogue's view is away, and dies on the second.
    const dying = refusing((table, rows) => /test_case_runs`?$/.test(table) && rows instanceof TsvRows && rows.count === 10);
    const view = sql`${ident(t.db.name)}.${ident('test_cases_from_new_runs')}`;
    await t.db.engine.command(sql`DETACH TABLE ${view}`);
    try {
      expect((await testApp(dying).call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, run('mr', names))).status).toBe(503);
    } finally {
      await t.db.engine.command(sql`ATTACH TABLE ${view}`);
    }
    expect(await count('test_case_runs', p.projectId, sql` AND run_id = 'mr'`)).toBe(INGEST_CHUNK);
    expect(await catalogued(p.projectId)).toEqual([]);
    expect((await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, run('mr', names))).body).toMatchObject({ newTestCases: names.length, duplicate: false });
    expect((await catalogued(p.projectId)).length).toBe(names.length);
  }, 60_000);

  it('merges shards of one run into one run', async () => {
    const p = await seedProject(t.db, `shards-${kind}`);
    await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, run('sharded', ['a'], { shard: { index: 0, total: 2 } }));
    await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, run('sharded', ['b'], { shard: { index: 1, total: 2 } }));
    const rows = await t.db.engine.query<{ runs: unknown; cases: unknown }>(sql`
      SELECT uniqExact(run_id) AS runs, sum(test_case_count) AS cases FROM ${t.db.t('test_runs')} FINAL WHERE project_id = ${uuid(p.projectId)}`);
    expect([Number(rows[0]!.runs), Number(rows[0]!.cases)]).toEqual([1, 2]);
  });

  it('records the stress pass as a gated observation, apart from organic repetitions', async () => {
    const p = await seedProject(t.db, `gate-${kind}`);
    await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, run('feature-1', ['flaky', 'stable'], { branch: 'feature/z' }));
    const reps = (fails: number[]) => Array.from({ length: 10 }, (_, i) => ({ repetition: i + 1, status: fails.includes(i + 1) ? 'failure' : 'success', durationMs: 3 }));
    const res = await call('POST', `/api/v1/projects/${p.handle}/runs/feature-1/gate`, p.token, {
      mode: 'report',
      outcome: 'failed',
      candidatesExamined: 2,
      stressed: 2,
      excluded: 0,
      guard: null,
      blocked: false,
      wouldHaveBlocked: true,
      testCases: [
        { module: ':app', suite: 'com.example.CheckoutTest', name: 'flaky', outcome: 'failed', repetitions: reps([2, 6]) },
        { module: ':app', suite: 'com.example.CheckoutTest', name: 'stable', outcome: 'passed', repetitions: reps([]) },
      ],
    });
    expect(res.status).toBe(201);
    expect(await count('test_case_run_repetitions', p.projectId, sql` AND source = 'stress'`)).toBe(20);
    expect(await count('test_case_run_repetitions', p.projectId, sql` AND source = 'organic'`)).toBe(0);
    const verdicts = await t.db.engine.query<Record<string, unknown>>(sql`
      SELECT mode, outcome, stressed, would_have_blocked FROM ${t.db.t('gate_verdicts')} FINAL WHERE project_id = ${uuid(p.projectId)}`);
    expect(verdicts.map((v) => [v.mode, v.outcome, Number(v.stressed), Number(v.would_have_blocked)])).toEqual([['report', 'failed', 2, 1]]);
  });

  it('counts the organic findings past the flaky section bound, and says so on the page and in the report', async () => {
    const p = await seedProject(t.db, `many-flaky-${kind}`);
    const disagreed = [{ repetition: 1, status: 'failure' as const, durationMs: 3 }, { repetition: 2, status: 'success' as const, durationMs: 3 }];
    const testCases = Array.from({ length: 1_003 }, (_, i) => ({ module: ':app', suite: 'S', name: `t${i}`, status: 'success' as const, durationMs: 3, repetitions: disagreed }));
    expect((await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, { ...run('many-flaky', []), branch: 'feature/a', testCases })).status).toBe(201);
    const page = await call('GET', `/api/v1/projects/${p.handle}/runs/many-flaky`, p.token);
    expect([page.body!.flaky.length, page.body!.flakyNotShown]).toEqual([1_000, 3]);
    const { app } = testApp(t.db);
    const md = await (await app.request(`/api/v1/projects/${p.handle}/runs/many-flaky/report.md`, { headers: { Authorization: `Bearer ${p.token}` } })).text();
    expect(md).toContain('3 more disagreed: the first 1,000 of each kind');
  });

  it('shows stress findings to the run page but never to the cross-run flaky aggregate', async () => {
    const p = await seedProject(t.db, `attribution-${kind}`);
    const reps = (fails: number[], n = 10) => Array.from({ length: n }, (_, i) => ({ repetition: i + 1, status: fails.includes(i + 1) ? 'failure' : 'success', durationMs: 3 }));
    // Organic: the build itself retried `retried` and it disagreed with itself.
    await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, {
      ...run('organic-1', []),
      branch: 'feature/a',
      testCases: [
        { module: ':app', suite: 'S', name: 'retried', status: 'success', durationMs: 3, repetitions: reps([1], 2) },
        { module: ':app', suite: 'S', name: 'stressed', status: 'success', durationMs: 3 },
      ],
    });
    // Stress: the gate solicited ten repetitions of `stressed`, three failed.
    await call('POST', `/api/v1/projects/${p.handle}/runs/organic-1/gate`, p.token, {
      mode: 'report', outcome: 'failed', candidatesExamined: 1, stressed: 1, excluded: 0, guard: null, blocked: false, wouldHaveBlocked: true,
      testCases: [{ module: ':app', suite: 'S', name: 'stressed', outcome: 'failed', repetitions: reps([2, 5, 8]) }],
    });

    const flaky = await call('GET', `/api/v1/projects/${p.handle}/flaky-tests`, p.admin);
    expect(flaky.status).toBe(200);
    expect(flaky.body!.tests.map((x: any) => [x.name, x.flakyRuns, x.markedFlaky])).toEqual([['retried', 1, true]]);

    const page = await call('GET', `/api/v1/projects/${p.handle}/runs/organic-1`, p.token);
    expect(page.body!.flaky).toEqual([
      { module: ':app', suite: 'S', name: 'retried', caughtBy: 'organic', failed: 1, repetitions: 2 },
      { module: ':app', suite: 'S', name: 'stressed', caughtBy: 'stress_gate', failed: 3, repetitions: 10 },
    ]);
    expect(page.body!.gate).toMatchObject({ mode: 'report', outcome: 'failed', wouldHaveBlocked: true, blocked: false });
    expect((await call('GET', `/api/v1/projects/${p.handle}/runs/no-such-run`, p.token)).status).toBe(404);

    const { app } = testApp(t.db);
    const md = await app.request(`/api/v1/projects/${p.handle}/runs/organic-1/report.md`, { headers: { Authorization: `Bearer ${p.token}` } });
    expect(md.headers.get('content-type')).toContain('text/markdown');
    const text = await md.text();
    expect(text).toContain('| `S.stressed` | `:app` | failed 3 of 10 | stress gate: new test, deliberately repeated in fresh JVMs |');
    expect(text).toContain('| `S.retried` | `:app` | failed 1 of 2 | this run (the build repeated it) |');
  });
});
