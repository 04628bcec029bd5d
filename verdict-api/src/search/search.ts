// Search within one project: test cases whose module, suite or name (or "suite.name") hold the
// text, and runs whose id, branch or commit hold it; case-insensitive, bounded. The text reaches
// SQL only as a bound LIKE pattern with its own wildcards escaped (like-pattern.ts). Each kind
// reads one project's rows of a small table: the identity catalogue (one row per test case) and
// test_runs (one row per run shard).
import type { Project } from '../accounts/projects.js';
import { BadRequestError } from '../errors/errors.js';
import { sql, uuid } from '../sql/bind.js';
import { type Database, num } from '../storage/database.js';
import { containsPattern } from './like-pattern.js';

/** The longest text searched for. */
export const SEARCH_MAX_LENGTH = 200;
/** Hits of each kind shown unless asked otherwise. */
export const SEARCH_LIMIT = 50;
/** The most hits of each kind one search answers. */
export const MAX_SEARCH_LIMIT = 100;

/** A test case found. */
export interface TestCaseHit {
  testCaseId: string;
  module: string;
  suite: string;
  name: string;
}

/** A run found. */
export interface RunHit {
  runId: string;
  branch: string;
  commit: string;
  status: 'success' | 'failure';
  startedAt: string;
}

/** What a search found: up to `limit` of each kind, and whether more matched. */
export interface SearchResult {
  query: string;
  limit: number;
  testCases: TestCaseHit[];
  moreTestCases: boolean;
  runs: RunHit[];
  moreRuns: boolean;
}

/** The text to search for, trimmed: 1 to SEARCH_MAX_LENGTH characters of well-formed Unicode, else a 400 on `q`. */
export function searchText(value: string | undefined): string {
  const text = (value ?? '').trim();
  if (text === '') throw new BadRequestError('q: give the text to search for', 'q');
  if (text.length > SEARCH_MAX_LENGTH) throw new BadRequestError(`q: at most ${SEARCH_MAX_LENGTH} characters`, 'q');
  if (!text.isWellFormed()) throw new BadRequestError('q: not well-formed Unicode', 'q');
  return text;
}

/** The `limit` of a request: an integer from 1 to MAX_SEARCH_LIMIT, SEARCH_LIMIT when absent. */
export function searchLimit(value: string | undefined): number {
  const n = value === undefined ? SEARCH_LIMIT : Number(value);
  if (!Number.isInteger(n) || n < 1 || n > MAX_SEARCH_LIMIT) throw new BadRequestError(`limit: must be an integer from 1 to ${MAX_SEARCH_LIMIT}`, 'limit');
  return n;
}

/** Test cases and runs of the project that hold `text` (from searchText), up to `limit` of each. */
export async function search(db: Database, project: Project, text: string, limit = SEARCH_LIMIT): Promise<SearchResult> {
  const pid = uuid(project.projectId);
  const pattern = sql`lowerUTF8(${containsPattern(text)})`;
  // Aliases differ from the columns: 18.16 would read an alias named like a column in WHERE.
  const [cases, runs] = await Promise.all([
    db.engine.query<Record<string, unknown>>(sql`
      SELECT toString(test_case_id) AS id, any(module) AS in_module, any(suite) AS in_suite, any(name) AS named
      FROM ${db.t('test_cases')}
      WHERE project_id = ${pid} AND (lowerUTF8(module) LIKE ${pattern} OR lowerUTF8(concat(suite, '.', name)) LIKE ${pattern})
      GROUP BY test_case_id ORDER BY in_suite, named, in_module, id LIMIT ${limit + 1}`),
    db.engine.query<Record<string, unknown>>(sql`
      SELECT run_id, any(git_branch) AS on_branch, any(git_commit) AS sha, countIf(status = 'failure') AS failures, toString(min(started_at)) AS started
      FROM ${db.t('test_runs')}
      WHERE project_id = ${pid} AND (lowerUTF8(run_id) LIKE ${pattern} OR lowerUTF8(git_branch) LIKE ${pattern} OR lowerUTF8(git_commit) LIKE ${pattern})
      GROUP BY run_id ORDER BY started DESC, run_id DESC LIMIT ${limit + 1}`),
  ]);
  return {
    query: text,
    limit,
    testCases: cases.slice(0, limit).map((r) => ({ testCaseId: String(r['id']), module: String(r['in_module']), suite: String(r['in_suite']), name: String(r['named']) })),
    moreTestCases: cases.length > limit,
    runs: runs.slice(0, limit).map((r) => ({
      runId: String(r['run_id']),
      branch: String(r['on_branch']),
      commit: String(r['sha']),
      status: num(r['failures']) > 0 ? 'failure' : 'success',
      startedAt: String(r['started']),
    })),
    moreRuns: runs.length > limit,
  };
}
