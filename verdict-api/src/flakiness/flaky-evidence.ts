// Organic evidence that a test case is flaky, for the consumers that ATTRIBUTE flakiness
// (marks, cooldown, alerts, auto-quarantine, the cross-run aggregate). Two kinds:
//   retries: in one run, the build's own repetitions of the case disagreed (source 'organic';
//            the stress gate's repetitions are source 'stress' and never read here);
//   commit:  one commit has both a failing and a passing CI run of the case (test_case_runs,
//            which only first passes write; the stress pass never writes there).
import { idSet } from '../presence/presence.js';
import { dateTime, sql, type Sql, uuid } from '../sql/bind.js';
import { type Database, num } from '../storage/database.js';

/** One piece of evidence: a run whose retries disagreed, or a commit with both outcomes. */
export interface FlakyEvidence {
  testCaseId: string;
  kind: 'retries' | 'commit';
  /** The run (retries) or one of the runs (commit). */
  runId: string;
  /** The run's commit; '' when the upload named none. */
  commit: string;
  /** 'YYYY-MM-DD hh:mm:ss' UTC: when the evidence ran. */
  at: string;
  /**
   * Whether the evidence came from a CI run of a default-branch credential (stored is_ci = 1).
   * A merge-request token's runs are stored as no CI run: their evidence may mark a test flaky,
   * never mute it (auto-quarantine.ts).
   */
  trusted: boolean;
}

/** The key that "distinct commits" counts: the commit, or the run when no commit was given. */
export const commitKey = (e: FlakyEvidence): string => (e.commit === '' ? `run:${e.runId}` : `commit:${e.commit}`);

/** Evidence since `since`, optionally only for `ids`. */
export async function flakyEvidence(db: Database, projectId: string, since: Date, ids?: readonly string[]): Promise<FlakyEvidence[]> {
  if (ids && ids.length === 0) return [];
  const project = sql`project_id = ${uuid(projectId)}`;
  const only = ids ? sql` AND toString(test_case_id) IN ${idSet(ids)}` : sql``;
  // The subqueries carry aliases (chDB requires them), and no alias repeats a column's name:
  // 18.16 resolves such an alias in WHERE and in the aggregate's own argument. The joins are
  // ALL: the right side has one row per run_id already, and newer ClickHouse reads ANY INNER as
  // "one row per key on the left too", which would drop all but one test case of a run.
  const retries = await db.engine.query<{ id: string; run_id: string; run_commit: string; run_ci: unknown; at: string }>(sql`
    SELECT id, run_id, run_commit, run_ci, toString(last_at) AS at FROM (
      SELECT toString(test_case_id) AS id, run_id, max(ran_at) AS last_at
      FROM ${db.t('test_case_run_repetitions')} FINAL
      WHERE ${project} AND source = 'organic' AND ran_at >= ${dateTime(since)}${only}
      GROUP BY test_case_id, run_id, shard_index
      HAVING countIf(status = 'failure') > 0 AND countIf(status = 'success') > 0
    ) AS fr
    ALL LEFT JOIN (${runCommits(db, project, since)}) AS tr USING run_id`);
  const commits = await db.engine.query<{ id: string; some_run: string; run_commit: string; at: string }>(sql`
    SELECT toString(test_case_id) AS id, any(run_id) AS some_run, run_commit, toString(max(ran_at)) AS at FROM (
      SELECT test_case_id, run_id, status, ran_at FROM ${db.t('test_case_runs')} FINAL
      WHERE ${project} AND is_ci = 1 AND status != 'skipped' AND ran_at >= ${dateTime(since)}${only}
    ) AS cr
    ALL INNER JOIN (${runCommits(db, project, since, sql` AND is_ci = 1 AND git_commit != ''`)}) AS tr USING run_id
    GROUP BY test_case_id, run_commit
    HAVING countIf(status = 'failure') > 0 AND countIf(status = 'success') > 0`);
  return [
    ...retries.map((r) => ({ testCaseId: r.id, kind: 'retries' as const, runId: r.run_id, commit: r.run_commit, at: r.at, trusted: num(r.run_ci) === 1 })),
    // Both runs of a commit's evidence are CI runs (is_ci = 1 above).
    ...commits.map((r) => ({ testCaseId: r.id, kind: 'commit' as const, runId: r.some_run, commit: r.run_commit, at: r.at, trusted: true })),
  ];
}

/** The most recent CI runs of one commit that an upload's conflict check reads (the bound of commitConflicts). */
export const COMMIT_RUNS_READ = 20;

/** What commitConflicts found, and how many of the commit's earlier runs it left unread (0: none). */
export interface CommitConflicts {
  ids: string[];
  unread: number;
}

/**
 * The test cases that have both a failing and a passing CI run of `commit`: cheap, keyed on run
 * ids, and only the cases that failed in one of them are grouped (a commit's CI runs are mostly
 * the same passes: grouping all of them cost 0.35-0.5 s per 50,000-case upload once a commit
 * had a few runs). No FINAL: a repeated row of a run (a retried upload) has the same status, so
 * it cannot change whether a case both failed and passed.
 *
 * Bounded: `runId` (the run just stored) and the commit's COMMIT_RUNS_READ most recent other
 * runs. A commit rerun without end (a scheduled pipeline on a quiet branch) would otherwise make
 * every upload read all of its runs. Conflicts among older runs were checked when they were
 * stored; `unread` says when the bound bit (the caller logs it), and the sweep reads everything.
 */
export async function commitConflicts(db: Database, projectId: string, commit: string, runId: string): Promise<CommitConflicts> {
  if (commit === '') return { ids: [], unread: 0 };
  // Every other run's id, newest first (short strings: even a commit run a thousand times answers
  // in one small read); only the first COMMIT_RUNS_READ are read further.
  const runs = await db.engine.query<{ run_id: string }>(sql`
    SELECT run_id FROM ${db.t('test_runs')} FINAL
    WHERE project_id = ${uuid(projectId)} AND is_ci = 1 AND git_commit = ${commit} AND run_id != ${runId}
    GROUP BY run_id ORDER BY max(started_at) DESC, run_id`);
  const others = runs.slice(0, COMMIT_RUNS_READ);
  const unread = runs.length - others.length;
  if (others.length === 0) return { ids: [], unread };
  const ofRuns = sql`project_id = ${uuid(projectId)} AND is_ci = 1 AND run_id IN ${[runId, ...others.map((r) => r.run_id)]}`;
  const rows = await db.engine.query<{ id: string }>(sql`
    SELECT toString(test_case_id) AS id FROM ${db.t('test_case_runs')}
    WHERE ${ofRuns} AND status != 'skipped'
      AND test_case_id IN (SELECT test_case_id FROM ${db.t('test_case_runs')} WHERE ${ofRuns} AND status = 'failure')
    GROUP BY test_case_id
    HAVING countIf(status = 'failure') > 0 AND countIf(status = 'success') > 0`);
  return { ids: rows.map((r) => r.id), unread };
}

function runCommits(db: Database, project: Sql, since: Date, extra = sql``): Sql {
  return sql`SELECT run_id, any(git_commit) AS run_commit, max(is_ci) AS run_ci FROM ${db.t('test_runs')} FINAL
    WHERE ${project} AND started_at >= ${dateTime(since)}${extra} GROUP BY run_id`;
}
