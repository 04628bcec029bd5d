// The telemetry queries (clickhouse/queries/*.sql, read by queries/query-file.ts): binds {db},
// {project_filter}, {since} and, for one project, {project_id} and {default_branch} through
// sql/bind.ts, and runs them.
import { fillPlaceholders, loadQueries, type QueryFile } from './query-file.js';
import { dateTime, ident, literal, type Sql, sql, uuid } from '../sql/bind.js';
import type { Database } from '../storage/database.js';

export { loadQueries };

/** One telemetry query: a query file with its header. */
export type TelemetryQuery = QueryFile;

/** Optional filters: one project (by id, with its default branch) and a start time. */
export interface TelemetryFilter {
  projectId?: string | undefined;
  defaultBranch?: string | null | undefined;
  since?: Date | undefined;
}

/** A per-project question ({project_id}): asked only when a project is named. */
export function needsProject(q: TelemetryQuery): boolean {
  return q.body.includes('{project_id}');
}

/** The query's SQL with its placeholders bound. Throws on an unknown placeholder. */
export function bindQuery(q: TelemetryQuery, database: string, filter: TelemetryFilter = {}): Sql {
  return fillPlaceholders(q, {
    db: ident(database).text,
    project_filter: filter.projectId ? sql`project_id = ${uuid(filter.projectId)}`.text : '1',
    since: literal(dateTime(filter.since ?? new Date(0))),
    ...(filter.projectId ? { project_id: literal(uuid(filter.projectId)), default_branch: literal(filter.defaultBranch ?? '') } : {}),
  });
}

/** One query's answer: its rows, or the error ClickHouse gave (a value, so one bad query does not hide the rest). */
export type TelemetryAnswer = { query: TelemetryQuery; rows: Record<string, unknown>[]; error: null } | { query: TelemetryQuery; rows: []; error: string };

/** Runs every query against the database (the per-project ones only when a project is named). */
export async function runTelemetry(db: Database, filter: TelemetryFilter = {}, queries = loadQueries()): Promise<TelemetryAnswer[]> {
  const answers: TelemetryAnswer[] = [];
  for (const query of queries) {
    if (needsProject(query) && !filter.projectId) continue;
    try {
      answers.push({ query, rows: await db.engine.query<Record<string, unknown>>(bindQuery(query, db.name, filter)), error: null });
    } catch (e) {
      answers.push({ query, rows: [], error: (e as Error).message });
    }
  }
  return answers;
}
