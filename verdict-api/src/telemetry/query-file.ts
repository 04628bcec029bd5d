// Questions asked of the data as SQL files, one per question (clickhouse/queries/NAME.sql,
// copied into the package by its build), so the dashboard's ramp and the telemetry command read
// the same files through this one loader. Each file starts with `-- Question:`, `-- Tunes:` and
// `-- Read:` lines; `{name}` placeholders are filled with SQL text bound through sql/bind.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Bindable, literal, Sql } from '../sql/bind.js';
import type { Database } from '../storage/database.js';

/** The query files shipped inside this package (same depth from src/ and dist/). */
export const QUERIES_DIR = fileURLToPath(new URL('../../queries/', import.meta.url));

/** One query file: its name, its three header lines and its SQL with placeholders, comments dropped. */
export interface QueryFile {
  name: string;
  question: string;
  tunes: string;
  read: string;
  /** The SQL without comment lines or a trailing semicolon, placeholders unfilled. */
  body: string;
}

const NAME = /^[a-z0-9-]+$/;
const cache = new Map<string, QueryFile>();

/** Reads query `name` (once per directory); a file without its three header lines is an error. */
export function loadQuery(name: string, dir = QUERIES_DIR): QueryFile {
  if (!NAME.test(name)) throw new TypeError(`not a query name: ${name}`);
  const key = `${dir}\u0000${name}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const text = readFileSync(`${dir}/${name}.sql`, 'utf8');
  const lines = text.split('\n');
  const header = (label: string) => {
    const line = lines.find((l) => l.startsWith(`-- ${label}:`));
    if (!line) throw new Error(`${name}.sql: missing "-- ${label}:" header`);
    return line.slice(`-- ${label}:`.length).trim();
  };
  const body = lines
    .filter((l) => !l.trimStart().startsWith('--'))
    .join('\n')
    .trim()
    .replace(/;\s*$/, '');
  const query = { name, question: header('Question'), tunes: header('Tunes'), read: header('Read'), body };
  cache.set(key, query);
  return query;
}

/** Every query file of the directory, in name order. */
export function loadQueries(dir = QUERIES_DIR): QueryFile[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sql') && NAME.test(f.slice(0, -'.sql'.length)))
    .sort()
    .map((f) => loadQuery(f.slice(0, -'.sql'.length), dir));
}

/** The query's SQL with every `{placeholder}` replaced by its SQL text; a missing one throws. */
export function fillPlaceholders(query: QueryFile, values: Readonly<Record<string, string>>): Sql {
  return new Sql(
    query.body.replace(/\{([a-z_]+)\}/g, (_m, key: string) => {
      const value = values[key];
      if (value === undefined) throw new TypeError(`query ${query.name}: no value for {${key}}`);
      return value;
    }),
  );
}

/** The text of query `name` with `{db}` and every `{param}` bound; a missing parameter throws. */
export function queryFile(db: Database, name: string, params: Record<string, Bindable>, dir = QUERIES_DIR): Sql {
  const values: Record<string, string> = { db: db.t('projects').text.split('.')[0]! };
  for (const [key, value] of Object.entries(params)) values[key] = literal(value);
  return fillPlaceholders(loadQuery(name, dir), values);
}
