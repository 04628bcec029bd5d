// Questions asked of the data as SQL files, one per question (clickhouse/queries/NAME.sql,
// copied into the package by its build), so the dashboard and a later telemetry command read
// the same query. `{db}` is the database; every other `{name}` is bound through sql/bind.ts.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Bindable, literal, Sql } from '../sql/bind.js';
import type { Database } from '../storage/database.js';

/** The query files shipped inside this package (same depth from src/ and dist/). */
export const QUERIES_DIR = fileURLToPath(new URL('../../queries/', import.meta.url));

const cache = new Map<string, string>();

/** The text of query `name` with `{db}` and every `{param}` bound; a missing parameter throws. */
export function queryFile(db: Database, name: string, params: Record<string, Bindable>, dir = QUERIES_DIR): Sql {
  if (!/^[a-z0-9-]+$/.test(name)) throw new TypeError(`not a query name: ${name}`);
  const key = `${dir}${name}`;
  let text = cache.get(key);
  if (text === undefined) {
    text = readFileSync(`${dir}/${name}.sql`, 'utf8')
      .split('\n')
      .filter((line) => !line.trimStart().startsWith('--'))
      .join('\n')
      .trim()
      .replace(/;\s*$/, '');
    cache.set(key, text);
  }
  const dbName = db.t('projects').text.split('.')[0]!;
  return new Sql(
    text.replace(/\{([a-z_]+)\}/g, (_m, p: string) => {
      if (p === 'db') return dbName;
      if (!(p in params)) throw new TypeError(`query ${name}: no value for {${p}}`);
      return literal(params[p]!);
    }),
  );
}
