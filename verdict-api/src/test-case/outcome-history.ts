// A test case's outcomes over its recent runs, for its page's chart and the JSON API: per run, the
// first pass's result and what its repetitions said (the stress gate's, and the build's own
// retries), each run on the project's default branch or another. Bounded: the newest `limit` runs
// (uploads that completed), and whether older ones exist.
//
// test_case_runs is keyed by run (project_id, run_id, …), not by test case, so "this test's runs"
// is a scan of the whole project's rows (about 70-120 ms per 4M rows here). The project's newest
// runs are asked first, by run id through that key: a test that runs in most builds has its last
// `limit` runs among the project's newest few hundred, found in tens of milliseconds whatever the
// project's size. Only when they hold fewer (a test that runs rarely) is the project scanned.
import type { Project } from '../accounts/projects.js';
import { BadRequestError } from '../errors/errors.js';
import { type Sql, sql, uuid } from '../sql/bind.js';
import { type Database, num } from '../storage/database.js';

/** Runs a history shows unless asked otherwise. */
export const HISTORY_LIMIT = 100;
/** The most runs one history shows. */
export const MAX_HISTORY_LIMIT = 200;
/** The newest run shards asked first, per run wanted. */
const NEWEST_FIRST_FACTOR = 4;

/** Repetitions of the test in one run, and how many failed. */
export interface RepetitionCount {
  repetitions: number;
  failed: number;
}

/** One run of the test case. */
export interface HistoryPoint {
  runId: string;
  branch: string;
  /** Ran on the project's default branch (false for every run when it has none). */
  onDefaultBranch: boolean;
  isCi: boolean;
  /** When the run started (UTC, 'YYYY-MM-DD hh:mm:ss'). */
  ranAt: string;
  /** The first pass's result: failure when any shard's failed, success when one passed, else skipped. */
  firstPass: 'success' | 'failure' | 'skipped';
  muted: boolean;
  /** The ingestion-time New badge. */
  isNew: boolean;
  durationMs: number;
  /** The stress gate's repetitions of it in this run, or null when it was not stressed. */
  stress: RepetitionCount | null;
  /** The build's own retries of it in this run, or null when there were none. */
  organic: RepetitionCount | null;
}

/** The history: the newest `limit` runs, newest first. */
export interface OutcomeHistory {
  testCaseId: string;
  defaultBranch: string | null;
  limit: number;
  /** Older runs of the test exist beyond `points`. */
  more: boolean;
  points: HistoryPoint[];
}

/** The `limit` of a request: an integer from 1 to MAX_HISTORY_LIMIT, HISTORY_LIMIT when absent. */
export function historyLimit(value: string | undefined): number {
  const n = value === undefined ? HISTORY_LIMIT : Number(value);
  if (!Number.isInteger(n) || n < 1 || n > MAX_HISTORY_LIMIT) throw new BadRequestError(`limit: must be an integer from 1 to ${MAX_HISTORY_LIMIT}`, 'limit');
  return n;
}

/** The test case's newest `limit` runs with their outcomes; no runs for an id the project never ran. */
export async function outcomeHistory(db: Database, project: Project, testCaseId: string, limit = HISTORY_LIMIT): Promise<OutcomeHistory> {
  const pid = uuid(project.projectId);
  const runsOf = (runIds: Sql) =>
    db.engine.query<Record<string, unknown>>(sql`
      SELECT run_id, any(git_branch) AS branch, max(is_ci) AS ci, toString(min(ran_at)) AS ran,
        countIf(status = 'failure') AS failures, countIf(status = 'success') AS passes,
        max(muted) AS is_muted, max(is_new) AS badged_new, max(duration_ms) AS took
      FROM ${db.t('test_case_runs')}
      WHERE project_id = ${pid} AND test_case_id = ${uuid(testCaseId)} AND run_id IN (${runIds})
      GROUP BY run_id ORDER BY ran DESC, run_id DESC LIMIT ${limit + 1}`);
  // Only runs whose upload completed (their test_runs row is written last). Rows are grouped by
  // run rather than read with FINAL: a run's shards become one point, and FINAL over a project's
  // rows cost 4-5 times the scan.
  const completed = sql`SELECT run_id FROM ${db.t('test_runs')} WHERE project_id = ${pid}`;
  let rows = await runsOf(sql`${completed} ORDER BY started_at DESC, run_id DESC LIMIT ${NEWEST_FIRST_FACTOR * (limit + 1)}`);
  if (rows.length <= limit) rows = await runsOf(completed);
  const shown = rows.slice(0, limit);
  const repetitions = shown.length === 0 ? [] : await db.engine.query<Record<string, unknown>>(sql`
      SELECT run_id, toString(source) AS origin, countIf(status = 'failure') AS failed, count() AS total
      FROM ${db.t('test_case_run_repetitions')} FINAL
      WHERE project_id = ${pid} AND test_case_id = ${uuid(testCaseId)} AND run_id IN ${shown.map((r) => String(r['run_id']))}
      GROUP BY run_id, origin`);
  const counts = new Map(repetitions.map((r) => [`${String(r['origin'])}\n${String(r['run_id'])}`, { repetitions: num(r['total']), failed: num(r['failed']) }]));
  return {
    testCaseId,
    defaultBranch: project.defaultBranch,
    limit,
    more: rows.length > limit,
    points: shown.map((r) => {
      const runId = String(r['run_id']);
      const branch = String(r['branch']);
      return {
        runId,
        branch,
        onDefaultBranch: project.defaultBranch !== null && branch === project.defaultBranch,
        isCi: num(r['ci']) === 1,
        ranAt: String(r['ran']),
        firstPass: num(r['failures']) > 0 ? 'failure' : num(r['passes']) > 0 ? 'success' : 'skipped',
        muted: num(r['is_muted']) === 1,
        isNew: num(r['badged_new']) === 1,
        durationMs: num(r['took']),
        stress: counts.get(`stress\n${runId}`) ?? null,
        organic: counts.get(`organic\n${runId}`) ?? null,
      };
    }),
  };
}
