// A synthetic fleet for the telemetry queries: 1,000 projects over 90 days of merge requests,
// inserted in bulk (TabSeparated, through the storage layer) into one database. Deterministic
// (seeded PRNG, --seed). Distributions, chosen to match the RFC's fleet figures where it gives them:
//
// - Inventory per project: log-normal, median 209 and p25 57 (sigma 1.93), clipped to 1..50,000.
// - Gated merge-request runs per project and day: log-normal around 1.5 (sigma 1), rounded.
// - A run adds new tests in 20% of runs: 1 + geometric(0.5) of them; 1% of runs are a bulk
//   identity change (a rename: half the inventory plus 20 new, at most 500); projects in their first days
//   have no default-branch history (5% of projects, the first 3 days: the premise guard).
// - Candidate durations: log-normal with median 4 ms and 94% at or under 5 s (sigma 4.58, so
//   p90 is about 1.4 s), priced by the default curve; slower than 5 minutes is excluded.
// - Flakiness of a new test: 92% stable; 8% flaky with a per-execution failure rate log-uniform
//   in 1%..50%. Repetitions are drawn per execution; the first failure is recorded.
// - Projects: 60% entitled (the rest only appear in the verdict log); of the entitled, 70% run
//   in report mode, 30% in enforce.
// - JVM start: the client assumes 600 ms; the real one is log-normal, median 700 ms (sigma 0.3).
//   Wall clock = repetitions × JVM start + Σ repetitions × duration. A prediction over the 10-minute
//   ceiling refuses the pass (guard); a real wall clock over it is cut.
// - 30% of runs that failed the gate are rerun on the same commit.
// Stress repetitions themselves are not written (the queries read per-candidate statistics).
//
// Usage: npm run fleet:generate [-- --projects 1000 --days 90 --seed 1 --database stress_gate --data-dir DIR]
// The data directory defaults to the verdict API's own (STRESS_GATE_DATA_DIR, else the per-user one),
// so `verdict-api telemetry` reads what this wrote.
// With CLICKHOUSE_URL set it writes to that server instead of embedded chDB.
import { randomUUID } from 'node:crypto';
import { DEFAULT_STRESS_PARAMETERS, DEFAULT_FLAKY_POLICY } from '../verdict-api/dist/contract.js';
import { price } from '../verdict-api/dist/contract.js';
import { guards } from '../verdict-api/dist/guard/guards.js';
import { formatDateTime } from '../verdict-api/dist/sql/bind.js';
import { database, type Database, type TableName } from '../verdict-api/dist/storage/database.js';
import { defaultDataDir } from '../verdict-api/dist/config/config.js';
import { openEmbeddedEngine } from '../verdict-api/dist/storage/embedded-engine.js';
import { migrate } from '../verdict-api/dist/storage/migrate.js';
import { openServerEngine } from '../verdict-api/dist/storage/server-engine.js';
import { candidateStatsRow, gateTimingRow } from '../verdict-api/dist/telemetry/gate-telemetry.js';
import { verdictLogRows } from '../verdict-api/dist/telemetry/verdict-log.js';
import { testCaseId } from '../verdict-api/dist/identity/test-case-id.js';
import { flags } from './bench-gradle-common.js';

/** mulberry32: a small seeded PRNG, so a fleet is reproducible. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DAY = 86_400_000;
const P = DEFAULT_STRESS_PARAMETERS;

async function main(): Promise<void> {
  const f = flags(process.argv.slice(2));
  const projects = Number(f.get('projects') ?? 1000);
  const days = Number(f.get('days') ?? 90);
  const rnd = prng(Number(f.get('seed') ?? 1));
  const normal = () => Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
  const logNormal = (median: number, sigma: number) => median * Math.exp(sigma * normal());
  const name = f.get('database') ?? process.env.CLICKHOUSE_DATABASE ?? 'stress_gate';
  const url = process.env.CLICKHOUSE_URL;
  const engine = url ? openServerEngine({ url, requestTimeoutMs: 600_000 }) : openEmbeddedEngine(f.get('data-dir') || process.env.STRESS_GATE_DATA_DIR || defaultDataDir(process.env));
  const db: Database = database(engine, name);
  const t0 = performance.now();
  await migrate(engine, name);

  const buffers = new Map<TableName, Record<string, unknown>[]>();
  let written = 0;
  const flush = async (table: TableName) => {
    const rows = buffers.get(table) ?? [];
    if (rows.length) await engine.insert(db.t(table), rows);
    written += rows.length;
    buffers.set(table, []);
  };
  const put = async (table: TableName, row: Record<string, unknown>) => {
    const rows = buffers.get(table) ?? [];
    rows.push(row);
    buffers.set(table, rows);
    if (rows.length >= 50_000) await flush(table);
  };

  const end = Date.UTC(2026, 10, 30);
  const start = end - days * DAY;
  let seq = 1;
  let runs = 0;
  for (let pi = 0; pi < projects; pi++) {
    const projectId = randomUUID();
    const handle = `fleet-${String(pi).padStart(4, '0')}`;
    const entitled = rnd() < 0.6;
    const mode = rnd() < 0.7 ? 'report' : 'enforce';
    const late = rnd() < 0.05; // onboards during the window: no history for its first 3 days
    const activity = logNormal(1.5, 1);
    let inventory = Math.max(1, Math.min(50_000, Math.round(logNormal(209, 1.93))));
    await put('projects', {
      project_id: projectId, account_id: randomUUID(), handle, default_branch: 'main',
      flaky_auto_mark: 1, flaky_auto_mark_threshold: DEFAULT_FLAKY_POLICY.autoMarkThreshold, flaky_cooldown_days: DEFAULT_FLAKY_POLICY.cooldownDays, flaky_auto_quarantine: 0,
      stress_curve: JSON.stringify(P.curve), stress_candidate_cap: P.candidateCap, stress_ceiling_seconds: P.ceilingSeconds,
      stress_bulk_change_ratio: P.bulkChangeRatio, stress_bulk_change_floor: P.bulkChangeFloor, created_at: formatDateTime(new Date(start)), version: 1,
    });
    for (let d = 0; d < days; d++) {
      const runsToday = Math.round(activity * Math.exp(0.5 * normal()) * (rnd() < 0.3 ? 0 : 1));
      for (let k = 0; k < runsToday; k++) {
        const at = new Date(start + d * DAY + Math.floor(rnd() * DAY));
        const noHistory = late && d < 3;
        const bulk = rnd() < 0.01;
        const newCount = bulk ? Math.min(500, Math.round(inventory / 2) + 20) : rnd() < 0.2 ? 1 + Math.floor(Math.log(1 - rnd()) / Math.log(0.5)) : 0;
        const candidates = Array.from({ length: newCount }, (_, i) => {
          const durationMs = Math.round(Math.min(3_600_000, logNormal(4, 4.58)) * 10) / 10;
          const identity = { module: ':app', suite: `com.fleet.Suite${pi}`, name: `test${runs}_${i}` };
          return { ...identity, testCaseId: testCaseId(projectId, identity), durationMs, ...price(durationMs, P.curve) };
        });
        const stressable = candidates.filter((c) => c.excluded === null);
        const inv = noHistory ? 0 : inventory;
        const verdict = {
          projectId, entitled, defaultBranch: 'main', parameters: P, inventory: inv, posted: inv + newCount, candidates, renamed: [],
          guards: guards({ defaultBranch: 'main', inventory: inv, newCount, stressable: stressable.length, parameters: P }),
        };
        const rows = verdictLogRows(verdict, { runId: `run-${runs}`, mode }, at, seq++);
        await put('verdict_log', rows.log);
        for (const c of rows.candidates) await put('verdict_log_candidates', c);
        const commit = `c${pi}-${runs}`;
        const attempts = [runs];
        for (let attempt = 0; attempt < attempts.length && entitled; attempt++) {
          const runId = `run-${runs}${attempt ? `-rerun${attempt}` : ''}`;
          const runAt = formatDateTime(new Date(at.getTime() + attempt * 3_600_000));
          const key = { project_id: projectId, run_id: runId, shard_index: 0 };
          await put('test_runs', { ...key, shard_total: 1, git_branch: 'feature', git_commit: commit, is_ci: 1, status: 'success', duration_ms: 60_000, started_at: runAt, ingested_at: runAt, test_case_count: inventory, new_test_case_count: newCount });
          const g = verdict.guards;
          const jvmStart = logNormal(700, 0.3);
          const maxReps = stressable.reduce((m, c) => Math.max(m, c.repetitions ?? 0), 0);
          const testsMs = stressable.reduce((n, c) => n + (c.repetitions ?? 0) * c.durationMs, 0);
          const predictedMs = maxReps * 600 + testsMs;
          const serverGuard = g.premise.fired ? 'premise' : g.bulkChange.fired ? 'bulk_change' : g.candidateCap.fired ? 'candidate_cap' : '';
          const guard = serverGuard || (stressable.length && predictedMs > P.ceilingSeconds * 1000 ? 'ceiling' : '');
          const wallMs = maxReps * jvmStart + testsMs;
          const cut = !guard && stressable.length > 0 && wallMs > P.ceilingSeconds * 1000;
          let blocking = false;
          const stats = guard ? [] : stressable.map((c) => {
            const flaky = rnd() < 0.08 ? Math.exp(Math.log(0.01) + rnd() * Math.log(50)) : 0;
            const planned = c.repetitions ?? 0;
            const ran = cut ? Math.floor(planned / 2) : planned;
            const reps = Array.from({ length: ran }, (_, i) => ({ repetition: i + 1, status: (rnd() < flaky ? 'failure' : 'success') as 'failure' | 'success', durationMs: c.durationMs }));
            const failed = reps.some((r) => r.status === 'failure');
            const outcome = failed ? 'failed' : cut ? 'not_stressed' : 'passed';
            if (failed) blocking = true;
            return { c, upload: { module: c.module, suite: c.suite, name: c.name, muted: false, outcome, durationMs: c.durationMs, plannedRepetitions: planned, repetitions: reps } as const };
          });
          for (const s of stats) {
            await put('gate_candidate_stats', candidateStatsRow(key, s.c.testCaseId, s.upload as never, runAt));
            await put('gate_candidates', { ...key, test_case_id: s.c.testCaseId, module: s.c.module, suite: s.c.suite, name: s.c.name, muted: 0, outcome: s.upload.outcome, recorded_at: runAt });
          }
          const outcome = guard ? 'guarded' : newCount === 0 ? 'no_candidates' : blocking ? 'failed' : cut ? 'incomplete' : 'passed';
          await put('gate_verdicts', {
            ...key, mode, outcome, candidates_examined: newCount, stressed: stats.filter((s) => s.upload.outcome !== 'not_stressed').length, excluded: newCount - stressable.length,
            not_stressed: guard ? stressable.length : stats.filter((s) => s.upload.outcome === 'not_stressed').length,
            guard_name: guard, guard_count: guard === 'ceiling' ? stressable.length : guard === 'candidate_cap' ? stressable.length : guard ? newCount : 0, guard_reason: guard ? `${guard} guard` : '',
            blocked: blocking && mode === 'enforce' ? 1 : 0, would_have_blocked: blocking ? 1 : 0, recorded_at: runAt,
          });
          const timing = stressable.length ? { wallClockMs: guard ? null : Math.min(wallMs, P.ceilingSeconds * 1000 + 2000), predictedMs, jvmStartMs: 600, cut } : null;
          await put('gate_timings', gateTimingRow(key, timing, runAt));
          if (blocking && attempt === 0 && rnd() < 0.3) attempts.push(runs);
        }
        if (!noHistory) inventory += Math.floor(newCount / 2);
        runs++;
      }
    }
  }
  for (const table of buffers.keys()) await flush(table);
  await engine.close();
  process.stdout.write(`fleet: ${projects} projects, ${days} days, ${runs} gated merge-request runs, ${written} rows into ${engine.kind} database ${name} in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`fleet-generator: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
