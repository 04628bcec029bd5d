// The project's flaky tests: a consumer that ATTRIBUTES flakiness to a test across runs, so it
// reads organic repetitions only. A stress pass is solicited evidence (a gated observation):
// counting it here would mark tests flaky project-wide in report mode, where the author was
// told nothing would happen yet.
import type { Project } from '../accounts/projects.js';
import { dateTime, sql, uuid } from '../sql/bind.js';
import { type Database, num } from '../storage/database.js';
import { idSet } from '../presence/presence.js';

export interface FlakyTest {
  module: string;
  suite: string;
  name: string;
  /** Runs (shards) in the window whose organic repetitions of this test disagreed. */
  flakyRuns: number;
  lastFlakyAt: string;
  /** Marked flaky by the policy: auto-mark on and flakyRuns >= threshold. */
  markedFlaky: boolean;
}

/** Tests whose organic repetitions disagreed within one run, in the policy's cooldown window. */
export async function flakyTests(db: Database, project: Project, now = new Date()): Promise<{ windowDays: number; tests: FlakyTest[] }> {
  const policy = project.flakyPolicy;
  const windowDays = Math.max(policy.cooldownDays, 1);
  const since = new Date(now.getTime() - windowDays * 86_400_000);
  const rows = await db.engine.query<{ id: string; flaky_runs: unknown; last_flaky_at: string }>(sql`
    SELECT toString(test_case_id) AS id, count() AS flaky_runs, toString(max(run_ran_at)) AS last_flaky_at
    FROM (
      SELECT test_case_id, run_id, shard_index, max(ran_at) AS run_ran_at
      FROM ${db.t('test_case_run_repetitions')} FINAL
      WHERE project_id = ${uuid(project.projectId)} AND source = 'organic' AND ran_at >= ${dateTime(since)}
      GROUP BY test_case_id, run_id, shard_index
      HAVING countIf(status = 'failure') > 0 AND countIf(status = 'success') > 0
    )
    GROUP BY test_case_id`);
  if (rows.length === 0) return { windowDays, tests: [] };
  const names = await db.engine.query<{ id: string; module: string; suite: string; name: string }>(sql`
    SELECT toString(test_case_id) AS id, module, suite, name FROM ${db.t('test_cases')} FINAL
    WHERE project_id = ${uuid(project.projectId)} AND toString(test_case_id) IN ${idSet(rows.map((r) => r.id))}`);
  const byId = new Map(names.map((n) => [n.id, n]));
  const tests = rows
    .map((r) => {
      const n = byId.get(r.id);
      const flakyRuns = num(r.flaky_runs);
      return {
        module: n?.module ?? '',
        suite: n?.suite ?? '',
        name: n?.name ?? '',
        flakyRuns,
        lastFlakyAt: r.last_flaky_at,
        markedFlaky: policy.autoMarkFlaky && flakyRuns >= policy.autoMarkThreshold,
      };
    })
    .sort((a, b) => (a.module + a.suite + a.name < b.module + b.suite + b.name ? -1 : 1));
  return { windowDays, tests };
}
