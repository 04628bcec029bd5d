// One ClickHouse database of the service: an engine and the name every table is qualified with.
import { leavesPresence } from './leaves-presence.js';
import { ident, quoteString, Sql } from '../sql/bind.js';
import { loadShards, localName, type Shard, shardOfProject, WHOLE_ON_EVERY_NODE } from './cluster.js';
import type { Coordinator } from './coordinator.js';
import type { ClickHouseEngine } from './engine.js';
import { ephemeralSecretBox, type SecretBox } from './secret-box.js';
import { ReadCache, scopeKey } from './read-cache.js';
import { type InsertRows, TsvRows } from './tab-separated.js';

export type TableName =
  | 'accounts'
  | 'projects'
  | 'api_tokens'
  | 'test_runs'
  | 'test_case_runs'
  | 'test_case_run_repetitions'
  | 'test_cases'
  | 'test_case_branch_presence'
  | 'gate_verdicts'
  | 'gate_candidates'
  | 'flaky_marks'
  | 'flaky_mark_history'
  | 'quarantines'
  | 'quarantine_audit'
  | 'webhooks'
  | 'webhook_deliveries'
  | 'admin_credentials'
  | 'api_token_names'
  | 'sessions'
  | 'settings_audit'
  | 'verdict_log'
  | 'verdict_log_candidates'
  | 'gate_timings'
  | 'gate_candidate_stats'
  | 'gate_failures'
  | 'gate_failure_groups'
  | 'gate_candidate_evidence'
  | 'gate_timing_sensitive'
  | 'gate_candidate_reproduce'
  | 'api_token_scopes'
  | 'run_claims'
  | 'project_handle_claims'
  | 'project_stress_flags'
  | 'viewer_credentials'
  | 'access_audit'
  | 'account_usage'
  | 'project_order_flags'
  | 'gate_order_probes'
  | 'gate_order_findings'
  | 'test_case_fingerprints'
  | 'project_modified_flags'
  | 'gate_candidate_origins'
  | 'gate_diffs'
  | 'gate_renamed';

/** The engine plus the database name; `t('projects')` is the qualified table. */
export interface Database {
  readonly engine: ClickHouseEngine;
  readonly name: string;
  t(table: TableName): Sql;
  /** Reads kept in this process (read-cache.ts); kept true by the engine this object wraps. */
  readonly cache: ReadCache;
  /** Seals the secrets stored here that must be read back (webhook secrets; secret-box.ts). */
  readonly secrets: SecretBox;
  /** On a cluster: where API instances claim what must be claimed once (coordinator.ts). */
  readonly coordinator?: Coordinator;
  /**
   * This database as one project's requests should use it: on a cluster, its sharded tables are
   * read on the project's shard only (cluster.ts), so a shard that is down fails only its own
   * projects; on one node, this database itself.
   */
  forProject(projectId: string): Promise<Database>;
}

/** Tables whose rows decide who a caller is. */
const AUTH_TABLES = new Set(['accounts', 'projects', 'project_stress_flags', 'project_order_flags', 'project_modified_flags', 'api_tokens', 'api_token_scopes', 'admin_credentials', 'viewer_credentials']);
/** Tables whose rows are (or make) branch presence: the known ids and inventories follow them. */
const PRESENCE_TABLES = new Set(['test_case_runs', 'test_case_branch_presence']);

/**
 * The database `name` on `engine`. Its engine is wrapped so that the read cache follows every
 * write this process makes: a write to an authentication table drops the cached grants, a test
 * case run adds its identity to the cached presence of its scope (a failed one makes the scope's
 * absences unknown again: it may have half happened), and any other statement
 * (DDL, a mutation, INSERT … SELECT) empties the cache. `secrets`: the configured key (open.ts);
 * by default one of this process only.
 */
export function database(engine: ClickHouseEngine, name: string, secrets: SecretBox = ephemeralSecretBox(), coordinator?: Coordinator): Database {
  const db = ident(name);
  // chDB locks its data directory to one process, and within it the service opens one Database
  // (open.ts): its presence is written through here only, so a scope may be held whole.
  const cache = new ReadCache(engine.kind === 'embedded');
  const prefix = `${db.text}.`;
  const tableOf = (table: Sql): string | null => (table.text.startsWith(prefix) ? table.text.slice(prefix.length).replaceAll('`', '') : null);
  const tracked: ClickHouseEngine = {
    get kind() {
      return engine.kind;
    },
    cluster: engine.cluster,
    remoteCredentials: engine.remoteCredentials,
    async command(statement) {
      try {
        await engine.command(statement);
      } finally {
        // A mutation of a table no cache reads (a sign-out deleting its session) leaves every
        // cache alone: it used to empty every account's caches. Any other statement empties them.
        const mutated = /^\s*ALTER\s+TABLE\s+(\S+)\s/i.exec(statement.text)?.[1];
        const name = mutated === undefined ? null : tableOf(new Sql(mutated));
        if (name !== null && AUTH_TABLES.has(name)) cache.auth.clear();
        else if (name === null || PRESENCE_TABLES.has(name)) cache.clear();
      }
    },
    query: (statement) => engine.query(statement),
    async insert(table, rows) {
      const name = tableOf(table);
      if (name !== null && AUTH_TABLES.has(name)) cache.auth.clear();
      let written = false;
      try {
        await engine.insert(table, rows);
        written = true;
      } finally {
        if (name !== null && AUTH_TABLES.has(name)) cache.auth.clear();
        // Only rows ClickHouse acknowledged become known; a failed insert just loses the hint.
        if (name === 'test_case_runs') notePresence(cache, rows, written);
        else if (name === 'test_case_branch_presence') cache.clear();
      }
    },
    ping: () => engine.ping(),
    close: () => engine.close(),
  };
  const t = (table: TableName) => new Sql(`${db.text}.${ident(table).text}`);
  const whole: Database = { engine: tracked, name, t, cache, secrets, coordinator, forProject: async () => whole };
  if (engine.cluster === undefined) return whole;
  whole.forProject = onShardOf(whole, engine.cluster);
  return whole;
}

/**
 * `forProject` of a database on a cluster: the project's shard (cluster.ts shardOfProject), read
 * through remote() over its replicas, which fails over between them in order. Its writes still go
 * through the Distributed tables (written to the shard before they are acknowledged).
 */
function onShardOf(whole: Database, cluster: string): (projectId: string) => Promise<Database> {
  let shards: Promise<Shard[]> | null = null;
  const views = new Map<number, Database>();
  const view = (shard: Shard): Database => {
    // Each sharded table's remote() once per shard (the verdict's lookups ask for it on every
    // query), and the Distributed table its inserts go through.
    const remote = new Map<TableName, Sql>();
    const back = new Map<string, Sql>();
    const t = (table: TableName): Sql => {
      if (WHOLE_ON_EVERY_NODE.has(table)) return whole.t(table);
      let on = remote.get(table);
      if (on === undefined) {
        on = new Sql(`remote(${quoteString(shard.replicas.join('|'))}, ${ident(whole.name).text}, ${ident(localName(table)).text}${whole.engine.remoteCredentials ?? ''})`);
        remote.set(table, on);
        back.set(on.text, whole.t(table));
      }
      return on;
    };
    const engine: ClickHouseEngine = { ...whole.engine, insert: (table, rows) => whole.engine.insert(back.get(table.text) ?? table, rows) };
    return { ...whole, engine, t };
  };
  return async (projectId) => {
    shards ??= loadShards(whole.engine, cluster).catch((error: unknown) => {
      shards = null;
      throw error;
    });
    const list = await shards;
    const shard = list[shardOfProject(projectId, list.length)]!;
    return views.get(shard.num) ?? views.set(shard.num, view(shard)).get(shard.num)!;
  };
}

/** Test case runs that leave presence (storage/leaves-presence.ts, migration 0010) are known in their scope. */
function notePresence(cache: ReadCache, rows: InsertRows, written: boolean): void {
  const byScope = ranByScope(rows);
  // Encoded rows that do not say what ran are not trusted to be none.
  if (byScope === null) return cache.clear();
  for (const [key, ids] of byScope) {
    cache.inventory.delete(key);
    if (written) cache.known.addIfCached(key, ids);
    else cache.known.incomplete(key);
  }
}

/** The ids of rows that ran, by presence scope; null for encoded rows that do not tell. */
function ranByScope(rows: InsertRows): Map<string, readonly string[]> | null {
  if (rows instanceof TsvRows) {
    if (rows.presence === undefined) return null;
    const { projectId, branch, isCi, ranIds } = rows.presence;
    return new Map(rows.count === 0 ? [] : [[scopeKey(projectId, branch, isCi), ranIds]]);
  }
  const byScope = new Map<string, string[]>();
  for (const r of rows) {
    if (!leavesPresence(r['status'])) continue;
    const key = scopeKey(String(r['project_id']), String(r['git_branch']), Number(r['is_ci']));
    (byScope.get(key) ?? byScope.set(key, []).get(key)!).push(String(r['test_case_id']));
  }
  return byScope;
}

/** ClickHouse 18.16 prints 64-bit integers as JSON strings; newer engines as numbers. */
export const num = (value: unknown): number => Number(value);
