// The order probe end to end on both real engines: a gate upload whose candidates carry an
// `orderProbe` (two order-dependent ones, a victim and a polluter; one probed clean, one cut, one
// not run) is stored once (migration 0041, gate_candidates' enum untouched) and read back through
// the run's JSON, the run page and the Markdown run report: each finding's role, the other test,
// the order, whether the other test passes alone, the replays, the seed, the failing test's
// evidence and the --run-order command; the headline counts order-dependent tests apart from
// failed ones; a cut or a probe not run is said. The project setting orderFindingsBlock is stored
// (0040), audited and in the verdict; a malformed orderProbe is a 400 naming its field.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { DEFAULT_FLAKY_POLICY, DEFAULT_STRESS_PARAMETERS } from '../../src/contract.js';
import { getProject, listProjectsOfAccount } from '../../src/accounts/projects.js';
import { orderReproduceCommand } from '../../src/reproduce-command.js';
import { formatDateTime, Sql, sql, uuid } from '../../src/sql/bind.js';
import { loadMigrations } from '../../src/storage/migrate.js';
import { bindQuery, loadQueries } from '../../src/telemetry/queries.js';
import { ENGINES, openTestDatabase, type TestDatabase } from '../support/engines.js';
import { type ProjectHandle, ids, run, seedProject, testApp } from '../support/api.js';

const SUITE = 'com.example.CheckoutTest';
const PARTS = { launcher: { kind: 'local' as const }, tool: ['gradle'], buildArgs: ['test'], repetitions: 10 };
const reps = (fails: number[] = [], n = 10) => Array.from({ length: n }, (_, i) => ({ repetition: i + 1, status: fails.includes(i + 1) ? 'failure' : 'success', durationMs: 30 + i }));
const failure = (message: string, at: string) => ({
  repetition: 1, kind: 'failure', type: 'java.lang.AssertionError', message, stackTrace: `java.lang.AssertionError: ${message}\n\tat ${at}`,
  framesOmitted: 3, stdoutTail: 'cart: 2 items', stderrTail: null, durationMs: 40, exitCode: null, signal: null, hsErrFile: null, truncated: false,
});
const CART = { module: ':app', suite: 'com.example.CartTest', name: 'clears' };
const LEDGER = { module: ':ledger', suite: 'com.example.LedgerTest', name: 'sums' };
const probe = (over: Record<string, unknown> = {}) => ({ status: 'probed', why: null, seed: '42', partners: 12, partnersRun: 12, sampledClasses: 3, moduleClasses: 9, findings: [], ...over });
const victim = {
  module: ':app', suite: SUITE, name: 'adds', outcome: 'order_dependent', repetitions: reps(), reproduce: PARTS,
  orderProbe: probe({ findings: [{ role: 'victim', other: CART, otherPassesAlone: null, replays: 3, replayFailures: 3, failure: failure('expected 0 items but was 2', `${SUITE}.adds(CheckoutTest.java:12)`) }] }),
};
const polluter = {
  module: ':app', suite: SUITE, name: 'saves', outcome: 'order_dependent', repetitions: reps(), reproduce: PARTS,
  orderProbe: probe({ findings: [{ role: 'polluter', other: LEDGER, otherPassesAlone: true, replays: 2, replayFailures: 2, failure: failure('ledger not empty', 'com.example.LedgerTest.sums(LedgerTest.java:7)') }] }),
};
const cases = [
  victim,
  polluter,
  { module: ':app', suite: SUITE, name: 'stable', outcome: 'passed', repetitions: reps(), orderProbe: probe() },
  { module: ':app', suite: SUITE, name: 'slow', outcome: 'passed', repetitions: reps(), orderProbe: probe({ status: 'cut', why: 'its budget of 60 s ran out', partnersRun: 4 }) },
  { module: ':app', suite: SUITE, name: 'lonely', outcome: 'passed', repetitions: reps(), orderProbe: probe({ status: 'not_run', why: 'the executor cannot choose an order', partnersRun: 0 }) },
  {
    module: ':app', suite: SUITE, name: 'broken', outcome: 'failed', repetitions: reps([2]), reproduce: PARTS,
    failures: [{ ...failure('boom', `${SUITE}.broken(CheckoutTest.java:30)`), repetition: 2 }],
  },
];
const gateBody = (testCases: unknown[], outcome = 'failed', blocked = true) => ({ mode: 'enforce', outcome, candidatesExamined: testCases.length, stressed: testCases.length, excluded: 0, guard: null, blocked, wouldHaveBlocked: blocked, testCases });

describe.each(ENGINES)('the order probe on %s ClickHouse', (kind) => {
  let t: TestDatabase;
  let app: ReturnType<typeof testApp>['app'];
  let call: ReturnType<typeof testApp>['call'];
  let p: ProjectHandle;
  beforeAll(async () => {
    t = await openTestDatabase(kind);
    ({ app, call } = testApp(t.db));
    p = await seedProject(t.db, `order-${kind}`);
    const upload = run('mr-7', [], { branch: 'feature/order', testCases: cases.map((c) => ({ module: c.module, suite: c.suite, name: c.name, status: 'success' as const, durationMs: 30 })) });
    expect((await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, upload)).status).toBe(201);
    // Posted twice, as a CLI retrying a lost answer does: recorded once.
    for (let i = 0; i < 2; i++) expect((await call('POST', `/api/v1/projects/${p.handle}/runs/mr-7/gate`, p.token, gateBody(cases))).status).toBe(201);
  });
  afterAll(async () => {
    await t.close();
  });

  const signedIn = async (handle: string, admin: string, path: string) => {
    const signIn = await app.request('/sign-in', { method: 'POST', headers: { Origin: 'http://localhost', 'Content-Type': 'application/x-www-form-urlencoded' }, body: `credential=${encodeURIComponent(admin)}` });
    const res = await app.request(path.replace('{p}', handle), { headers: { Cookie: signIn.headers.get('set-cookie')!.split(';')[0]! } });
    expect(res.status).toBe(200);
    return res.text();
  };
  const scope = () => sql`project_id = ${uuid(p.projectId)} AND run_id = 'mr-7'`;

  it('runs 0040 and 0041 a second time without error', async () => {
    for (const m of loadMigrations().filter((x) => x.version >= '0040')) {
      for (const s of m.statements) await t.db.engine.command(new Sql(s.replaceAll('{db}', `\`${t.db.name}\``)));
    }
  });

  it('stores each probe once, keeps gate_candidates.outcome within its enum, and the findings with their evidence', async () => {
    const probes = await t.db.engine.query<Record<string, unknown>>(sql`
      SELECT toString(status) AS state, order_dependent, victims, polluters, order_findings_block, seed FROM ${t.db.t('gate_order_probes')} FINAL WHERE ${scope()} ORDER BY state, order_dependent, victims`);
    expect(probes.map((r) => [r['state'], Number(r['order_dependent']), Number(r['victims']), Number(r['polluters']), Number(r['order_findings_block']), r['seed']])).toEqual([
      ['cut', 0, 0, 0, 1, '42'], ['not_run', 0, 0, 0, 1, '42'], ['probed', 0, 0, 0, 1, '42'], ['probed', 1, 0, 1, 1, '42'], ['probed', 1, 1, 0, 1, '42'],
    ]);
    const findings = await t.db.engine.query<Record<string, unknown>>(sql`
      SELECT toString(role) AS part, other_name, has_other_passes_alone, other_passes_alone, replays, replay_failures, message FROM ${t.db.t('gate_order_findings')} FINAL WHERE ${scope()} ORDER BY part`);
    expect(findings.map((r) => [r['part'], r['other_name'], Number(r['has_other_passes_alone']), Number(r['other_passes_alone']), Number(r['replays']), Number(r['replay_failures']), r['message']])).toEqual([
      ['polluter', 'sums', 1, 1, 2, 2, 'ledger not empty'],
      ['victim', 'clears', 0, 0, 3, 3, 'expected 0 items but was 2'],
    ]);
    const outcomes = await t.db.engine.query<Record<string, unknown>>(sql`SELECT name, toString(outcome) AS result FROM ${t.db.t('gate_candidates')} FINAL WHERE ${scope()} ORDER BY name`);
    expect(Object.fromEntries(outcomes.map((r) => [r['name'], r['result']]))).toMatchObject({ adds: 'passed', saves: 'passed', broken: 'failed' });
    const stats = await t.db.engine.query<Record<string, unknown>>(sql`SELECT name, outcome FROM ${t.db.t('gate_candidate_stats')} FINAL ANY INNER JOIN (SELECT test_case_id, name FROM ${t.db.t('gate_candidates')} FINAL WHERE ${scope()}) AS c USING test_case_id WHERE ${scope()} ORDER BY name`);
    expect(stats.filter((r) => r['outcome'] === 'order_dependent').map((r) => r['name'])).toEqual(['adds', 'saves']);
  });

  it("reads each finding back in the run's JSON, with the order, the evidence and the --run-order command", async () => {
    const page = (await call('GET', `/api/v1/projects/${p.handle}/runs/mr-7`, p.token)).body!;
    const byName = Object.fromEntries(page.gate.candidates.map((c: any) => [c.name, c]));
    const adds = { module: ':app', suite: SUITE, name: 'adds' };
    const saves = { module: ':app', suite: SUITE, name: 'saves' };
    expect(byName.adds.outcome).toBe('order_dependent');
    expect(byName.adds.orderProbe).toMatchObject({ status: 'probed', seed: '42', partners: 12, partnersRun: 12, sampledClasses: 3, moduleClasses: 9, orderDependent: true, findingsBlock: true, findingsOmitted: 0, findingsNotShown: 0 });
    expect(byName.adds.orderProbe.findings).toEqual([expect.objectContaining({
      role: 'victim', other: { ...CART, testCaseId: expect.any(String) }, order: [CART, adds], otherPassesAlone: null, replays: 3, replayFailures: 3,
      failure: expect.objectContaining({ message: 'expected 0 items but was 2', stdoutTail: 'cart: 2 items' }),
      reproduceCommand: orderReproduceCommand(PARTS, [CART, adds]),
    })]);
    expect(byName.adds.orderProbe.findings[0].reproduceCommand).toBe("npx --no stress-orchestrator gradle --run-order ':app com.example.CartTest.clears' --run-order ':app com.example.CheckoutTest.adds' -- test");
    expect(byName.saves.orderProbe.findings[0]).toMatchObject({ role: 'polluter', order: [saves, LEDGER], otherPassesAlone: true, reproduceCommand: orderReproduceCommand(PARTS, [saves, LEDGER]) });
    expect(byName.stable.outcome).toBe('passed');
    expect(byName.slow.orderProbe).toMatchObject({ status: 'cut', why: 'its budget of 60 s ran out', partnersRun: 4 });
    expect(byName.lonely.orderProbe).toMatchObject({ status: 'not_run', why: 'the executor cannot choose an order' });
    expect(byName.broken).toMatchObject({ outcome: 'failed', orderProbe: null });
    // Counted apart: one failed, two order-dependent.
    expect(page.gate.failedCandidates).toEqual({ failed: 1, unmuted: 1 });
    expect(page.gate.orderProbes).toEqual({ orderDependent: 2, blocking: 2, victims: 1, polluters: 1, cut: 1, notRun: 1 });
  });

  it('shows them on the run page: outcome, role, other test, order, replays, seed, evidence, command, and the probes that checked less', async () => {
    const html = await signedIn(p.handle, p.admin, '/projects/{p}/runs/mr-7');
    expect(html).toContain('1 new test disagreed with itself; 2 new tests depend on test order');
    expect(html).toContain('<span class="badge bad">order-dependent</span>');
    expect(html).toContain('victim: it failed right after CartTest.clears ran in its JVM, in 3 of 3 replays of that order, each in a fresh JVM.');
    expect(html).toContain('polluter: LedgerTest.sums failed right after it ran in the same JVM, in 2 of 2 replays of that order, each in a fresh JVM; LedgerTest.sums passes alone.');
    expect(html).toContain('CartTest.clears, then CheckoutTest.adds (one JVM)');
    expect(html).toContain('CheckoutTest.saves, then LedgerTest.sums (one JVM)');
    expect(html).toContain('<dt>Seed</dt><dd><code>42</code></dd>');
    expect(html).toContain('expected 0 items but was 2');
    expect(html).toContain('--run-order &#39;:app com.example.CartTest.clears&#39; --run-order &#39;:app com.example.CheckoutTest.adds&#39;');
    expect(html).toContain('order probe cut: its budget or the wall-clock ceiling stopped it after 4 of 12 other tests');
    expect(html).toContain('order probe not run: the executor cannot choose an order; its order dependence was not checked');
    expect(html).toContain('2 new tests order-dependent (1 finding as victim, 1 as polluter), 2 blocking; cut by its budget or the ceiling for 1 candidate; not run for 1 candidate');
  });

  it('shows them in the run report as their own section, with the evidence and the command', async () => {
    const md = (await call('GET', `/api/v1/projects/${p.handle}/runs/mr-7/report.md`, p.token)).body!.text as string;
    expect(md).toContain('### Order-dependent tests');
    expect(md).toContain('2 new tests passed every repetition alone but depend on test order');
    expect(md).toContain('| `com.example.CheckoutTest.adds` | `:app` | victim of `CartTest.clears` | `CartTest.clears`, then `CheckoutTest.adds` | 3 of 3 | blocked this merge request |');
    expect(md).toContain('| `com.example.CheckoutTest.saves` | `:app` | polluter of `LedgerTest.sums` | `CheckoutTest.saves`, then `LedgerTest.sums` | 2 of 2 | blocked this merge request |');
    expect(md).toContain('Seed `42`.');
    expect(md).toContain('java.lang.AssertionError: ledger not empty');
    expect(md).toContain(`Run the pair in that order:\n\n\`\`\`sh\n${orderReproduceCommand(PARTS, [CART, { module: ':app', suite: SUITE, name: 'adds' }])}\n\`\`\``);
    expect(md).toContain('The order probe checked less for 2 new tests:');
    expect(md).toContain('- `com.example.CheckoutTest.lonely`: order probe not run: the executor cannot choose an order; its order dependence was not checked.');
  });

  it('stores orderFindingsBlock, audits it, gives it in the verdict, and records it with the next gate', async () => {
    const settings = async () => (await call('GET', `/api/v1/projects/${p.handle}/settings`, p.admin)).body!.stress.orderFindingsBlock;
    const inVerdict = async () => (await call('POST', `/api/v1/projects/${p.handle}/verdict`, p.token, { testCases: ids(['new-one']) })).body!.parameters.orderFindingsBlock;
    const stored = async () => (await listProjectsOfAccount(t.db, p.accountId))[0]!.stress.orderFindingsBlock;
    const patch = (stress: Record<string, unknown>) => call('PATCH', `/api/v1/projects/${p.handle}/settings`, p.admin, { stress });
    expect([await settings(), await inVerdict(), await stored()]).toEqual([true, true, true]);
    const off = await patch({ orderFindingsBlock: false });
    expect([off.status, off.body!.stress.orderFindingsBlock]).toEqual([200, false]);
    expect([await settings(), await inVerdict(), await stored()]).toEqual([false, false, false]);
    expect((await patch({ candidateCap: 9 })).body!.stress).toMatchObject({ candidateCap: 9, orderFindingsBlock: false, timingSensitiveBlocks: false });
    const audit = (await call('GET', `/api/v1/projects/${p.handle}/settings/audit`, p.admin)).body!.changes as any[];
    expect(audit.map((c) => [c.before.stress.orderFindingsBlock, c.after.stress.orderFindingsBlock])).toEqual([[false, false], [true, false]]);
    const refused = await patch({ orderFindingsBlock: 'no' });
    expect([refused.status, refused.body!.error.field]).toEqual([400, 'stress.orderFindingsBlock']);

    // A gate recorded while the setting is off: its findings are reported, not blocking.
    const upload = run('mr-8', [], { branch: 'feature/order-2', testCases: [{ module: ':app', suite: SUITE, name: 'adds', status: 'success', durationMs: 30 }] });
    expect((await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, upload)).status).toBe(201);
    expect((await call('POST', `/api/v1/projects/${p.handle}/runs/mr-8/gate`, p.token, gateBody([victim], 'passed', false))).status).toBe(201);
    const html = await signedIn(p.handle, p.admin, '/projects/{p}/runs/mr-8');
    expect(html).toContain("not blocking (the project&#39;s setting makes order findings report-only)");
    expect(html).toContain('1 new test depends on test order (found by the order probe; not blocking: the project&#39;s setting makes order findings report-only).');
    expect((await call('GET', `/api/v1/projects/${p.handle}/runs/mr-8`, p.token)).body!.gate.orderProbes).toMatchObject({ orderDependent: 1, blocking: 0 });

    expect((await patch({ orderFindingsBlock: true })).body!.stress.orderFindingsBlock).toBe(true);
    expect([await settings(), await inVerdict(), await stored()]).toEqual([true, true, true]);
  });

  it('reads orderFindingsBlock as true for a project written before 0040 (no row in project_order_flags)', async () => {
    const projectId = randomUUID();
    const s = DEFAULT_STRESS_PARAMETERS;
    await t.db.engine.insert(t.db.t('project_stress_flags'), [{ project_id: projectId, timing_sensitive_blocks: 1, version: 1 }]);
    await t.db.engine.insert(t.db.t('projects'), [{
      project_id: projectId, account_id: p.accountId, handle: `old-${kind}`, default_branch: 'main',
      flaky_auto_mark: 1, flaky_auto_mark_threshold: DEFAULT_FLAKY_POLICY.autoMarkThreshold, flaky_cooldown_days: DEFAULT_FLAKY_POLICY.cooldownDays, flaky_auto_quarantine: 0,
      stress_curve: JSON.stringify(s.curve), stress_candidate_cap: 77, stress_ceiling_seconds: s.ceilingSeconds,
      stress_bulk_change_ratio: s.bulkChangeRatio, stress_bulk_change_floor: s.bulkChangeFloor, created_at: formatDateTime(new Date()), version: 1,
    }]);
    expect((await getProject(t.db, projectId))!.stress).toEqual({ ...s, candidateCap: 77, timingSensitiveBlocks: true, orderFindingsBlock: true });
  });

  it.each([
    ['a seed that is not a number', (c: any) => ({ ...c, orderProbe: { ...c.orderProbe, seed: 'abc' } }), 'testCases[0].orderProbe.seed'],
    ['an unknown status', (c: any) => ({ ...c, orderProbe: { ...c.orderProbe, status: 'maybe' } }), 'testCases[0].orderProbe.status'],
    ['six findings', (c: any) => ({ ...c, orderProbe: { ...c.orderProbe, findings: Array(6).fill(c.orderProbe.findings[0]) } }), 'testCases[0].orderProbe.findings'],
    ['an unknown role', (c: any) => ({ ...c, orderProbe: { ...c.orderProbe, findings: [{ ...c.orderProbe.findings[0], role: 'bystander' }] } }), 'testCases[0].orderProbe.findings[0].role'],
    ['order_dependent without findings', (c: any) => ({ ...c, orderProbe: { ...c.orderProbe, findings: [] } }), 'testCases[0].orderProbe'],
    ['order_dependent without a probe', (c: any) => ({ ...c, orderProbe: null }), 'testCases[0].orderProbe'],
    ['findings on a passed test case', (c: any) => ({ ...c, outcome: 'passed' }), 'testCases[0].orderProbe'],
    ['a failed repetition of an order_dependent one', (c: any) => ({ ...c, repetitions: reps([4]) }), 'testCases[0].repetitions[3]'],
    ['more replays failed than ran', (c: any) => ({ ...c, orderProbe: { ...c.orderProbe, findings: [{ ...c.orderProbe.findings[0], replayFailures: 4 }] } }), 'testCases[0].orderProbe.findings[0].replayFailures'],
    ['a victim with otherPassesAlone', (c: any) => ({ ...c, orderProbe: { ...c.orderProbe, findings: [{ ...c.orderProbe.findings[0], otherPassesAlone: true }] } }), 'testCases[0].orderProbe.findings[0].otherPassesAlone'],
  ])('refuses %s with a 400 naming the field, and claims nothing', async (what, broken, field) => {
    const runId = `bad-${what.replace(/[^a-z0-9]/gi, '-')}`;
    const upload = run(runId, [], { branch: 'feature/bad', testCases: [{ module: ':app', suite: SUITE, name: 'adds', status: 'success', durationMs: 30 }] });
    expect((await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, upload)).status).toBe(201);
    const res = await call('POST', `/api/v1/projects/${p.handle}/runs/${runId}/gate`, p.token, gateBody([broken(victim)]));
    expect([res.status, res.body!.error.field]).toEqual([400, field]);
    expect(res.body!.error.message.startsWith(`${field}: `)).toBe(true);
    // Nothing claimed: the valid gate is taken afterwards.
    expect((await call('POST', `/api/v1/projects/${p.handle}/runs/${runId}/gate`, p.token, gateBody([victim]))).status).toBe(201);
  });

  it("counts order findings per day apart in telemetry (order-findings-per-day), merge requests only", async () => {
    const query = loadQueries().find((q) => q.name === 'order-findings-per-day')!;
    const rows = await t.db.engine.query<Record<string, unknown>>(bindQuery(query, t.db.name, { projectId: p.projectId, defaultBranch: 'main' }));
    const total = rows.find((r) => r['day'] === 'total')!;
    // mr-7 (5 probes), mr-8 (1, setting off) and the ten refused-then-accepted gates (1 each, setting on).
    expect(['order_dependent_tests', 'blocking', 'victim_findings', 'polluter_findings', 'probed', 'cut', 'not_run'].map((k) => Number(total[k]))).toEqual([13, 12, 12, 1, 14, 1, 1]);
    expect(total['project']).toBe(p.handle);
  });
});
