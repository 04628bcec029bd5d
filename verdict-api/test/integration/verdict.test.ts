// The verdict, answered at request time from branch presence, on both real engines.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ENGINES, openTestDatabase, type TestDatabase } from '../support/engines.js';
import { ids, run, seedProject, testApp } from '../support/api.js';
import { database } from '../../src/storage/database.js';
import type { ClickHouseEngine } from '../../src/storage/engine.js';
import { scopeKey } from '../../src/storage/read-cache.js';
import { testCaseId } from '../../src/identity/test-case-id.js';
import { sql, uuid } from '../../src/sql/bind.js';

const DAY = 86_400_000;

describe.each(ENGINES)('verdict on %s ClickHouse', (kind) => {
  let t: TestDatabase;
  let call: ReturnType<typeof testApp>['call'];
  beforeAll(async () => {
    t = await openTestDatabase(kind);
    call = testApp(t.db).call;
  });
  afterAll(async () => {
    await t.close();
  });

  const verdictOf = async (p: { handle: string; token: string }, names: string[], durationMs = 12) => {
    const res = await call('POST', `/api/v1/projects/${p.handle}/verdict`, p.token, { testCases: ids(names, durationMs) });
    expect(res.status).toBe(200);
    return res.body!;
  };

  it('fires the premise guard without default-branch history, and answers the subtraction once history exists', async () => {
    const p = await seedProject(t.db, `hist-${kind}`);
    const before = await verdictOf(p, ['a', 'b']);
    expect(before.guards.premise).toEqual({ fired: true, reason: 'no_default_branch_history' });
    expect(before.inventory).toBe(0);
    expect(before.candidates.map((c: any) => c.name)).toEqual(['a', 'b']);

    expect((await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, run('main-1', ['a', 'b', 'c']))).status).toBe(201);
    const after = await verdictOf(p, ['z', 'a', 'b', 'new-1', 'c']);
    expect(after.guards.premise).toEqual({ fired: false, reason: null });
    expect(after.inventory).toBe(3);
    expect(after.posted).toBe(5);
    expect(after.candidates.map((c: any) => [c.name, c.repetitions])).toEqual([
      ['new-1', 10],
      ['z', 10],
    ]);
  });

  it(kind === 'embedded' ? 'holds the scope whole on embedded chDB: later verdicts read no presence and stay exact as runs arrive' : 'asks ClickHouse for unknown ids on every verdict (another process may write the server)', async () => {
    // The app on its own cache, over an engine that counts presence reads (inventory aside).
    let presenceReads = 0;
    const inner = t.db.engine;
    const counting: ClickHouseEngine = {
      kind: inner.kind,
      command: (s) => inner.command(s),
      query: (s) => {
        if (s.text.includes('test_case_branch_presence') && !s.text.includes('uniqExact')) presenceReads++;
        return inner.query(s);
      },
      insert: (table, rows) => inner.insert(table, rows),
      ping: () => inner.ping(),
      close: async () => {},
    };
    const db = database(counting, t.db.name);
    const own = testApp(db).call;
    const p = await seedProject(t.db, `whole-${kind}`);
    const names = async (testCases: string[]) => {
      const res = await own('POST', `/api/v1/projects/${p.handle}/verdict`, p.token, { testCases: ids(testCases) });
      expect(res.status).toBe(200);
      return res.body!.candidates.map((c: any) => c.name);
    };
    expect((await own('POST', `/api/v1/projects/${p.handle}/runs`, p.token, run('main-1', ['a', 'b']))).status).toBe(201);
    expect(await names(['a', 'b', 'new-1'])).toEqual(['new-1']);
    const key = scopeKey(p.projectId, 'main', true);
    if (kind === 'embedded') {
      for (let i = 0; i < 200 && !db.cache.known.isWhole(key); i++) await new Promise((r) => setTimeout(r, 25));
      expect(db.cache.known.isWhole(key)).toBe(true);
    } else expect(db.cache.soleWriter).toBe(false);

    expect((await own('POST', `/api/v1/projects/${p.handle}/runs`, p.token, run('main-2', ['c']))).status).toBe(201);
    expect((await own('POST', `/api/v1/projects/${p.handle}/runs`, p.token, run('main-skip', [], { testCases: [{ module: ':app', suite: 'com.example.CheckoutTest', name: 'skipped', status: 'skipped', durationMs: 0 }] }))).status).toBe(201);
    presenceReads = 0;
    expect(await names(['a', 'b', 'c', 'skipped', 'new-1', 'new-2'])).toEqual(['new-1', 'new-2', 'skipped']);
    expect(await names(['c', 'new-3'])).toEqual(['new-3']);
    if (kind === 'embedded') expect(presenceReads).toBe(0);
    else expect(presenceReads).toBe(2);
  });

  it('asks about an id it knew again once a statement emptied the cache: a mark on an id lasts only as long as the known ids it was read from', async () => {
    const p = await seedProject(t.db, `marks-${kind}`);
    const names = async (testCases: string[]) => (await verdictOf(p, testCases)).candidates.map((c: any) => c.name);
    expect((await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, run('main-1', ['kept', 'gone']))).status).toBe(201);
    // Twice: the second verdict finds both among the known ids (and marks them), the third reads only the marks.
    expect(await names(['kept', 'gone', 'new'])).toEqual(['new']);
    expect(await names(['kept', 'gone', 'new'])).toEqual(['new']);
    expect(await names(['kept', 'gone', 'new'])).toEqual(['new']);
    // A mutation through the engine empties the cache; 18.16 applies it in the background.
    const gone = testCaseId(p.projectId, { module: ':app', suite: 'com.example.CheckoutTest', name: 'gone' });
    const where = sql`project_id = ${uuid(p.projectId)} AND toString(test_case_id) = ${gone}`;
    await t.db.engine.command(sql`ALTER TABLE ${t.db.t('test_case_branch_presence')} DELETE WHERE ${where}`);
    for (let i = 0; i < 200; i++) {
      const left = await t.db.engine.query<{ n: unknown }>(sql`SELECT count() AS n FROM ${t.db.t('test_case_branch_presence')} WHERE ${where}`);
      if (Number(left[0]!.n) === 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await names(['kept', 'gone', 'new'])).toEqual(['gone', 'new']);
  });

  it('answers a request grouped by suite as the same request one entry per test case', async () => {
    const p = await seedProject(t.db, `grouped-${kind}`);
    const history = { ...run('main-1', []), testCases: [
      { module: ':app', suite: 'com.example.A', name: 'known', status: 'success' as const, durationMs: 5 },
      { module: ':lib', suite: 'com.example.B', name: 'known', status: 'success' as const, durationMs: 5 },
    ] };
    expect((await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, history)).status).toBe(201);
    const flat = [
      { module: ':app', suite: 'com.example.A', name: 'known', durationMs: 4 },
      { module: ':app', suite: 'com.example.A', name: 'added', durationMs: 40_000 },
      { module: ':lib', suite: 'com.example.B', name: 'known', durationMs: 7 },
      { module: ':lib', suite: 'com.example.B', name: 'also added', durationMs: 3 },
      { module: ':app', suite: 'com.example.B', name: 'known', durationMs: 9 },
    ];
    const suites = [
      { module: ':app', suite: 'com.example.A', tests: [{ name: 'known', durationMs: 4 }, { name: 'added', durationMs: 40_000 }] },
      { module: ':lib', suite: 'com.example.B', tests: [{ name: 'known', durationMs: 7 }, { name: 'also added', durationMs: 3 }] },
      { module: ':app', suite: 'com.example.B', tests: [{ name: 'known', durationMs: 9 }] },
    ];
    // What the CLI sends: the names with their durations beside them.
    const sideBySide = suites.map((s) => ({ module: s.module, suite: s.suite, names: s.tests.map((x) => x.name), durationsMs: s.tests.map((x) => x.durationMs) }));
    const a = await call('POST', `/api/v1/projects/${p.handle}/verdict`, p.token, { runId: 'mr-1', mode: 'report', testCases: flat });
    const b = await call('POST', `/api/v1/projects/${p.handle}/verdict`, p.token, { runId: 'mr-1', mode: 'report', suites });
    const c = await call('POST', `/api/v1/projects/${p.handle}/verdict`, p.token, { runId: 'mr-1', mode: 'report', suites: sideBySide });
    expect([a.status, b.status, c.status]).toEqual([200, 200, 200]);
    expect(b.body).toEqual(a.body);
    expect(c.body).toEqual(a.body);
    expect(b.body!.posted).toBe(5);
    expect(b.body!.candidates.map((c: any) => [c.module, c.suite, c.name, c.durationMs])).toEqual([
      [':app', 'com.example.A', 'added', 40_000],
      [':app', 'com.example.B', 'known', 9],
      [':lib', 'com.example.B', 'also added', 3],
    ]);
  });

  it('refuses a verdict request with both forms or neither, a repeated identity across suites, and too many tests in its suites, naming the field', async () => {
    const p = await seedProject(t.db, `grouped-bad-${kind}`);
    const post = (body: unknown) => call('POST', `/api/v1/projects/${p.handle}/verdict`, p.token, body);
    const suite = (name: string, tests: string[]) => ({ module: ':app', suite: name, tests: tests.map((n) => ({ name: n, durationMs: 1 })) });
    const both = await post({ testCases: ids(['a']), suites: [suite('S', ['a'])] });
    expect([both.status, both.body!.error.field]).toEqual([400, 'suites']);
    expect(both.body!.error.message).toContain('exactly one of the two');
    const neither = await post({ mode: 'report' });
    expect([neither.status, neither.body!.error.field]).toEqual([400, 'testCases']);
    const repeated = await post({ suites: [suite('S', ['a', 'b']), suite('T', ['a']), suite('S', ['c', 'b'])] });
    expect(repeated.status).toBe(400);
    expect(repeated.body!.error).toMatchObject({ code: 'BAD_REQUEST', field: 'suites[2].tests[1]' });
    expect(repeated.body!.error.message).toContain('duplicate identity of suites[0].tests[1]');
    const badName = await post({ suites: [suite('S', ['a']), { module: ':app', suite: 'T', tests: [{ name: '', durationMs: 1 }] }] });
    expect([badName.status, badName.body!.error.field]).toEqual([400, 'suites[1].tests[0].name']);
    const many = Array.from({ length: 100 }, (_, i) => suite(`S${i}`, Array.from({ length: 1_000 }, (_, k) => `t${k}`)));
    many[0]!.tests.push({ name: 'one-more', durationMs: 1 });
    const tooMany = await post({ suites: many });
    expect(tooMany.status).toBe(413);
    expect(tooMany.body!.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', field: 'suites' });

    // The names with their durations beside them (the CLI's form): the same refusals, naming its fields.
    const side = (name: string, names: string[], durationsMs = names.map(() => 1)) => ({ module: ':app', suite: name, names, durationsMs });
    const sideRepeated = await post({ suites: [side('S', ['a', 'b']), suite('T', ['a']), side('S', ['c', 'b'])] });
    expect([sideRepeated.status, sideRepeated.body!.error.field]).toEqual([400, 'suites[2].names[1]']);
    expect(sideRepeated.body!.error.message).toContain('duplicate identity of suites[0].names[1]');
    const uneven = await post({ suites: [side('S', ['a']), side('T', ['a', 'b'], [1])] });
    expect([uneven.status, uneven.body!.error.field]).toEqual([400, 'suites[1]']);
    expect(uneven.body!.error.message).toContain('names with durationsMs of the same length');
    const twoLists = await post({ suites: [{ ...side('S', ['a']), tests: [{ name: 'a', durationMs: 1 }] }] });
    expect([twoLists.status, twoLists.body!.error.field]).toEqual([400, 'suites[0]']);
    const sideBadName = await post({ suites: [side('S', ['a', ''])] });
    expect([sideBadName.status, sideBadName.body!.error.field]).toEqual([400, 'suites[0].names[1]']);
    const sideBadDuration = await post({ suites: [side('S', ['a'], [-1])] });
    expect([sideBadDuration.status, sideBadDuration.body!.error.field]).toEqual([400, 'suites[0].durationsMs[0]']);
    const sideMany = Array.from({ length: 100 }, (_, i) => side(`S${i}`, Array.from({ length: 1_000 }, (_, k) => `t${k}`)));
    sideMany[99]!.names.push('one-more');
    sideMany[99]!.durationsMs.push(1);
    const sideTooMany = await post({ suites: sideMany });
    expect([sideTooMany.status, sideTooMany.body!.error.field]).toEqual([413, 'suites']);
  });

  it('fires the premise guard when the project has no default branch', async () => {
    const p = await seedProject(t.db, `nobranch-${kind}`, { defaultBranch: null });
    const v = await verdictOf(p, ['a']);
    expect(v.guards.premise).toEqual({ fired: true, reason: 'no_default_branch' });
    expect(v.defaultBranch).toBeNull();
  });

  it('counts only CI runs on the default branch as history', async () => {
    const p = await seedProject(t.db, `scope-${kind}`);
    await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, run('local', ['local-only'], { isCi: false }));
    await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, run('feature', ['feature-only'], { branch: 'feature/x' }));
    await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, run('main', ['on-main']));
    await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, {
      ...run('skips', []),
      testCases: [{ module: ':app', suite: 'com.example.CheckoutTest', name: 'skipped-on-main', status: 'skipped', durationMs: 0 }],
    });
    const v = await verdictOf(p, ['local-only', 'feature-only', 'on-main', 'skipped-on-main']);
    expect(v.candidates.map((c: any) => c.name)).toEqual(['feature-only', 'local-only', 'skipped-on-main']);
    expect(v.inventory).toBe(1);
  });

  it('prices candidates by the curve and excludes slow ones with the reason', async () => {
    const p = await seedProject(t.db, `price-${kind}`);
    await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, run('main', ['old']));
    const res = await call('POST', `/api/v1/projects/${p.handle}/verdict`, p.token, {
      testCases: [
        { module: ':app', suite: 'S', name: 'fast', durationMs: 5000 },
        { module: ':app', suite: 'S', name: 'ten', durationMs: 5001 },
        { module: ':app', suite: 'S', name: 'thirty', durationMs: 10_000 },
        { module: ':app', suite: 'S', name: 'five-min', durationMs: 299_999 },
        { module: ':app', suite: 'S', name: 'slow', durationMs: 300_000 },
      ],
    });
    expect(res.body!.candidates.map((c: any) => [c.name, c.repetitions, c.excluded?.reason ?? null])).toEqual([
      ['fast', 10, null],
      ['five-min', 2, null],
      ['slow', null, 'slow'],
      ['ten', 5, null],
      ['thirty', 3, null],
    ]);
    expect(res.body!.guards.candidateCap).toEqual({ fired: false, count: 4, cap: 200 });
  });

  it('fires the bulk-change guard above the floor with its count, and not below it', async () => {
    const p = await seedProject(t.db, `bulk-${kind}`);
    const known = Array.from({ length: 100 }, (_, i) => `known-${i}`);
    await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, run('main', known));
    const fresh = (n: number) => Array.from({ length: n }, (_, i) => `fresh-${String(i).padStart(3, '0')}`);
    const below = await verdictOf(p, [...known, ...fresh(49)]);
    expect(below.guards.bulkChange).toEqual({ fired: false, newCount: 49, inventory: 100, ratio: 0.3, floor: 50 });
    const above = await verdictOf(p, [...known, ...fresh(50)]);
    expect(above.guards.bulkChange).toEqual({ fired: true, newCount: 50, inventory: 100, ratio: 0.3, floor: 50 });
  });

  it('fires the candidate cap from the project parameters, candidates sorted so the cap is deterministic', async () => {
    const p = await seedProject(t.db, `cap-${kind}`);
    await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, run('main', ['old']));
    const patched = await call('PATCH', `/api/v1/projects/${p.handle}/settings`, p.admin, { stress: { candidateCap: 3, bulkChangeFloor: 1000 } });
    expect(patched.status).toBe(200);
    const v = await verdictOf(p, ['d', 'b', 'e', 'a', 'c']);
    expect(v.guards.candidateCap).toEqual({ fired: true, count: 5, cap: 3 });
    expect(v.candidates.map((c: any) => c.name)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('treats a test last run on the default branch 200 days ago as known, while the ingestion badge calls it new', async () => {
    const p = await seedProject(t.db, `dormant-${kind}`);
    const longAgo = new Date(Date.now() - 200 * DAY).toISOString();
    await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, run('main-old', ['dormant', 'other'], { startedAt: longAgo }));
    await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, run('main-recent', ['other']));
    const v = await verdictOf(p, ['dormant']);
    expect(v.candidates).toEqual([]);
    const upload = await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, run('feature-run', ['dormant', 'other'], { branch: 'feature/y' }));
    expect(upload.body).toMatchObject({ testCases: 2, newTestCases: 1, duplicate: false });
  });

  it('reports the account entitlement', async () => {
    const p = await seedProject(t.db, `dark-${kind}`, { entitled: false });
    expect((await verdictOf(p, ['a'])).entitled).toBe(false);
  });

  it('accepts 100,000 identities in one request and refuses 100,001 with 413', async () => {
    const p = await seedProject(t.db, `big-${kind}`);
    const names = Array.from({ length: 100_000 }, (_, i) => `test_${i}`);
    await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, run('main', names.slice(0, 50_000)));
    const v = await verdictOf(p, names);
    expect(v.posted).toBe(100_000);
    expect(v.candidates).toHaveLength(50_000);
    expect(v.guards.bulkChange.fired).toBe(true);
    const tooMany = await call('POST', `/api/v1/projects/${p.handle}/verdict`, p.token, { testCases: ids([...names, 'one-more']) });
    expect(tooMany.status).toBe(413);
    expect(tooMany.body!.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', field: 'testCases' });
  });
});
