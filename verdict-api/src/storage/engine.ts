// What the store needs from a ClickHouse: statements, JSONEachRow reads and inserts. Two
// real implementations stand behind it: embedded chDB and a server over HTTP.
import type { Sql } from '../sql/bind.js';
import type { InsertRows } from './tab-separated.js';

export type EngineKind = 'embedded' | 'server';

/** A ClickHouse that runs SQL in the dialect common to 18.16 and 26.x. */
export interface ClickHouseEngine {
  readonly kind: EngineKind;
  /** The cluster its tables are laid out over (cluster.ts); undefined for one node. */
  readonly cluster?: string;
  /** On a cluster: `, 'user', 'password'` for remote() to reach the other nodes as this engine's user ('' for default). */
  readonly remoteCredentials?: string;
  /** Runs a statement that returns no rows (DDL, ALTER). */
  command(statement: Sql): Promise<void>;
  /** Runs a SELECT and returns its rows (JSONEachRow). Omit the FORMAT clause. */
  query<Row = Record<string, unknown>>(statement: Sql): Promise<Row[]>;
  /** Inserts rows (all with the same keys, or encoded by a TsvWriter) into a database-qualified table, as TabSeparated. */
  insert(table: Sql, rows: InsertRows): Promise<void>;
  /** Resolves when the engine answers; rejects with StorageUnavailableError otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Large verdict requests carry their identities in one string literal (see verdict/new-identities),
 * which needs more than ClickHouse's default 256 KiB of query text.
 */
export const MAX_QUERY_SIZE = 64 * 1024 * 1024;
