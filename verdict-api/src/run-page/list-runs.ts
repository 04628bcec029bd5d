// A project's test runs, newest first, each with the gate's outcome as one word for a badge.
import type { Project } from '../accounts/projects.js';
import { sql, uuid } from '../sql/bind.js';
import { type Database, num } from '../storage/database.js';

/** The gate's outcome on a run, as the runs list badges it. */
export type GateBadge = 'passed' | 'failed' | 'would_have_blocked' | 'flaky_in_build' | 'broken_in_build' | 'guard' | 'skipped' | 'incomplete' | 'gate_error' | 'cancelled' | 'no_candidates' | 'not_entitled' | 'none';

/** One run in the list. */
export interface RunSummary {
  runId: string;
  branch: string;
  commit: string;
  status: 'success' | 'failure';
  durationMs: number;
  startedAt: string;
  shards: number;
  testCases: number;
  gate: GateBadge;
}

/** The newest `limit` runs (default 100). */
export async function listRuns(db: Database, project: Project, limit = 100): Promise<RunSummary[]> {
  const pid = uuid(project.projectId);
  const runs = await db.engine.query<Record<string, unknown>>(sql`
    SELECT run_id, any(git_branch) AS branch, any(git_commit) AS sha, countIf(status = 'failure') AS failures,
      max(duration_ms) AS took, toString(min(started_at)) AS started, count() AS shard_count, sum(test_case_count) AS cases
    FROM ${db.t('test_runs')} FINAL WHERE project_id = ${pid}
    GROUP BY run_id ORDER BY started DESC, run_id LIMIT ${limit}`);
  if (runs.length === 0) return [];
  const gates = await db.engine.query<Record<string, unknown>>(sql`
    SELECT run_id, groupArray(outcome) AS outcomes, max(blocked) AS any_blocked, max(would_have_blocked) AS any_would
    FROM ${db.t('gate_verdicts')} FINAL WHERE project_id = ${pid} AND run_id IN ${runs.map((r) => String(r['run_id']))}
    GROUP BY run_id`);
  const byRun = new Map(gates.map((g) => [String(g['run_id']), g]));
  return runs.map((r) => ({
    runId: String(r['run_id']),
    branch: String(r['branch']),
    commit: String(r['sha']),
    status: num(r['failures']) > 0 ? 'failure' : 'success',
    durationMs: num(r['took']),
    startedAt: String(r['started']),
    shards: num(r['shard_count']),
    testCases: num(r['cases']),
    gate: badge(byRun.get(String(r['run_id'])), num(r['failures']) > 0),
  }));
}

/** The badge of a run's merged gate verdicts. */
export function badge(g: Record<string, unknown> | undefined, buildFailed = false): GateBadge {
  if (!g) return 'none';
  const outcomes = (g['outcomes'] as string[]).map(String);
  if (num(g['any_blocked']) === 1) return 'failed';
  // The build failed only on new tests and the gate stressed them (the CLI's enforce/failed-in-build.ts):
  // the build blocks by itself; the badge says what the gate found, as the run page's headline does.
  if (buildFailed && outcomes.includes('failed')) return num(g['any_would']) === 1 ? 'flaky_in_build' : 'broken_in_build';
  if (num(g['any_would']) === 1) return 'would_have_blocked';
  for (const o of ['failed', 'gate_error', 'cancelled', 'incomplete'] as const) if (outcomes.includes(o)) return o;
  if (outcomes.includes('guarded')) return 'guard';
  if (outcomes.includes('passed')) return 'passed';
  if (outcomes.includes('skipped')) return 'skipped';
  if (outcomes.includes('no_candidates')) return 'no_candidates';
  if (outcomes.includes('not_entitled')) return 'not_entitled';
  return 'none';
}
