// A ClickHouse server over HTTP through @clickhouse/client: production. CI runs Debian's 18.16,
// which rejects query parameters, so statements arrive fully bound (see sql/bind.ts).
import { ClickHouseLogLevel, createClient, type ClickHouseClient } from '@clickhouse/client';
import { StorageError, StorageUnavailableError } from '../errors/errors.js';
import { type Sql } from '../sql/bind.js';
import { Readable } from 'node:stream';
import { type ClickHouseEngine, MAX_QUERY_SIZE } from './engine.js';
import { encodeInsert, type InsertRows } from './tab-separated.js';

export interface ServerEngineOptions {
  url: string;
  requestTimeoutMs?: number;
}

/** Connects to a ClickHouse server. The URL may carry user and password (http://u:p@host:8123). */
export function openServerEngine(options: ServerEngineOptions): ClickHouseEngine {
  const client: ClickHouseClient = createClient({
    url: options.url,
    request_timeout: options.requestTimeoutMs ?? 30_000,
    clickhouse_settings: { max_query_size: String(MAX_QUERY_SIZE) as never },
    // 18.16 does not know the settings newer clients send by default.
    compression: { request: false, response: false },
    // Failures surface as errors the service logs itself; the client's own logger would repeat them.
    log: { level: ClickHouseLogLevel.OFF },
  });

  const wrap = async <T>(what: string, action: () => Promise<T>): Promise<T> => {
    try {
      return await action();
    } catch (error) {
      throw classify(what, error);
    }
  };

  return {
    kind: 'server',
    async command(statement: Sql) {
      await wrap('command', () => client.command({ query: statement.text }));
    },
    async query<Row>(statement: Sql) {
      return wrap('query', async () => {
        const result = await client.query({ query: statement.text, format: 'JSONEachRow' });
        return result.json<Row>();
      });
    },
    async insert(table: Sql, rows: InsertRows) {
      const encoded = encodeInsert(rows);
      if (encoded === null) return;
      const { columns, body } = encoded;
      await wrap(`insert into ${table.text}`, () =>
        client.insert({ table: table.text, values: Readable.from([body], { objectMode: false }), format: 'TabSeparated', columns: columns as [string, ...string[]] }),
      );
    },
    async ping() {
      const result = await client.ping();
      if (!result.success) throw classify('ping', result.error);
    },
    async close() {
      await client.close();
    },
  };
}

const UNAVAILABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_SOCKET']);

/** A network fault is "unavailable" (503, retry later); anything ClickHouse said is a StorageError. */
function classify(what: string, error: unknown): Error {
  const e = error as { code?: string; message?: string; cause?: { code?: string } };
  const code = e.code ?? e.cause?.code;
  const message = e.message ?? String(error);
  if ((code && UNAVAILABLE.has(code)) || /timeout|socket hang up|ECONNREFUSED/i.test(message)) {
    return new StorageUnavailableError(`ClickHouse server unreachable (${what}): ${message}`, { cause: error });
  }
  return new StorageError(`ClickHouse server (${what}): ${message}`, { cause: error });
}
