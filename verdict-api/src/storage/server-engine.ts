// A ClickHouse server over HTTP through @clickhouse/client: production. CI runs Debian's 18.16,
// which rejects query parameters, so statements arrive fully bound (see sql/bind.ts).
import { ClickHouseError, ClickHouseLogLevel, createClient, type ClickHouseClient } from '@clickhouse/client';
import { StorageError, StorageUnavailableError } from '../errors/errors.js';
import { quoteString, type Sql } from '../sql/bind.js';
import { Readable } from 'node:stream';
import { type ClickHouseEngine, MAX_QUERY_SIZE } from './engine.js';
import { encodeInsert, type InsertRows } from './tab-separated.js';

export interface ServerEngineOptions {
  /** One URL, or several separated by commas: the nodes of a cluster, tried in this order. */
  url: string;
  requestTimeoutMs?: number;
  /** The cluster (remote_servers) the tables are laid out over (cluster.ts); none for one server. */
  cluster?: string;
}

/**
 * What a cluster's statements run with. Inserts into a Distributed table are written to the
 * shard's replica before they are acknowledged (not queued on the node asked); reads and writes
 * go to the first healthy replica of a shard in the order remote_servers lists them, so a write
 * is read back from the replica it went to; a replica more than 10 s behind is not read while
 * another is up to date (it is catching up after a failure); a subquery of a Distributed table
 * inside a distributed query reads the local table of the shard it runs on (the tables are
 * sharded by the same key, so that is the whole answer).
 */
const CLUSTER_SETTINGS = {
  insert_distributed_sync: '1',
  load_balancing: 'in_order',
  max_replica_delay_for_distributed_queries: '10',
  distributed_product_mode: 'local',
  skip_unavailable_shards: '0',
};

/** How long a node that refused a connection is passed over before it is tried again. */
const NODE_RETRY_MS = 2_000;

/**
 * Connects to a ClickHouse server, or to the first reachable of several nodes (a cluster). The
 * URL may carry user and password (http://u:p@host:8123). A node that cannot be reached is passed
 * over for two seconds and the statement goes to the next; every API instance given the same list
 * talks to the same node while it is up, so each reads what the others wrote to it.
 */
export function openServerEngine(options: ServerEngineOptions): ClickHouseEngine {
  const urls = options.url.split(',').map((u) => u.trim()).filter((u) => u !== '');
  const nodes = urls.map((url) => ({ url, client: clientFor(url, options), downUntil: 0 }));
  if (nodes.length === 0) throw new StorageError('CLICKHOUSE_URL names no server');

  const wrap = async <T>(what: string, action: (client: ClickHouseClient) => Promise<T>): Promise<T> => {
    const now = Date.now();
    const order = [...nodes.filter((n) => n.downUntil <= now), ...nodes.filter((n) => n.downUntil > now)];
    let last: Error | undefined;
    for (const node of order) {
      try {
        const result = await action(node.client);
        node.downUntil = 0;
        return result;
      } catch (error) {
        last = classify(what, error, nodes.length > 1 ? node.url : undefined);
        // Only a node that could not be reached is passed over; what a node answered is the answer.
        if (!(last instanceof StorageUnavailableError) || !unreachable(error)) throw last;
        node.downUntil = Date.now() + NODE_RETRY_MS;
      }
    }
    throw last!;
  };

  return {
    kind: 'server',
    cluster: options.cluster,
    remoteCredentials: remoteCredentials(urls[0]!),
    async command(statement: Sql) {
      await wrap('command', (client) => client.command({ query: statement.text }));
    },
    async query<Row>(statement: Sql) {
      return wrap('query', async (client) => {
        const result = await client.query({ query: statement.text, format: 'JSONEachRow' });
        return result.json<Row>();
      });
    },
    async insert(table: Sql, rows: InsertRows) {
      const encoded = encodeInsert(rows);
      if (encoded === null) return;
      const { columns, body } = encoded;
      await wrap(`insert into ${table.text}`, (client) =>
        client.insert({ table: table.text, values: Readable.from([body], { objectMode: false }), format: 'TabSeparated', columns: columns as [string, ...string[]] }),
      );
    },
    async ping() {
      await wrap('ping', async (client) => {
        const result = await client.ping();
        if (!result.success) throw result.error;
      });
    },
    async close() {
      await Promise.all(nodes.map((n) => n.client.close()));
    },
  };
}

/** The user and password of a URL as remote()'s last arguments: the same user reaches the other nodes. */
function remoteCredentials(url: string): string {
  const { username, password } = new URL(url);
  return username === '' ? '' : `, ${quoteString(decodeURIComponent(username))}, ${quoteString(decodeURIComponent(password))}`;
}

function clientFor(url: string, options: ServerEngineOptions): ClickHouseClient {
  return createClient({
    url,
    request_timeout: options.requestTimeoutMs ?? 30_000,
    clickhouse_settings: { max_query_size: String(MAX_QUERY_SIZE), ...(options.cluster === undefined ? {} : CLUSTER_SETTINGS) } as never,
    // 18.16 does not know the settings newer clients send by default.
    compression: { request: false, response: false },
    // Failures surface as errors the service logs itself; the client's own logger would repeat them.
    log: { level: ClickHouseLogLevel.OFF },
  });
}

const UNAVAILABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_SOCKET']);
/** Refused before anything was sent: the statement can go to another node as it is. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * ClickHouse's error codes of a fault that passes: the statement may succeed when tried again
 * (a shard's replicas all unreachable, ZooKeeper lost so replicated tables are read-only, a
 * replica too far behind, a quorum not met, the server shutting down). 18.16 prints the code
 * (`Code: 242, e.displayText() = …`) but not the name the client parses newer servers' errors by.
 */
const TRANSIENT_CODES = new Set([
  159, // TIMEOUT_EXCEEDED
  209, // SOCKET_TIMEOUT
  210, // NETWORK_ERROR
  225, // NO_ZOOKEEPER
  242, // TABLE_IS_READ_ONLY
  244, // UNEXPECTED_ZOOKEEPER_ERROR
  279, // ALL_CONNECTION_TRIES_FAILED
  285, // TOO_FEW_LIVE_REPLICAS
  286, // UNSATISFIED_QUORUM_FOR_PREVIOUS_WRITE
  319, // UNKNOWN_STATUS_OF_INSERT
  999, // KEEPER_EXCEPTION
]);

const errorCode = (error: unknown): string | undefined => {
  const e = error as { code?: string; cause?: { code?: string } };
  return e.code ?? e.cause?.code;
};

const unreachable = (error: unknown): boolean => UNREACHABLE.has(errorCode(error) ?? '');

/**
 * The number ClickHouse's own error carries, or null for other errors: the client's typed error
 * (ClickHouseError, which it makes of a newer server's `Code: N. DB::Exception: … (TYPE)`), else
 * the code 18.16 prints first (`Code: 242, e.displayText() = …`), which the client cannot type.
 */
export function clickHouseCode(error: unknown): number | null {
  if (error instanceof ClickHouseError) return Number(error.code);
  const printed = /^Code: (\d+),/.exec((error as { message?: string }).message ?? '');
  return printed ? Number(printed[1]) : null;
}

/** A network fault or a passing ClickHouse fault is "unavailable" (503, retry later); anything else ClickHouse said is a StorageError. */
function classify(what: string, error: unknown, node?: string): Error {
  const message = (error as { message?: string }).message ?? String(error);
  const where = node === undefined ? what : `${what} on ${node.replace(/\/\/[^@/]*@/, '//')}`;
  const code = errorCode(error);
  const chCode = clickHouseCode(error);
  if (chCode !== null && TRANSIENT_CODES.has(chCode)) {
    return new StorageUnavailableError(`ClickHouse unavailable for now (${where}): ${message}`, { cause: error });
  }
  if ((code && UNAVAILABLE.has(code)) || /timeout|socket hang up|ECONNREFUSED/i.test(message)) {
    return new StorageUnavailableError(`ClickHouse server unreachable (${where}): ${message}`, { cause: error });
  }
  return new StorageError(`ClickHouse server (${where}): ${message}`, { cause: error });
}
