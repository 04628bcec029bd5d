// A test case's life across runs, for its dashboard page: first seen, whether the gate calls it
// new (it has never run in CI on the default branch), and what each run's repetitions said, kept
// apart by who asked for them: organic flakiness (the build repeated it) and the stress gate's
// findings (deliberate repetition of a new test). Its recent runs are outcome-history.ts.
import type { Project } from '../accounts/projects.js';
import { sql, uuid } from '../sql/bind.js';
import { type Database, num } from '../storage/database.js';

/** Repetitions of the test case in one run that disagreed (organic) or failed (stress). */
export interface RepetitionFinding {
  runId: string;
  failed: number;
  repetitions: number;
}

/** The page's history part. */
export interface TestCaseHistory {
  firstSeen: string | null;
  /** True when it has never run in CI on the default branch (the gate would stress it). */
  gateCallsNew: boolean;
  organic: RepetitionFinding[];
  stress: RepetitionFinding[];
}

/** The history of one test case: when it was first seen, whether it is new to the gate, its repetition findings. */
export async function testCaseHistory(db: Database, project: Project, testCaseId: string): Promise<TestCaseHistory> {
  const scope = sql`project_id = ${uuid(project.projectId)} AND test_case_id = ${uuid(testCaseId)}`;
  const [first, presence, reps] = await Promise.all([
    db.engine.query<{ seen: string; n: unknown }>(sql`SELECT toString(min(ran_at)) AS seen, count() AS n FROM ${db.t('test_case_runs')} WHERE ${scope}`),
    project.defaultBranch === null
      ? Promise.resolve([])
      : db.engine.query<{ n: unknown }>(sql`
          SELECT count() AS n FROM ${db.t('test_case_branch_presence')} FINAL
          WHERE project_id = ${uuid(project.projectId)} AND git_branch = ${project.defaultBranch} AND is_ci = 1 AND test_case_id = ${uuid(testCaseId)}`),
    db.engine.query<Record<string, unknown>>(sql`
      SELECT run_id, toString(source) AS origin, countIf(status = 'failure') AS failed, count() AS total
      FROM ${db.t('test_case_run_repetitions')} FINAL WHERE ${scope} GROUP BY run_id, origin ORDER BY run_id`),
  ]);
  const finding = (r: Record<string, unknown>) => ({ runId: String(r['run_id']), failed: num(r['failed']), repetitions: num(r['total']) });
  return {
    firstSeen: first[0] && num(first[0].n) > 0 ? first[0].seen : null,
    gateCallsNew: num(presence[0]?.n ?? 0) === 0,
    organic: reps.filter((r) => r['origin'] === 'organic' && num(r['failed']) > 0 && num(r['failed']) < num(r['total'])).map(finding),
    stress: reps.filter((r) => r['origin'] === 'stress' && num(r['failed']) > 0).map(finding),
  };
}
