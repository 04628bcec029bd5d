// The stress gate's catches in a project: new tests that disagreed with themselves when the gate
// repeated them on a merge-request branch, each with its run, when, and how many repetitions
// failed. A consumer that DESCRIBES runs (as the run page does), listed on the flaky-tests page
// apart from the flakiness that counts for attribution: a catch never marks, alerts or
// quarantines (flakiness/flaky-tests.ts reads organic evidence only).
import type { Project } from '../accounts/projects.js';
import { dateTime, sql, uuid } from '../sql/bind.js';
import { type Database, num } from '../storage/database.js';

/** One test the gate caught in one run. */
export interface GateCatch {
  runId: string;
  branch: string;
  /** When its repetitions ran, 'YYYY-MM-DD hh:mm:ss' UTC. */
  at: string;
  testCaseId: string;
  module: string;
  suite: string;
  name: string;
  /** Repetitions that failed, of how many (a timing-sensitive test's: side by side). */
  failed: number;
  repetitions: number;
  /** It failed side by side and passed every repetition run again alone. */
  timingSensitive: boolean;
  muted: boolean;
  /** What the catch did to its merge request. */
  effect: 'blocked' | 'would_have_blocked' | 'not_blocking';
}

/** Catches listed at most; the others are counted. */
export const MAX_CATCHES = 100;

type Row = Record<string, unknown>;

/**
 * The gate's catches since `since`, newest first, on every branch but the project's default one:
 * the newest MAX_CATCHES of each kind read (a caught strip, a timing-sensitive candidate), the rest
 * counted in ClickHouse, so that a period of many merge requests is never read whole.
 */
export async function gateCatches(db: Database, project: Project, since: Date): Promise<{ catches: GateCatch[]; total: number }> {
  const scope = sql`project_id = ${uuid(project.projectId)}`;
  const notDefault = project.defaultBranch === null ? sql`1` : sql`run_id NOT IN (SELECT run_id FROM ${db.t('test_runs')} WHERE ${scope} AND git_branch = ${project.defaultBranch})`;
  const caughtStrips = sql`
    SELECT run_id, test_case_id, countIf(status = 'failure') AS failed, count() AS total, max(ran_at) AS last
    FROM ${db.t('test_case_run_repetitions')} FINAL
    WHERE ${scope} AND source = 'stress' AND ran_at >= ${dateTime(since)} AND ${notDefault}
    GROUP BY run_id, test_case_id
    HAVING countIf(status = 'failure') > 0`;
  const timingScope = sql`${scope} AND recorded_at >= ${dateTime(since)} AND ${notDefault}`;
  const strips = await db.engine.query<Row>(sql`
    SELECT run_id, toString(test_case_id) AS id, failed, total, toString(last) AS at FROM (${caughtStrips})
    ORDER BY last DESC, run_id, id LIMIT ${MAX_CATCHES}`);
  const timing = await db.engine.query<Row>(sql`
    SELECT run_id, toString(test_case_id) AS id, side_by_side_failures AS failed, side_by_side_repetitions AS total, toString(recorded_at) AS at
    FROM ${db.t('gate_timing_sensitive')} FINAL
    WHERE ${timingScope}
    ORDER BY recorded_at DESC, run_id, id, shard_index LIMIT ${MAX_CATCHES}`);
  const found = new Map<string, { row: Row; timingSensitive: boolean }>();
  const key = (r: Row) => JSON.stringify([r['run_id'], r['id']]);
  for (const r of strips) found.set(key(r), { row: r, timingSensitive: false });
  // A candidate in two shards: the first shard's counts stand; a failed strip wins over side-by-side counts.
  for (const r of timing) if (!found.has(key(r))) found.set(key(r), { row: r, timingSensitive: true });
  if (found.size === 0) return { catches: [], total: 0 };
  const [counted] = await db.engine.query<Row>(sql`
    SELECT uniqExact(run_id, test_case_id) AS n FROM (
      SELECT run_id, test_case_id FROM (${caughtStrips})
      UNION ALL
      SELECT run_id, test_case_id FROM ${db.t('gate_timing_sensitive')} FINAL WHERE ${timingScope})`);

  const runIds = [...new Set([...found.values()].map((f) => String(f.row['run_id'])))];
  const candidates = await db.engine.query<Row>(sql`
    SELECT run_id, toString(test_case_id) AS id, module, suite, name, muted, toString(outcome) AS result
    FROM ${db.t('gate_candidates')} FINAL WHERE ${scope} AND run_id IN ${runIds}`);
  const runs = await db.engine.query<Row>(sql`
    SELECT run_id, any(git_branch) AS branch FROM ${db.t('test_runs')} FINAL WHERE ${scope} AND run_id IN ${runIds} GROUP BY run_id`);
  const verdicts = await db.engine.query<Row>(sql`
    SELECT run_id, max(blocked) AS any_blocked FROM ${db.t('gate_verdicts')} FINAL WHERE ${scope} AND run_id IN ${runIds} GROUP BY run_id`);
  const byCandidate = new Map(candidates.map((c) => [key(c), c]));
  const branchOf = new Map(runs.map((r) => [String(r['run_id']), String(r['branch'])]));
  const blockedRun = new Set(verdicts.filter((v) => num(v['any_blocked']) === 1).map((v) => String(v['run_id'])));

  const catches = [...found]
    .flatMap(([k, { row, timingSensitive }]): GateCatch[] => {
      const c = byCandidate.get(k);
      const runId = String(row['run_id']);
      const branch = branchOf.get(runId) ?? '';
      if (!c || branch === project.defaultBranch) return [];
      const muted = num(c['muted']) === 1;
      const counted = c['result'] === 'failed' && !muted;
      return [{
        runId, branch, at: String(row['at']), testCaseId: String(row['id']),
        module: String(c['module']), suite: String(c['suite']), name: String(c['name']),
        failed: num(row['failed']), repetitions: num(row['total']), timingSensitive, muted,
        effect: !counted ? 'not_blocking' : blockedRun.has(runId) ? 'blocked' : 'would_have_blocked',
      }];
    })
    .sort((a, b) => (a.at !== b.at ? (a.at < b.at ? 1 : -1) : (a.runId + a.suite + a.name < b.runId + b.suite + b.name ? -1 : 1)));
  return { catches: catches.slice(0, MAX_CATCHES), total: Math.max(catches.length, num(counted?.['n'] ?? 0)) };
}
