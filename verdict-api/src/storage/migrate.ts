// Applies clickhouse/migrations/NNNN_verb_object.sql in order at start-up, records each in
// schema_migrations, and refuses to start when an applied migration's file has changed.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { StorageError } from '../errors/errors.js';
import { formatDateTime, ident, sql, Sql } from '../sql/bind.js';
import type { ClickHouseEngine } from './engine.js';

/** The migrations shipped inside this package (copied from clickhouse/migrations/ by the build; same depth from src/ and dist/). */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));

export interface Migration {
  version: string;
  name: string;
  statements: string[];
  checksum: string;
}

/** Reads the migration files; `{db}` in them stands for the configured database. */
export function loadMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((file) => {
      const text = readFileSync(`${dir}/${file}`, 'utf8');
      return {
        version: file.slice(0, 4),
        name: file.replace(/\.sql$/, ''),
        statements: splitStatements(text),
        checksum: createHash('sha256').update(text).digest('hex'),
      };
    });
}

/** Splits a file into statements: `--` comment lines dropped, `;` at a line's end separates. */
export function splitStatements(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('--'))
    .join('\n')
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Creates the database and applies what is missing. Idempotent; safe to run at every start. */
export async function migrate(engine: ClickHouseEngine, database: string, migrations = loadMigrations()): Promise<string[]> {
  const db = ident(database);
  await engine.command(sql`CREATE DATABASE IF NOT EXISTS ${db}`);
  await engine.command(sql`CREATE TABLE IF NOT EXISTS ${db}.schema_migrations
    (version String, name String, checksum String, applied_at DateTime('UTC'))
    ENGINE = MergeTree ORDER BY version`);
  const rows = await engine.query<{ version: string; checksum: string }>(
    sql`SELECT version, any(checksum) AS checksum FROM ${db}.schema_migrations GROUP BY version`,
  );
  const applied = new Map(rows.map((r) => [r.version, r.checksum]));
  const done: string[] = [];
  for (const m of migrations) {
    const known = applied.get(m.version);
    if (known !== undefined) {
      if (known !== m.checksum) {
        throw new StorageError(`migration ${m.name} was changed after it was applied; migrations are forward only: add a new one`);
      }
      continue;
    }
    for (const statement of m.statements) await engine.command(new Sql(statement.replaceAll('{db}', db.text)));
    await engine.insert(sql`${db}.schema_migrations`, [
      { version: m.version, name: m.name, checksum: m.checksum, applied_at: formatDateTime(new Date()) },
    ]);
    done.push(m.name);
  }
  return done;
}
