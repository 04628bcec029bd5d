// Moving a single-node install onto a cluster, nothing lost: every table's rows are copied from
// the old server with remote() (run by the node this engine talks to), then compared. The target
// is migrated first (its layout is the cluster's); the source must be at the same migrations.
import { StorageError } from '../errors/errors.js';
import { ident, quoteString, Sql, sql } from '../sql/bind.js';
import type { Database } from './database.js';

/** The old server's native-protocol address, and the user remote() reaches it as. */
export interface CopySource {
  /** host:port of its native protocol (9000 by default), as remote() takes it. */
  address: string;
  database: string;
  user?: string;
  password?: string;
}

export interface CopiedTable {
  table: string;
  /** Rows in the source. */
  source: number;
  /** Distinct rows in the target after the copy: equal to the source's distinct rows. */
  target: number;
}

/** The tables the materialized views write: copying the runs also writes their rows again (the same rows). */
const VIEW_TARGETS = new Set(['test_cases', 'test_case_branch_presence']);

/**
 * Copies every table of `source` into `db` and checks each: the same number of distinct rows on
 * both sides (rows the views write twice are the same row twice, which every reader counts once).
 * Throws naming the first table that differs; returns what was copied.
 */
export async function copyFrom(db: Database, source: CopySource, log: (line: string) => void = () => undefined): Promise<CopiedTable[]> {
  const credentials = source.user === undefined ? '' : `, ${quoteString(source.user)}, ${quoteString(source.password ?? '')}`;
  const remote = (database: string, table: string) => new Sql(`remote(${quoteString(source.address)}, ${ident(database).text}, ${ident(table).text}${credentials})`);
  const versions = async (from: Sql) => (await db.engine.query<{ v: string }>(sql`SELECT DISTINCT version AS v FROM ${from} ORDER BY v`)).map((r) => r.v).join(',');
  const [theirs, ours] = await Promise.all([versions(remote(source.database, 'schema_migrations')), versions(sql`${ident(db.name)}.schema_migrations`)]);
  if (theirs !== ours) throw new StorageError(`copy-from: the source is at migrations ${theirs || 'none'}, this database at ${ours}: start this version of the API on the source once first`);
  const tables = await db.engine.query<{ name: string }>(sql`
    SELECT name FROM ${remote('system', 'tables')}
    WHERE database = ${source.database} AND engine NOT IN ('MaterializedView', 'View') AND name != 'schema_migrations'
    ORDER BY name`);
  const distinct = async (from: Sql) => Number((await db.engine.query<{ n: unknown }>(sql`SELECT count() AS n FROM (SELECT DISTINCT * FROM ${from})`))[0]!.n);
  const copied: CopiedTable[] = [];
  for (const { name } of tables) {
    const target = sql`${ident(db.name)}.${ident(name)}`;
    const before = Number((await db.engine.query<{ n: unknown }>(sql`SELECT count() AS n FROM ${target}`))[0]!.n);
    if (before > 0 && !VIEW_TARGETS.has(name)) throw new StorageError(`copy-from: ${db.name}.${name} already holds ${before} rows; copy into a fresh database`);
    await db.engine.command(sql`INSERT INTO ${target} SELECT * FROM ${remote(source.database, name)}`);
    const sourceRows = Number((await db.engine.query<{ n: unknown }>(sql`SELECT count() AS n FROM ${remote(source.database, name)}`))[0]!.n);
    const [theirsDistinct, oursDistinct] = await Promise.all([distinct(remote(source.database, name)), distinct(target)]);
    if (theirsDistinct !== oursDistinct) throw new StorageError(`copy-from: ${name}: ${theirsDistinct} distinct rows in the source, ${oursDistinct} here after the copy`);
    copied.push({ table: name, source: sourceRows, target: oursDistinct });
    log(`${name}: ${sourceRows} rows copied, ${oursDistinct} distinct on both sides`);
  }
  return copied;
}
