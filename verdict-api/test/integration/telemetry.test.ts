// The telemetry queries on both real engines, against a small dataset whose answers are worked
// out by hand below (3 projects, 7 gate uploads, 5 verdicts); and the ingestion that feeds them.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createAccount } from '../../src/accounts/accounts.js';
import { createProject, type Project } from '../../src/accounts/projects.js';
import { createApp } from '../../src/http/app.js';
import { testCaseId } from '../../src/identity/test-case-id.js';
import { silentLogger } from '../../src/log/logger.js';
import { sql, uuid } from '../../src/sql/bind.js';
import { num } from '../../src/storage/database.js';
import { formatAnswers } from '../../src/telemetry/format-table.js';
import { candidateStatsRow, gateTimingRow } from '../../src/telemetry/gate-telemetry.js';
import { loadQueries, runTelemetry, type TelemetryFilter } from '../../src/telemetry/queries.js';
import { batchedVerdictLog } from '../../src/telemetry/verdict-log.js';
import { ids, run, seedProject, testApp } from '../support/api.js';
import { ENGINES, openTestDatabase, type TestDatabase } from '../support/engines.js';

type Rep = { repetition: number; status: 'success' | 'failure'; durationMs: number };
const reps = (n: number, failAt: number[] = []): Rep[] => Array.from({ length: n }, (_, i) => ({ repetition: i + 1, status: failAt.includes(i + 1) ? 'failure' : 'success', durationMs: 5 }));

interface Cand { name: string; outcome: 'passed' | 'failed' | 'not_stressed'; planned: number; reps: Rep[] }
interface Gate {
  project: Project;
  runId: string;
  shard?: number;
  commit: string;
  at: string;
  mode: 'report' | 'enforce';
  outcome: string;
  guard?: { name: string; count: number };
  examined: number;
  blocked?: boolean;
  wouldHaveBlocked?: boolean;
  timing: { wallClockMs: number | null; predictedMs: number; jvmStartMs: number; cut: boolean } | null;
  candidates: Cand[];
}

describe.each(ENGINES)('telemetry queries on %s ClickHouse', (kind) => {
  let t: TestDatabase;
  let alpha: Project;
  let beta: Project;
  let gamma: Project;

  const answer = async (name: string, filter: TelemetryFilter = {}) => {
    const queries = loadQueries().filter((q) => q.name === name);
    expect(queries).toHaveLength(1);
    const [a] = await runTelemetry(t.db, filter, queries);
    expect(a!.error).toBeNull();
    // 18.16 sends 64-bit integers as strings: compare numbers as numbers.
    return a!.rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v])));
  };

  const gate = async (g: Gate) => {
    const key = { project_id: g.project.projectId, run_id: g.runId, shard_index: g.shard ?? 0 };
    const at = g.at;
    await t.db.engine.insert(t.db.t('test_runs'), [
      { ...key, shard_total: 1, git_branch: 'feature', git_commit: g.commit, is_ci: 1, status: 'success', duration_ms: 1000, started_at: at, ingested_at: at, test_case_count: 10, new_test_case_count: g.candidates.length },
    ]);
    await t.db.engine.insert(t.db.t('gate_verdicts'), [
      { ...key, mode: g.mode, outcome: g.outcome, candidates_examined: g.examined, stressed: g.candidates.filter((c) => c.outcome !== 'not_stressed').length, excluded: 0, not_stressed: 0, guard_name: g.guard?.name ?? '', guard_count: g.guard?.count ?? 0, guard_reason: '', blocked: g.blocked ? 1 : 0, would_have_blocked: g.wouldHaveBlocked ? 1 : 0, recorded_at: at },
    ]);
    await t.db.engine.insert(t.db.t('gate_timings'), [gateTimingRow(key, g.timing, at)]);
    const rows = g.candidates.map((c) => {
      const identity = { module: ':app', suite: 'S', name: c.name };
      const id = testCaseId(g.project.projectId, identity);
      const upload = { ...identity, muted: false, outcome: c.outcome, durationMs: 12, plannedRepetitions: c.planned, repetitions: c.reps };
      return { id, identity, stats: candidateStatsRow(key, id, upload, at), outcome: c.outcome };
    });
    await t.db.engine.insert(t.db.t('gate_candidate_stats'), rows.map((r) => r.stats));
    await t.db.engine.insert(t.db.t('gate_candidates'), rows.map((r) => ({ ...key, test_case_id: r.id, ...r.identity, muted: 0, outcome: r.outcome, recorded_at: at })));
  };

  const verdictLog = async (p: Project, at: string, seq: number, v: { inventory: number; newCount: number; stressable?: number; branch?: boolean; premise?: boolean; bulk?: boolean; cap?: boolean }) => {
    await t.db.engine.insert(t.db.t('verdict_log'), [
      {
        project_id: p.projectId, requested_at: at, seq, run_id: `r${seq}`, mode: 'report', entitled: 1, has_default_branch: v.branch === false ? 0 : 1,
        inventory: v.inventory, posted: v.inventory + v.newCount, new_count: v.newCount, stressable: v.stressable ?? v.newCount, excluded: 0,
        premise_fired: v.premise ? 1 : 0, premise_reason: v.premise ? 'no_default_branch' : '', bulk_change_fired: v.bulk ? 1 : 0, candidate_cap_fired: v.cap ? 1 : 0,
        bulk_change_ratio: 0.3, bulk_change_floor: 50, candidate_cap: 200, ceiling_seconds: 600,
      },
    ]);
  };

  beforeAll(async () => {
    t = await openTestDatabase(kind);
    const account = await createAccount(t.db, 'Telemetry', true);
    const project = (handle: string) => createProject(t.db, { accountId: account.accountId, handle, defaultBranch: 'main' });
    [alpha, beta, gamma] = await Promise.all([project('alpha'), project('beta'), project('gamma')]);
    const timing = (wallClockMs: number | null, predictedMs: number, cut = false) => ({ wallClockMs, predictedMs, jvmStartMs: 600, cut });

    // Verdicts: inventories alpha 90 then 100 (latest wins), beta 40, gamma 300; beta once without a default branch.
    await verdictLog(alpha, '2026-11-03 09:00:00', 1, { inventory: 90, newCount: 2 });
    await verdictLog(alpha, '2026-11-04 09:00:00', 2, { inventory: 100, newCount: 60, bulk: true });
    await verdictLog(beta, '2026-11-05 09:00:00', 3, { inventory: 40, newCount: 0 });
    await verdictLog(beta, '2026-11-06 09:00:00', 4, { inventory: 0, newCount: 3, branch: false, premise: true });
    await verdictLog(gamma, '2026-11-11 09:00:00', 5, { inventory: 300, newCount: 250, bulk: true, cap: true });
    const durations: [number, number][] = [[4, 10], [5000, 10], [7000, 5], [20_000, 3], [100_000, 2], [400_000, 0]];
    await t.db.engine.insert(t.db.t('verdict_log_candidates'), durations.map(([d, r], i) => ({ project_id: alpha.projectId, requested_at: '2026-11-03 09:00:00', seq: 100 + i, duration_ms: d, repetitions: r })));

    // Gates. alpha: c1 fails t1 (first failure at 3) then passes on a rerun of c1; a week later nothing to stress.
    await gate({ project: alpha, runId: 'A1', commit: 'c1', at: '2026-11-03 10:00:00', mode: 'report', outcome: 'failed', examined: 2, wouldHaveBlocked: true, timing: timing(8000, 10_000), candidates: [{ name: 't1', outcome: 'failed', planned: 10, reps: reps(10, [3, 7]) }, { name: 't2', outcome: 'passed', planned: 10, reps: reps(10) }] });
    await gate({ project: alpha, runId: 'A2', commit: 'c1', at: '2026-11-04 10:00:00', mode: 'report', outcome: 'passed', examined: 1, timing: timing(6000, 6000), candidates: [{ name: 't1', outcome: 'passed', planned: 10, reps: reps(10) }] });
    await gate({ project: alpha, runId: 'A3', commit: 'c2', at: '2026-11-10 10:00:00', mode: 'report', outcome: 'no_candidates', examined: 0, timing: null, candidates: [] });
    // beta, enforce: t3 (5 repetitions) fails at its first repetition and blocks.
    await gate({ project: beta, runId: 'B1', commit: 'c3', at: '2026-11-05 10:00:00', mode: 'enforce', outcome: 'failed', examined: 1, blocked: true, wouldHaveBlocked: true, timing: timing(20_000, 16_000), candidates: [{ name: 't3', outcome: 'failed', planned: 5, reps: reps(5, [1]) }] });
    // gamma: the ceiling refuses 40 candidates; then a two-shard run whose second shard the ceiling cuts.
    await gate({ project: gamma, runId: 'G1', commit: 'c4', at: '2026-11-11 10:00:00', mode: 'report', outcome: 'guarded', guard: { name: 'ceiling', count: 40 }, examined: 40, timing: timing(null, 700_000), candidates: [] });
    await gate({ project: gamma, runId: 'G2', shard: 0, commit: 'c5', at: '2026-11-12 10:00:00', mode: 'report', outcome: 'passed', examined: 1, timing: timing(4000, 5000), candidates: [{ name: 't4', outcome: 'passed', planned: 10, reps: reps(10) }] });
    await gate({ project: gamma, runId: 'G2', shard: 1, commit: 'c5', at: '2026-11-12 10:00:00', mode: 'report', outcome: 'incomplete', examined: 1, timing: timing(600_000, 500_000, true), candidates: [{ name: 't5', outcome: 'not_stressed', planned: 10, reps: reps(4) }] });
  });
  afterAll(async () => {
    await t.close();
  });

  it('loads every query file with its question, the parameter it tunes and how to read it', () => {
    const queries = loadQueries();
    expect(queries.map((q) => q.name)).toEqual([
      'blocked-then-passed-on-rerun',
      'candidate-durations-by-bucket',
      'catch-rate-by-repetition',
      'ceiling-bites',
      'diff-per-day',
      'gate-time-per-merge-request',
      'guard-firing',
      'inventory-percentiles',
      'order-findings-per-day',
      'ramp-per-day',
    ]);
    for (const q of queries) for (const h of [q.question, q.tunes, q.read]) expect(h.length).toBeGreaterThan(10);
  });

  it('spreads candidate durations over the curve buckets, with the excluded share', async () => {
    expect(await answer('candidate-durations-by-bucket')).toEqual([
      { bucket: '1 <=5s (10)', candidates: 2, share: 0.3333, p50_ms: 5000, p90_ms: 5000, excluded_by_curve: 0 },
      { bucket: '2 <10s (5)', candidates: 1, share: 0.1667, p50_ms: 7000, p90_ms: 7000, excluded_by_curve: 0 },
      { bucket: '3 <30s (3)', candidates: 1, share: 0.1667, p50_ms: 20000, p90_ms: 20000, excluded_by_curve: 0 },
      { bucket: '4 <5m (2)', candidates: 1, share: 0.1667, p50_ms: 100000, p90_ms: 100000, excluded_by_curve: 0 },
      { bucket: '5 excluded', candidates: 1, share: 0.1667, p50_ms: 400000, p90_ms: 400000, excluded_by_curve: 1 },
    ]);
  });

  it('gives inventory percentiles over projects (latest inventory each), and for one project', async () => {
    // quantileExact takes element floor(level × n) of the sorted values: [40, 100, 300].
    expect(await answer('inventory-percentiles')).toEqual([{ projects: 3, p25: 40, p50: 100, p75: 300, p90: 300, max: 300, under_100: 1, ratio_x_p50: 30 }]);
    expect(await answer('inventory-percentiles', { projectId: alpha.projectId })).toEqual([{ projects: 1, p25: 100, p50: 100, p75: 100, p90: 100, max: 100, under_100: 0, ratio_x_p50: 30 }]);
  });

  it('counts how often each guard fires and at what counts', async () => {
    expect(await answer('guard-firing')).toEqual([
      { guard: '1 premise', of: 'verdicts', fired: 1, share: 0.2, p50_count: 3, max_count: 3 },
      { guard: '2 bulk_change', of: 'verdicts', fired: 2, share: 0.4, p50_count: 250, max_count: 250 },
      { guard: '3 candidate_cap', of: 'verdicts', fired: 1, share: 0.2, p50_count: 250, max_count: 250 },
      { guard: '4 ceiling', of: 'gate uploads', fired: 1, share: 0.1429, p50_count: 40, max_count: 40 },
    ]);
  });

  it('gives the catch rate and the repetition of the first failure', async () => {
    const rows = await answer('catch-rate-by-repetition');
    // Top bucket: t1 (A1, failed first at 3), t2, t1 (A2), t4 passed; t5 was cut, not stressed.
    expect(rows.filter((r) => r['planned'] === 10).map((r) => [r['k'], r['stressed'], r['caught'], r['catch_rate'], r['caught_within_k'], r['share_within_k']])).toEqual([
      [1, 4, 1, 0.25, 0, 0],
      [2, 4, 1, 0.25, 0, 0],
      [3, 4, 1, 0.25, 1, 1],
      [5, 4, 1, 0.25, 1, 1],
      [10, 4, 1, 0.25, 1, 1],
    ]);
    expect(rows.filter((r) => r['planned'] === 5).map((r) => [r['k'], r['stressed'], r['caught'], r['share_within_k']])).toEqual([
      [1, 1, 1, 1],
      [2, 1, 1, 1],
      [3, 1, 1, 1],
      [5, 1, 1, 1],
    ]);
  });

  it('gives the time the gate adds per merge request (p50, p90, p99), the longest shard per run', async () => {
    // Every gated run: [0 (A3), 0 (G1), 6, 8, 20, 600] s; with a pass: [6, 8, 20, 600] s.
    expect(await answer('gate-time-per-merge-request')).toEqual([
      { runs: '1 every gated run', n: 6, p50_s: 8, p90_s: 600, p99_s: 600, max_s: 600 },
      { runs: '2 runs with a stress pass', n: 4, p50_s: 20, p90_s: 600, p99_s: 600, max_s: 600 },
    ]);
    expect((await answer('gate-time-per-merge-request', { since: new Date('2026-11-09T00:00:00Z') }))[0]).toMatchObject({ n: 3 });
  });

  it('says how often the ceiling bites and how the prediction compares with the wall clock', async () => {
    // 6 uploads with candidates; G1 refused, G2 shard 1 cut; actual/predicted of uncut passes 0.8, 0.8, 1.0, 1.25.
    expect(await answer('ceiling-bites')).toEqual([{ uploads_with_candidates: 6, refused: 1, cut: 1, bite_rate: 0.3333, actual_over_predicted: 1, jvm_start_ms_p50: 600 }]);
  });

  it('gives the ramp per project and day, and the period’s total: merge requests, runs, would have blocked in either mode', async () => {
    const row = (project: string, day: string, merge_requests: number, runs: number, would_have_blocked: number, candidates_stressed: number, guards_fired: number, added_ms: number) =>
      ({ project, day, merge_requests, runs, would_have_blocked, candidates_stressed, guards_fired, added_ms });
    expect(await answer('ramp-per-day')).toEqual([
      row('alpha', '2026-11-03', 1, 1, 1, 2, 0, 8000),
      row('alpha', '2026-11-04', 1, 1, 0, 1, 0, 6000),
      row('alpha', '2026-11-10', 1, 1, 0, 0, 0, 0),
      // One branch, three runs: one merge request.
      row('alpha', 'total', 1, 3, 1, 3, 0, 14000),
      // Enforce mode: the run that blocked counts as would have blocked, as in report mode.
      row('beta', '2026-11-05', 1, 1, 1, 1, 0, 20000),
      row('beta', 'total', 1, 1, 1, 1, 0, 20000),
      row('gamma', '2026-11-11', 1, 1, 0, 0, 1, 0),
      // Two shards, one run.
      row('gamma', '2026-11-12', 1, 1, 0, 1, 0, 604000),
      row('gamma', 'total', 1, 2, 0, 1, 1, 604000),
    ]);
    expect((await answer('ramp-per-day', { projectId: gamma.projectId })).map((r) => r['project'])).toEqual(['gamma', 'gamma', 'gamma']);
    expect((await answer('ramp-per-day', { since: new Date('2026-11-10T00:00:00Z') })).filter((r) => r['day'] === 'total').map((r) => [r['project'], r['runs']])).toEqual([['alpha', 1], ['gamma', 2]]);
  });

  it('lists candidates that blocked and then passed a rerun of the same commit', async () => {
    expect(await answer('blocked-then-passed-on-rerun')).toEqual([{ project: 'alpha', commit: 'c1', test: ':app S.t1', failed_runs: 1, passed_runs: 1 }]);
  });

  it('prints every answer as an aligned table', async () => {
    const text = formatAnswers(await runTelemetry(t.db));
    expect(text).toContain('ceiling-bites: How often does the wall-clock ceiling bite');
    expect(text).toContain('  tunes: stress.ceilingSeconds');
    expect(text).not.toContain('error:');
  });
});

describe.each(ENGINES)('telemetry ingestion on %s ClickHouse', (kind) => {
  let t: TestDatabase;
  let call: ReturnType<typeof testApp>['call'];
  beforeAll(async () => {
    t = await openTestDatabase(kind);
    call = testApp(t.db).call;
  });
  afterAll(async () => {
    await t.close();
  });

  it('logs every verdict at verdict time, and records the gate upload\'s timing and per-candidate stats', async () => {
    const p = await seedProject(t.db, `ingest-${kind}`);
    expect((await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, run('main-1', ['a', 'b']))).status).toBe(201);
    const v = await call('POST', `/api/v1/projects/${p.handle}/verdict`, p.token, { runId: 'mr-1', mode: 'report', testCases: ids(['a', 'b', 'new-1', 'new-2'], 12) });
    expect(v.status).toBe(200);
    const scope = sql`project_id = ${uuid(v.body!.projectId)}`;
    const [log] = await t.db.engine.query<Record<string, unknown>>(sql`SELECT run_id, mode, entitled, inventory, posted, new_count, stressable FROM ${t.db.t('verdict_log')} WHERE ${scope}`);
    expect({ ...log, entitled: num(log!['entitled']), inventory: num(log!['inventory']), posted: num(log!['posted']), new_count: num(log!['new_count']), stressable: num(log!['stressable']) }).toEqual({ run_id: 'mr-1', mode: 'report', entitled: 1, inventory: 2, posted: 4, new_count: 2, stressable: 2 });
    const durations = await t.db.engine.query<Record<string, unknown>>(sql`SELECT duration_ms, repetitions FROM ${t.db.t('verdict_log_candidates')} WHERE ${scope}`);
    expect(durations.map((d) => [num(d['duration_ms']), num(d['repetitions'])])).toEqual([[12, 10], [12, 10]]);

    // An old client (no timing, no durations) still validates; a new one records everything.
    const base = { mode: 'report', outcome: 'failed', candidatesExamined: 1, stressed: 1, excluded: 0, guard: null, blocked: false, wouldHaveBlocked: true };
    const cand = { module: ':app', suite: 'com.example.CheckoutTest', name: 'new-1', outcome: 'failed', repetitions: reps(10, [4, 9]) };
    expect((await call('POST', `/api/v1/projects/${p.handle}/runs/old-client/gate`, p.token, { ...base, testCases: [cand] })).status).toBe(201);
    const upload = { ...base, timing: { wallClockMs: 7100, predictedMs: 6100, jvmStartMs: 600 }, testCases: [{ ...cand, durationMs: 12, plannedRepetitions: 10 }] };
    expect((await call('POST', `/api/v1/projects/${p.handle}/runs/mr-1/gate`, p.token, upload)).status).toBe(201);
    const timings = await t.db.engine.query<Record<string, unknown>>(sql`SELECT run_id, has_timing, has_pass, wall_clock_ms, predicted_ms, jvm_start_ms, ceiling_cut FROM ${t.db.t('gate_timings')} WHERE ${scope} ORDER BY run_id`);
    expect(timings.map((r) => [r['run_id'], ...['has_timing', 'has_pass', 'wall_clock_ms', 'predicted_ms', 'jvm_start_ms', 'ceiling_cut'].map((k) => num(r[k]))])).toEqual([
      ['mr-1', 1, 1, 7100, 6100, 600, 0],
      ['old-client', 0, 0, 0, 0, 0, 0],
    ]);
    const stats = await t.db.engine.query<Record<string, unknown>>(sql`SELECT run_id, duration_ms, planned_repetitions, repetitions, failures, first_failure_at FROM ${t.db.t('gate_candidate_stats')} WHERE ${scope} ORDER BY run_id`);
    expect(stats.map((r) => [r['run_id'], ...['duration_ms', 'planned_repetitions', 'repetitions', 'failures', 'first_failure_at'].map((k) => num(r[k]))])).toEqual([
      ['mr-1', 12, 10, 10, 2, 4],
      ['old-client', 0, 10, 10, 2, 4],
    ]);
  });

  it('writes the server\'s batched verdict log, encoded, as the rows each verdict gives', async () => {
    const p = await seedProject(t.db, `batched-${kind}`);
    expect((await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, run('main-1', ['a']))).status).toBe(201);
    const verdictLog = batchedVerdictLog(t.db, silentLogger(), 60_000);
    const app = createApp({ db: t.db, log: silentLogger(), ready: async () => {}, verdictLog });
    const post = async (body: unknown) => {
      const res = await app.request(`/api/v1/projects/${p.handle}/verdict`, { method: 'POST', headers: { Authorization: `Bearer ${p.token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      expect(res.status).toBe(200);
    };
    await post({ runId: 'mr-1', mode: 'enforce', testCases: ids(['a', 'new\tone', 'new-2'], 40) });
    await post({ runId: 'mr-2', testCases: ids(['a'], 5) });
    const scope = sql`project_id = ${uuid(p.projectId)}`;
    // Nothing is written before the flush: the rows wait, encoded.
    expect(await t.db.engine.query(sql`SELECT run_id FROM ${t.db.t('verdict_log')} WHERE ${scope}`)).toEqual([]);
    await verdictLog.close();
    const logs = await t.db.engine.query<Record<string, unknown>>(sql`SELECT run_id, mode, posted, new_count, inventory FROM ${t.db.t('verdict_log')} WHERE ${scope} ORDER BY run_id`);
    expect(logs.map((r) => [r['run_id'], r['mode'], num(r['posted']), num(r['new_count']), num(r['inventory'])])).toEqual([
      ['mr-1', 'enforce', 3, 2, 1],
      ['mr-2', '', 1, 0, 1],
    ]);
    const durations = await t.db.engine.query<Record<string, unknown>>(sql`SELECT duration_ms, repetitions FROM ${t.db.t('verdict_log_candidates')} WHERE ${scope}`);
    expect(durations.map((d) => [num(d['duration_ms']), num(d['repetitions'])])).toEqual([[40, 10], [40, 10]]);
  });
});
