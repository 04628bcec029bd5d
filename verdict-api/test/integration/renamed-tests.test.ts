// Modified and renamed tests end to end on both real engines. Body fingerprints uploaded with a CI
// run of the default branch are kept (migration 0042, counted in the storage quota); those of
// another branch, of a run that is not CI, or of another project are never used. A verdict whose
// new identity has the body of a known test this request did not post answers it in `renamed`,
// not among the candidates and not in the guards' count; a copy (the known test still posted)
// stays a candidate. Malformed fingerprints are a 400 naming the field, in both request shapes.
// A gate upload's origins, diff analysis and renamed tests (0044) are on the run page, in its JSON
// and in the run report; modifiedTestsBlock (0043) round-trips and is in the verdict.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { DEFAULT_FLAKY_POLICY, DEFAULT_STRESS_PARAMETERS } from '../../src/contract.js';
import { getProject, listProjectsOfAccount } from '../../src/accounts/projects.js';
import { testCaseId } from '../../src/identity/test-case-id.js';
import { formatDateTime, Sql, sql, uuid } from '../../src/sql/bind.js';
import { loadMigrations } from '../../src/storage/migrate.js';
import { ENGINES, openTestDatabase, type TestDatabase } from '../support/engines.js';
import { type ProjectHandle, run, seedProject, testApp } from '../support/api.js';

const fp = (c: string) => c.repeat(32);
const MOVED = fp('1');
const COPIED = fp('2');
const FEATURE_ONLY = fp('3');
const LOCAL_ONLY = fp('4');
const OTHER_PROJECT = fp('5');
const SKIPPED = fp('6');
const OLD = 'com.example.OldTest';
const NEW = 'com.example.NewTest';
const tc = (suite: string, name: string, fingerprint: string | null, status: 'success' | 'skipped' = 'success') => ({ module: ':app', suite, name, status, durationMs: 12, fingerprint });
const posted = (suite: string, name: string, fingerprint: string | null = null) => ({ module: ':app', suite, name, durationMs: 12, fingerprint });

describe.each(ENGINES)('modified and renamed tests on %s ClickHouse', (kind) => {
  let t: TestDatabase;
  let app: ReturnType<typeof testApp>['app'];
  let call: ReturnType<typeof testApp>['call'];
  let p: ProjectHandle;
  let other: ProjectHandle;
  const verdictOf = async (body: unknown, who = () => p) => {
    const res = await call('POST', `/api/v1/projects/${who().handle}/verdict`, who().token, body);
    expect(res.status).toBe(200);
    return res.body!;
  };
  const names = (list: { suite: string; name: string }[]) => list.map((c) => `${c.suite}.${c.name}`);

  beforeAll(async () => {
    t = await openTestDatabase(kind);
    ({ app, call } = testApp(t.db));
    p = await seedProject(t.db, `renames-${kind}`);
    other = await seedProject(t.db, `renames-other-${kind}`);
    // The default branch's history: a test later moved, one later copied, one skipped, one never fingerprinted.
    const main = run('main-1', [], {
      testCases: [tc(OLD, 'adds', MOVED), tc(OLD, 'keeps', COPIED), tc(OLD, 'skipped', SKIPPED, 'skipped'), tc(OLD, 'plain', null)],
    });
    expect((await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, main)).status).toBe(201);
    // Posted twice, as a CLI retrying a lost answer does.
    expect((await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, main)).body!.duplicate).toBe(true);
    // Fingerprints that are no default-branch CI history: a feature branch's CI run, the default branch's local run.
    const feature = run('feature-1', [], { branch: 'feature/x', testCases: [tc(OLD, 'onFeature', FEATURE_ONLY)] });
    const local = run('local-1', [], { isCi: false, testCases: [tc(OLD, 'onLaptop', LOCAL_ONLY)] });
    for (const r of [feature, local]) expect((await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, r)).status).toBe(201);
    // Another account's project: its fingerprint is never this project's.
    const theirs = run('theirs-1', [], { testCases: [tc(OLD, 'theirs', OTHER_PROJECT), tc(OLD, 'anchor', null)] });
    expect((await call('POST', `/api/v1/projects/${other.handle}/runs`, other.token, theirs)).status).toBe(201);
  });
  afterAll(async () => {
    await t.close();
  });

  it('runs 0042 to 0044 a second time without error', async () => {
    for (const m of loadMigrations().filter((x) => x.version >= '0042')) {
      for (const s of m.statements) await t.db.engine.command(new Sql(s.replaceAll('{db}', `\`${t.db.name}\``)));
    }
  });

  it('keeps the fingerprints of test cases that ran in CI on the default branch only, and counts them in the storage quota', async () => {
    const rows = await t.db.engine.query<Record<string, unknown>>(sql`
      SELECT toString(project_id) AS project, git_branch, fingerprint, toString(test_case_id) AS id, suite, name FROM ${t.db.t('test_case_fingerprints')} FINAL ORDER BY project, name`);
    const mine = rows.filter((r) => r['project'] === p.projectId);
    expect(mine.map((r) => [r['git_branch'], r['fingerprint'], r['name']])).toEqual([['main', MOVED, 'adds'], ['main', COPIED, 'keeps']]);
    expect(mine[0]!['id']).toBe(testCaseId(p.projectId, { module: ':app', suite: OLD, name: 'adds' }));
    expect(rows.filter((r) => r['project'] === other.projectId).map((r) => r['fingerprint'])).toEqual([OTHER_PROJECT]);
    // main-1: 4 test cases + 2 fingerprints kept; the feature branch's and the local run's: 1 each, none kept.
    const usage = await t.db.engine.query<Record<string, unknown>>(sql`SELECT sum(row_count) AS n FROM ${t.db.t('account_usage')} WHERE account_id = ${uuid(p.accountId)}`);
    expect(Number(usage[0]!['n'])).toBe(6 + 1 + 1);
  });

  it('answers a moved test (same body, new identity, the old one not posted) as renamed, not a candidate, not counted as new', async () => {
    const body = await verdictOf({ testCases: [posted(OLD, 'keeps'), posted(OLD, 'plain'), posted(NEW, 'adds', MOVED), posted(NEW, 'fresh', fp('9'))] });
    expect(names(body.candidates)).toEqual([`${NEW}.fresh`]);
    expect(body.renamed).toEqual([{
      module: ':app', suite: NEW, name: 'adds', testCaseId: testCaseId(p.projectId, { module: ':app', suite: NEW, name: 'adds' }),
      from: { module: ':app', suite: OLD, name: 'adds', testCaseId: testCaseId(p.projectId, { module: ':app', suite: OLD, name: 'adds' }) },
    }]);
    expect(body.guards.bulkChange.newCount).toBe(1);
    expect(body.guards.candidateCap.count).toBe(1);
    // The grouped shape, fingerprints beside the names: the same answer.
    const grouped = await verdictOf({ suites: [{ module: ':app', suite: OLD, names: ['keeps', 'plain'], durationsMs: [12, 12] }, { module: ':app', suite: NEW, names: ['adds', 'fresh'], durationsMs: [12, 12], fingerprints: [MOVED, null] }] });
    expect([names(grouped.candidates), names(grouped.renamed)]).toEqual([[`${NEW}.fresh`], [`${NEW}.adds`]]);
  });

  it('keeps a copy (the known test still posted) a candidate, and a renamed test whose body changed', async () => {
    const body = await verdictOf({ testCases: [posted(OLD, 'keeps', COPIED), posted(NEW, 'keepsToo', COPIED), posted(NEW, 'adds', fp('8'))] });
    expect(names(body.candidates)).toEqual([`${NEW}.adds`, `${NEW}.keepsToo`]);
    expect(body.renamed).toEqual([]);
  });

  it('never uses a fingerprint of another branch, of a run that is not CI, of a skipped test, or of another project', async () => {
    const body = await verdictOf({ testCases: [posted(NEW, 'a', FEATURE_ONLY), posted(NEW, 'b', LOCAL_ONLY), posted(NEW, 'c', SKIPPED), posted(NEW, 'd', OTHER_PROJECT)] });
    expect(names(body.candidates)).toEqual([`${NEW}.a`, `${NEW}.b`, `${NEW}.c`, `${NEW}.d`]);
    expect(body.renamed).toEqual([]);
    // And the other project does not see this one's.
    const theirs = await verdictOf({ testCases: [posted(OLD, 'anchor'), posted(NEW, 'moved', MOVED)] }, () => other);
    expect([names(theirs.candidates), theirs.renamed]).toEqual([[`${NEW}.moved`], []]);
  });

  it('answers as before for a request without fingerprints', async () => {
    const body = await verdictOf({ testCases: [posted(OLD, 'keeps'), posted(NEW, 'adds')] });
    expect([names(body.candidates), body.renamed]).toEqual([[`${NEW}.adds`], []]);
  });

  it.each([
    ['an upper-case fingerprint', { testCases: [posted(NEW, 'a'), posted(NEW, 'b', 'A'.repeat(32))] }, 'testCases[1].fingerprint'],
    ['a short fingerprint', { testCases: [posted(NEW, 'a', 'a'.repeat(31))] }, 'testCases[0].fingerprint'],
    ['a fingerprint that is not text', { testCases: [{ ...posted(NEW, 'a'), fingerprint: 7 }] }, 'testCases[0].fingerprint'],
    ['a bad one among a suite\'s', { suites: [{ module: ':app', suite: NEW, names: ['a', 'b', 'c', 'd'], durationsMs: [1, 1, 1, 1], fingerprints: [null, MOVED, null, 'xyz'] }] }, 'suites[0].fingerprints[3]'],
    ['a suite\'s list of another length', { suites: [{ module: ':app', suite: NEW, tests: [{ name: 'a', durationMs: 1 }], fingerprints: [null, null] }] }, 'suites[0].fingerprints'],
  ])('refuses %s in a verdict request with a 400 naming the field', async (_what, body, field) => {
    const res = await call('POST', `/api/v1/projects/${p.handle}/verdict`, p.token, body);
    expect([res.status, res.body!.error.field]).toEqual([400, field]);
    expect(res.body!.error.message.startsWith(`${field}: `)).toBe(true);
  });

  it('refuses a malformed fingerprint in a run upload with a 400 naming the field', async () => {
    const res = await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, run('bad-fp', [], { testCases: [tc(OLD, 'x', 'nothex'.padEnd(32, 'z'))] }));
    expect([res.status, res.body!.error.field]).toEqual([400, 'testCases[0].fingerprint']);
  });

  describe('a gate upload with origins, a diff analysis and renamed tests', () => {
    const reps = (fails: number[] = []) => Array.from({ length: 10 }, (_, i) => ({ repetition: i + 1, status: fails.includes(i + 1) ? 'failure' : 'success', durationMs: 30 }));
    const gate = (over: Record<string, unknown> = {}) => ({
      mode: 'report', outcome: 'passed', candidatesExamined: 3, stressed: 3, excluded: 0, guard: null, blocked: false, wouldHaveBlocked: false,
      diff: { status: 'analysed', why: null, base: 'abc123', added: 1, modified: 1 },
      renamed: [{ module: ':app', suite: NEW, name: 'adds', from: { module: ':app', suite: OLD, name: 'adds' } }],
      testCases: [
        { module: ':app', suite: OLD, name: 'keeps', origin: 'modified', outcome: 'passed', repetitions: reps() },
        { module: ':app', suite: NEW, name: 'fresh', outcome: 'passed', repetitions: reps() },
        { module: ':app', suite: NEW, name: 'added<b>', origin: 'diff', outcome: 'passed', repetitions: reps() },
      ],
      ...over,
    });
    const upload = async (runId: string, body: unknown) => {
      const names = ['keeps', 'fresh', 'added<b>', 'adds'];
      const r = run(runId, [], { branch: 'feature/diff', testCases: names.map((n) => tc(n === 'keeps' ? OLD : NEW, n, null)) });
      expect((await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, r)).status).toBe(201);
      return call('POST', `/api/v1/projects/${p.handle}/runs/${runId}/gate`, p.token, body);
    };
    const signedIn = async (path: string) => {
      const signIn = await app.request('/sign-in', { method: 'POST', headers: { Origin: 'http://localhost', 'Content-Type': 'application/x-www-form-urlencoded' }, body: `credential=${encodeURIComponent(p.admin)}` });
      const res = await app.request(path, { headers: { Cookie: signIn.headers.get('set-cookie')!.split(';')[0]! } });
      expect(res.status).toBe(200);
      return res.text();
    };

    beforeAll(async () => {
      expect((await upload('mr-diff', gate())).status).toBe(201);
      // Retried: recorded once.
      expect((await call('POST', `/api/v1/projects/${p.handle}/runs/mr-diff/gate`, p.token, gate())).status).toBe(201);
      expect((await upload('mr-skipped', gate({ diff: { status: 'skipped', why: 'the clone is shallow and the merge base could not be fetched (depth 1)', base: null }, renamed: [], testCases: [{ module: ':app', suite: NEW, name: 'fresh', outcome: 'passed', repetitions: reps() }] }))).status).toBe(201);
    });

    it('stores each origin other than new, the diff and the renamed tests once', async () => {
      const scope = sql`project_id = ${uuid(p.projectId)} AND run_id = 'mr-diff'`;
      const origins = await t.db.engine.query<Record<string, unknown>>(sql`SELECT toString(origin) AS kind FROM ${t.db.t('gate_candidate_origins')} FINAL WHERE ${scope} ORDER BY kind`);
      expect(origins.map((r) => r['kind'])).toEqual(['diff', 'modified']);
      const diffs = await t.db.engine.query<Record<string, unknown>>(sql`SELECT toString(status) AS state, base, added, modified, modified_tests_block FROM ${t.db.t('gate_diffs')} FINAL WHERE ${scope}`);
      expect(diffs.map((r) => [r['state'], r['base'], Number(r['added']), Number(r['modified']), Number(r['modified_tests_block'])])).toEqual([['analysed', 'abc123', 1, 1, 0]]);
      const renamed = await t.db.engine.query<Record<string, unknown>>(sql`SELECT name, from_suite, toString(from_test_case_id) AS from_id FROM ${t.db.t('gate_renamed')} FINAL WHERE ${scope}`);
      expect(renamed).toEqual([{ name: 'adds', from_suite: OLD, from_id: testCaseId(p.projectId, { module: ':app', suite: OLD, name: 'adds' }) }]);
    });

    it("gives them in the run's JSON", async () => {
      const page = (await call('GET', `/api/v1/projects/${p.handle}/runs/mr-diff`, p.token)).body!;
      expect(Object.fromEntries(page.gate.candidates.map((c: any) => [c.name, c.origin]))).toEqual({ keeps: 'modified', fresh: 'new', 'added<b>': 'diff' });
      expect(page.gate.diff).toEqual({ status: 'analysed', why: null, base: 'abc123', added: 1, modified: 1, modifiedTestsBlock: false });
      expect(page.gate.renamed).toEqual([expect.objectContaining({ suite: NEW, name: 'adds', from: expect.objectContaining({ suite: OLD, name: 'adds' }) })]);
      expect(page.gate.renamedCount).toBe(1);
    });

    it('shows them on the run page, escaped', async () => {
      const html = await signedIn(`/projects/${p.handle}/runs/mr-diff`);
      expect(html).toContain('<span class="badge info" data-origin="modified">modified</span>');
      expect(html).toContain('<span class="badge info" data-origin="diff">new (from the diff)</span>');
      expect(html).not.toContain('data-origin="new"');
      expect(html).toContain('NewTest.added&lt;b&gt;');
      expect(html).not.toContain('added<b>');
      expect(html).toMatch(/NewTest\.adds<\/a> — renamed from <a [^>]*>com\.example\.OldTest\.adds<\/a>, not stressed/);
      expect(html).toContain('analysed against abc123: 1 test method added, 1 modified');
      const skipped = await signedIn(`/projects/${p.handle}/runs/mr-skipped`);
      expect(skipped).toContain('Modified and renamed test detection was skipped: the clone is shallow and the merge base could not be fetched (depth 1).');
    });

    it('shows them in the run report', async () => {
      const md = (await call('GET', `/api/v1/projects/${p.handle}/runs/mr-diff/report.md`, p.token)).body!.text as string;
      expect(md).toContain('### Modified and renamed tests');
      expect(md).toContain("- `com.example.OldTest.keeps` (`:app`): modified, stressed (reported only: the project's setting).");
      expect(md).toContain('- `com.example.NewTest.added<b>` (`:app`): new (from the diff), stressed.');
      expect(md).toContain('- `com.example.NewTest.adds` — renamed from `com.example.OldTest.adds`, not stressed.');
      expect(md).not.toContain('`com.example.NewTest.fresh` (');
      const skipped = (await call('GET', `/api/v1/projects/${p.handle}/runs/mr-skipped/report.md`, p.token)).body!.text as string;
      expect(skipped).toContain('Modified and renamed test detection was skipped: the clone is shallow and the merge base could not be fetched (depth 1).');
    });

    it.each([
      ['a modified test case without a diff', (g: any) => ({ ...g, diff: null }), 'testCases[0].origin'],
      ['a modified test case with the analysis skipped', (g: any) => ({ ...g, diff: { ...g.diff, status: 'skipped', why: 'no git' } }), 'testCases[0].origin'],
      ['a skipped analysis without why', (g: any) => ({ ...g, diff: { ...g.diff, status: 'skipped' } }), 'diff.why'],
      ['an unknown origin', (g: any) => ({ ...g, testCases: [{ ...g.testCases[0], origin: 'moved' }] }), 'testCases[0].origin'],
      ['an unknown diff status', (g: any) => ({ ...g, diff: { ...g.diff, status: 'maybe' } }), 'diff.status'],
      ['a why past its bound', (g: any) => ({ ...g, diff: { ...g.diff, why: 'w'.repeat(1025) } }), 'diff.why'],
      ['a renamed test among the candidates', (g: any) => ({ ...g, renamed: [{ module: ':app', suite: NEW, name: 'fresh', from: { module: ':app', suite: OLD, name: 'x' } }] }), 'renamed[0]'],
      ['a test renamed from itself', (g: any) => ({ ...g, renamed: [{ module: ':app', suite: NEW, name: 'adds', from: { module: ':app', suite: NEW, name: 'adds' } }] }), 'renamed[0].from'],
      ['a renamed test without its source', (g: any) => ({ ...g, renamed: [{ module: ':app', suite: NEW, name: 'adds' }] }), 'renamed[0].from'],
      ['more renamed tests than the bound', (g: any) => ({ ...g, renamed: Array.from({ length: 1001 }, (_, i) => ({ module: ':app', suite: NEW, name: `r${i}`, from: { module: ':app', suite: OLD, name: `o${i}` } })) }), 'renamed'],
    ])('refuses %s with a 400 naming the field, and claims nothing', async (what, broken, field) => {
      const runId = `bad-${what.replace(/[^a-z0-9]/gi, '-')}`;
      const res = await upload(runId, broken(gate()));
      expect([res.status, res.body!.error.field]).toEqual([400, field]);
      expect(res.body!.error.message.startsWith(`${field}: `)).toBe(true);
      expect((await call('POST', `/api/v1/projects/${p.handle}/runs/${runId}/gate`, p.token, gate())).status).toBe(201);
    });
  });

  it('stores modifiedTestsBlock, audits it, gives it in the verdict, and records it with the next gate', async () => {
    const settings = async () => (await call('GET', `/api/v1/projects/${p.handle}/settings`, p.admin)).body!.stress.modifiedTestsBlock;
    const inVerdict = async () => (await verdictOf({ testCases: [posted(NEW, 'any')] })).parameters.modifiedTestsBlock;
    const stored = async () => (await listProjectsOfAccount(t.db, p.accountId))[0]!.stress.modifiedTestsBlock;
    const patch = (stress: Record<string, unknown>) => call('PATCH', `/api/v1/projects/${p.handle}/settings`, p.admin, { stress });
    expect([await settings(), await inVerdict(), await stored()]).toEqual([false, false, false]);
    const on = await patch({ modifiedTestsBlock: true });
    expect([on.status, on.body!.stress.modifiedTestsBlock]).toEqual([200, true]);
    expect([await settings(), await inVerdict(), await stored()]).toEqual([true, true, true]);
    expect((await patch({ candidateCap: 9 })).body!.stress).toMatchObject({ candidateCap: 9, modifiedTestsBlock: true, orderFindingsBlock: true, timingSensitiveBlocks: false });
    const audit = (await call('GET', `/api/v1/projects/${p.handle}/settings/audit`, p.admin)).body!.changes as any[];
    expect(audit.map((c) => [c.before.stress.modifiedTestsBlock, c.after.stress.modifiedTestsBlock])).toEqual([[true, true], [false, true]]);
    const refused = await patch({ modifiedTestsBlock: 'yes' });
    expect([refused.status, refused.body!.error.field]).toEqual([400, 'stress.modifiedTestsBlock']);
    const r = run('mr-blocking', [], { branch: 'feature/y', testCases: [tc(OLD, 'keeps', null)] });
    expect((await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, r)).status).toBe(201);
    const body = { mode: 'enforce', outcome: 'passed', candidatesExamined: 1, stressed: 1, excluded: 0, guard: null, blocked: false, wouldHaveBlocked: false, diff: { status: 'analysed', why: null, base: 'b', added: 0, modified: 1 }, testCases: [{ module: ':app', suite: OLD, name: 'keeps', origin: 'modified', outcome: 'passed', repetitions: [{ repetition: 1, status: 'success', durationMs: 3 }] }] };
    expect((await call('POST', `/api/v1/projects/${p.handle}/runs/mr-blocking/gate`, p.token, body)).status).toBe(201);
    expect((await call('GET', `/api/v1/projects/${p.handle}/runs/mr-blocking`, p.token)).body!.gate.diff.modifiedTestsBlock).toBe(true);
    expect((await patch({ modifiedTestsBlock: false })).body!.stress.modifiedTestsBlock).toBe(false);
    expect([await settings(), await inVerdict(), await stored()]).toEqual([false, false, false]);
  });

  it('reads modifiedTestsBlock as false for a project written before 0043 (no row in project_modified_flags)', async () => {
    const projectId = randomUUID();
    const s = DEFAULT_STRESS_PARAMETERS;
    await t.db.engine.insert(t.db.t('project_stress_flags'), [{ project_id: projectId, timing_sensitive_blocks: 1, version: 1 }]);
    await t.db.engine.insert(t.db.t('project_order_flags'), [{ project_id: projectId, order_findings_report_only: 1, version: 1 }]);
    await t.db.engine.insert(t.db.t('projects'), [{
      project_id: projectId, account_id: p.accountId, handle: `old-${kind}`, default_branch: 'main',
      flaky_auto_mark: 1, flaky_auto_mark_threshold: DEFAULT_FLAKY_POLICY.autoMarkThreshold, flaky_cooldown_days: DEFAULT_FLAKY_POLICY.cooldownDays, flaky_auto_quarantine: 0,
      stress_curve: JSON.stringify(s.curve), stress_candidate_cap: 77, stress_ceiling_seconds: s.ceilingSeconds,
      stress_bulk_change_ratio: s.bulkChangeRatio, stress_bulk_change_floor: s.bulkChangeFloor, created_at: formatDateTime(new Date()), version: 1,
    }]);
    expect((await getProject(t.db, projectId))!.stress).toEqual({ ...s, candidateCap: 77, timingSensitiveBlocks: true, orderFindingsBlock: false, modifiedTestsBlock: false });
  });
});
