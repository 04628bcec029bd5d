// The telemetry queries (clickhouse/queries/*.sql, shipped in this package as queries/): loads
// them with their header, binds {db}, {project_filter} and {since} through sql/bind.ts, runs them.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dateTime, ident, literal, sql, uuid } from '../sql/bind.js';
import type { Database } from '../storage/database.js';
import { Sql } from '../sql/bind.js';

/** The queries shipped inside this package (copied from clickhouse/queries/ by the build; same depth from src/ and dist/). */
export const QUERIES_DIR = fileURLToPath(new URL('../../queries/', import.meta.url));

/** One telemetry query: its file name, header and SQL text with placeholders. */
export interface TelemetryQuery {
  name: string;
  question: string;
  tunes: string;
  read: string;
  text: string;
}

/** Optional filters: one project (by id, with its default branch) and a start time. */
export interface TelemetryFilter {
  projectId?: string | undefined;
  defaultBranch?: string | null | undefined;
  since?: Date | undefined;
}

/** A per-project question ({project_id}): asked only when a project is named. */
export function needsProject(q: TelemetryQuery): boolean {
  return q.text.includes('{project_id}');
}

/** Reads every query file, in name order; a file without its three header lines is an error. */
export function loadQueries(dir = QUERIES_DIR): TelemetryQuery[] {
  return readdirSync(dir)
    .filter((f) => /^[a-z0-9-]+\.sql$/.test(f))
    .sort()
    .map((file) => {
      const text = readFileSync(`${dir}/${file}`, 'utf8');
      const header = (key: string) => {
        const line = text.split('\n').find((l) => l.startsWith(`-- ${key}:`));
        if (!line) throw new Error(`${file}: missing "-- ${key}:" header`);
        return line.slice(`-- ${key}:`.length).trim();
      };
      return { name: file.replace(/\.sql$/, ''), question: header('Question'), tunes: header('Tunes'), read: header('Read'), text };
    });
}

/** The query's SQL with its placeholders bound; comment lines dropped. Throws on an unknown placeholder. */
export function bindQuery(q: TelemetryQuery, database: string, filter: TelemetryFilter = {}): Sql {
  const values: Record<string, string> = {
    db: ident(database).text,
    project_filter: filter.projectId ? sql`project_id = ${uuid(filter.projectId)}`.text : '1',
    since: literal(dateTime(filter.since ?? new Date(0))),
    ...(filter.projectId ? { project_id: literal(uuid(filter.projectId)), default_branch: literal(filter.defaultBranch ?? '') } : {}),
  };
  const body = q.text
    .split('\n')
    .filter((l) => !l.trimStart().startsWith('--'))
    .join('\n')
    .trim()
    .replace(/;\s*$/, '');
  const bound = body.replace(/\{([a-z_]+)\}/g, (_, key: string) => {
    const v = values[key];
    if (v === undefined) throw new Error(`${q.name}: unknown placeholder {${key}}`);
    return v;
  });
  return new Sql(bound);
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
