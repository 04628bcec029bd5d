// Applies clickhouse/migrations/NNNN_verb_object.sql in order at start-up, records each in
// schema_migrations, and refuses to start when an applied migration's file has changed.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { StorageError } from '../errors/errors.js';
import { formatDateTime, ident, sql, Sql } from '../sql/bind.js';
import { clusterStatements } from './cluster.js';
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

/**
 * Creates the database and applies what is missing. Idempotent; safe to run at every start. On a
 * cluster (the engine's `cluster`) every statement runs ON CLUSTER in its cluster form
 * (cluster.ts), and schema_migrations is one replicated table, so a migration is recorded once
 * for the cluster. Several API instances may start at once: every statement is CREATE … IF NOT
 * EXISTS or DROP … IF EXISTS, ClickHouse runs ON CLUSTER statements one after another, and
 * `exclusive` (the coordinator's lock, cluster mode) keeps a second instance from applying and
 * recording a migration the first is applying.
 */
export async function migrate(
  engine: ClickHouseEngine,
  database: string,
  migrations = loadMigrations(),
  exclusive: <T>(work: () => Promise<T>) => Promise<T> = (work) => work(),
): Promise<string[]> {
  const db = ident(database);
  const cluster = engine.cluster;
  const on = cluster === undefined ? '' : ` ON CLUSTER ${ident(cluster).text}`;
  const form = (statement: string): string[] => (cluster === undefined ? [statement] : clusterStatements(statement, cluster, database));
  const applied = async () => {
    const rows = await engine.query<{ version: string; checksum: string }>(
      sql`SELECT version, any(checksum) AS checksum FROM ${db}.schema_migrations GROUP BY version`,
    );
    return new Map(rows.map((r) => [r.version, r.checksum]));
  };
  const missing = (known: Map<string, string>) =>
    migrations.filter((m) => {
      const checksum = known.get(m.version);
      if (checksum !== undefined && checksum !== m.checksum) {
        throw new StorageError(`migration ${m.name} was changed after it was applied; migrations are forward only: add a new one`);
      }
      return checksum === undefined;
    });
  // Nothing to do is found without a lock or a statement on the cluster: every start after the first.
  if (await schemaExists(engine, database)) {
    if (missing(await applied()).length === 0) return [];
  }
  return exclusive(async () => {
    await engine.command(new Sql(`CREATE DATABASE IF NOT EXISTS ${db.text}${on}`));
    for (const statement of form(`CREATE TABLE IF NOT EXISTS ${db.text}.schema_migrations
      (version String, name String, checksum String, applied_at DateTime('UTC'))
      ENGINE = MergeTree ORDER BY version`)) {
      await engine.command(new Sql(statement));
    }
    const done: string[] = [];
    for (const m of missing(await applied())) {
      for (const statement of m.statements) {
        for (const s of form(statement.replaceAll('{db}', db.text))) await engine.command(new Sql(s));
      }
      await engine.insert(sql`${db}.schema_migrations`, [
        { version: m.version, name: m.name, checksum: m.checksum, applied_at: formatDateTime(new Date()) },
      ]);
      done.push(m.name);
    }
    return done;
  });
}

async function schemaExists(engine: ClickHouseEngine, database: string): Promise<boolean> {
  const rows = await engine.query(sql`SELECT 1 FROM system.tables WHERE database = ${database} AND name = 'schema_migrations'`);
  return rows.length > 0;
}
