// Cluster mode (CLICKHOUSE_CLUSTER): the same tables, laid out over a ClickHouse cluster of
// shards of replicas. Two kinds of table:
//
// - whole on every node: the small tables that say who a caller is and what a project is set to
//   (accounts, projects, tokens, viewers, sessions, settings, webhooks). Each node holds a replica,
//   so a request is authenticated by the node the API talks to, whatever shard is down.
// - sharded by project: everything else. Each is a Replicated*MergeTree `<name>_local` on every
//   node of a shard, and `<name>` is a Distributed table over them, with the sharding key
//   `halfMD5(toString(project_id))`: all of one project's rows live on one shard. A project's
//   own requests (database.ts `forProject`) read that shard's replicas only, so a verdict touches
//   one shard and a shard that is down fails only its own projects.
//
// The migrations are written once, for one node; `clusterStatements` turns each into its cluster
// form, ON CLUSTER, so that the same queries run on one node and on the cluster.
import { createHash } from 'node:crypto';
import { StorageError } from '../errors/errors.js';
import { ident, quoteString, sql } from '../sql/bind.js';
import type { ClickHouseEngine } from './engine.js';

/** The tables kept whole on every node (a replica each); every other table is sharded by project. */
export const WHOLE_ON_EVERY_NODE: ReadonlySet<string> = new Set([
  'schema_migrations',
  'accounts',
  'projects',
  'api_tokens',
  'api_token_names',
  'api_token_scopes',
  'admin_credentials',
  'sessions',
  'settings_audit',
  'viewer_credentials',
  'access_audit',
  'account_usage',
  'project_handle_claims',
  'project_stress_flags',
  'project_order_flags',
  'project_modified_flags',
  'webhooks',
]);

/** The sharding key of every sharded table: computed here too (`shardOfProject`), so keep them equal. */
export const SHARDING_KEY = 'halfMD5(toString(project_id))';

/** The local (per-shard) table behind the Distributed table `name`. */
export const localName = (name: string): string => `${name}_local`;

/**
 * The shard a project's rows go to: Distributed sends a row to shard `key % shards` (all weights
 * 1, shards in the order `remote_servers` lists them). halfMD5 of one string is the first 8 bytes
 * of its MD5, big-endian.
 */
export function shardOfProject(projectId: string, shards: number): number {
  const key = createHash('md5').update(projectId.toLowerCase()).digest().readBigUInt64BE(0);
  return Number(key % BigInt(shards));
}

const CREATE_TABLE = /^CREATE TABLE IF NOT EXISTS (\S+)\.(\w+)\s*(\([\s\S]*\))\s*ENGINE\s*=\s*(\w*MergeTree)(?:\(([^)]*(?:\([^)]*\)[^)]*)*)\))?([\s\S]*)$/;
const CREATE_VIEW = /^CREATE MATERIALIZED VIEW IF NOT EXISTS (\S+)\.(\w+) TO (\S+)\.(\w+)\s+AS\s+([\s\S]*)$/;
const DROP_TABLE = /^DROP TABLE IF EXISTS (\S+)\.(\w+)$/;

/**
 * One migration statement (its `{db}` already the database) in its cluster form: a table becomes
 * a replicated table ON CLUSTER (and a Distributed table over it when sharded); a materialized
 * view reads and writes the local tables of its node; a drop drops on every node. Anything else
 * is refused: a migration that cannot be laid out on the cluster must say how, not run on one node.
 */
export function clusterStatements(statement: string, cluster: string, database: string): string[] {
  const on = `ON CLUSTER ${ident(cluster).text}`;
  const dbName = ident(database).text;
  const table = CREATE_TABLE.exec(statement);
  if (table) {
    const [, db, name, columns, engine, args, rest] = table as unknown as [string, string, string, string, string, string | undefined, string];
    const whole = WHOLE_ON_EVERY_NODE.has(name);
    if (!whole && !/\bproject_id\b/.test(columns)) throw new StorageError(`cluster mode: table ${name} has no project_id to shard by; add it to WHOLE_ON_EVERY_NODE or give it a project_id`);
    const local = whole ? name : localName(name);
    const path = quoteString(`/clickhouse/tables/${database}/${whole ? 'whole' : '{shard}'}/${name}`);
    const replicatedArgs = [path, `'{replica}'`, ...(args?.trim() ? [args.trim()] : [])].join(', ');
    const statements = [`CREATE TABLE IF NOT EXISTS ${db}.${local} ${on} ${columns} ENGINE = Replicated${engine}(${replicatedArgs})${rest}`];
    if (!whole) statements.push(`CREATE TABLE IF NOT EXISTS ${db}.${name} ${on} AS ${db}.${local} ENGINE = Distributed(${ident(cluster).text}, ${dbName}, ${local}, ${SHARDING_KEY})`);
    return statements;
  }
  const view = CREATE_VIEW.exec(statement);
  if (view) {
    const [, db, name, toDb, to, select] = view as unknown as [string, string, string, string, string, string];
    if (WHOLE_ON_EVERY_NODE.has(to)) throw new StorageError(`cluster mode: materialized view ${name} writes ${to}, which is on every node; a view must write a sharded table`);
    // The view fires on the node an insert lands on and writes that node's shard: its source and
    // target are sharded by the same key, so a project's derived rows stay on its shard.
    const localSelect = select.replace(/\bFROM (\S+)\.(\w+)/g, (whole, fromDb: string, from: string) => (WHOLE_ON_EVERY_NODE.has(from) ? whole : `FROM ${fromDb}.${localName(from)}`));
    return [`CREATE MATERIALIZED VIEW IF NOT EXISTS ${db}.${name} ${on} TO ${toDb}.${localName(to)} AS ${localSelect}`];
  }
  const drop = DROP_TABLE.exec(statement);
  if (drop) return [`${statement} ${on}`];
  throw new StorageError(`cluster mode: cannot lay out this migration statement on a cluster: ${statement.slice(0, 120)}`);
}

/** One shard of the cluster: its replicas' native-protocol addresses (host:port), in order. */
export interface Shard {
  num: number;
  replicas: string[];
}

/** The cluster as the node the API talks to knows it (system.clusters). */
export async function loadShards(engine: ClickHouseEngine, cluster: string): Promise<Shard[]> {
  const rows = await engine.query<{ shard_num: unknown; host_address: string; port: unknown }>(
    sql`SELECT shard_num, host_address, port FROM system.clusters WHERE cluster = ${cluster} ORDER BY shard_num, replica_num`,
  );
  if (rows.length === 0) throw new StorageError(`CLICKHOUSE_CLUSTER=${cluster}: the ClickHouse server has no such cluster in its remote_servers`);
  const shards = new Map<number, string[]>();
  for (const r of rows) {
    const num = Number(r.shard_num);
    (shards.get(num) ?? shards.set(num, []).get(num)!).push(`${r.host_address}:${Number(r.port)}`);
  }
  return [...shards.entries()].sort(([a], [b]) => a - b).map(([num, replicas]) => ({ num, replicas }));
}
