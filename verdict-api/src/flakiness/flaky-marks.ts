// The store of flaky marks: the current mark per test case (flaky_marks, latest version wins)
// and the history of every change with its reason and time (flaky_mark_history).
import type { Identity } from '../identity/test-case-id.js';
import { idSet } from '../presence/presence.js';
import { formatDateTime, sql, uuid } from '../sql/bind.js';
import { type Database, num } from '../storage/database.js';
import { nextVersion } from '../storage/version.js';

/** A test case's current mark. Times are 'YYYY-MM-DD hh:mm:ss' UTC. */
export interface FlakyMark extends Identity {
  projectId: string;
  testCaseId: string;
  marked: boolean;
  reason: string;
  changedAt: string;
  /** The newest organic flaky evidence seen; the cooldown counts from here. */
  lastFlakyAt: string;
}

/** One change of a mark. */
export interface MarkChange {
  marked: boolean;
  reason: string;
  changedAt: string;
}

interface MarkRow {
  project: string;
  id: string;
  module: string;
  suite: string;
  name: string;
  marked: unknown;
  reason: string;
  changed: string;
  last_flaky: string;
}

// No alias repeats a column's name: 18.16 would resolve it in WHERE.
const COLUMNS = sql`toString(project_id) AS project, toString(test_case_id) AS id, module, suite, name, marked, reason, toString(changed_at) AS changed, toString(last_flaky_at) AS last_flaky`;

/** Current marks of `ids` (or of every test case of the project), by test_case_id. */
export async function marksOf(db: Database, projectId: string, ids?: readonly string[]): Promise<Map<string, FlakyMark>> {
  if (ids && ids.length === 0) return new Map();
  const only = ids ? sql` AND toString(test_case_id) IN ${idSet(ids)}` : sql``;
  const rows = await db.engine.query<MarkRow>(sql`SELECT ${COLUMNS} FROM ${db.t('flaky_marks')} FINAL WHERE project_id = ${uuid(projectId)}${only}`);
  return new Map(rows.map((r) => [r.id, toMark(r)]));
}

/** Every marked test case of every project (the sweep's cooldown input). */
export async function allMarked(db: Database): Promise<FlakyMark[]> {
  const rows = await db.engine.query<MarkRow>(sql`SELECT ${COLUMNS} FROM ${db.t('flaky_marks')} FINAL WHERE marked = 1`);
  return rows.map(toMark);
}

/** Writes a mark; `changed` also appends the change to the history. */
export async function writeMark(db: Database, mark: FlakyMark, changed: boolean): Promise<void> {
  await writeMarks(db, [{ mark, changed }]);
}

/** Writes many marks in one insert per table (an upload can reveal thousands at once). */
export async function writeMarks(db: Database, writes: readonly { mark: FlakyMark; changed: boolean }[]): Promise<void> {
  await db.engine.insert(
    db.t('flaky_marks'),
    writes.map(({ mark }) => ({
      project_id: mark.projectId,
      test_case_id: mark.testCaseId,
      module: mark.module,
      suite: mark.suite,
      name: mark.name,
      marked: mark.marked ? 1 : 0,
      reason: mark.reason,
      changed_at: mark.changedAt,
      last_flaky_at: mark.lastFlakyAt,
      version: nextVersion(),
    })),
  );
  await db.engine.insert(
    db.t('flaky_mark_history'),
    writes
      .filter((w) => w.changed)
      .map(({ mark }) => ({ project_id: mark.projectId, test_case_id: mark.testCaseId, marked: mark.marked ? 1 : 0, reason: mark.reason, changed_at: mark.changedAt, seq: nextVersion() })),
  );
}

/** Every change of one test case's mark, oldest first. */
export async function markHistory(db: Database, projectId: string, testCaseId: string): Promise<MarkChange[]> {
  const rows = await db.engine.query<{ marked: unknown; reason: string; changed: string }>(sql`
    SELECT marked, reason, toString(changed_at) AS changed FROM ${db.t('flaky_mark_history')}
    WHERE project_id = ${uuid(projectId)} AND test_case_id = ${uuid(testCaseId)} ORDER BY seq`);
  return rows.map((r) => ({ marked: num(r.marked) === 1, reason: r.reason, changedAt: r.changed }));
}

/** A Date as the stored text form. */
export const stamp = (d: Date): string => formatDateTime(d);

function toMark(r: MarkRow): FlakyMark {
  return {
    projectId: r.project,
    testCaseId: r.id,
    module: r.module,
    suite: r.suite,
    name: r.name,
    marked: num(r.marked) === 1,
    reason: r.reason,
    changedAt: r.changed,
    lastFlakyAt: r.last_flaky,
  };
}
