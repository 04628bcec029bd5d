// Embedded ClickHouse (chDB) in this process: the default, so the whole system runs on a laptop.
import { mkdirSync } from 'node:fs';
import { drainPending, Session } from 'chdb';
import { StorageError, StorageUnavailableError } from '../errors/errors.js';
import { type Sql } from '../sql/bind.js';
import { type ClickHouseEngine, MAX_QUERY_SIZE } from './engine.js';
import { encodeInsert, type InsertRows } from './tab-separated.js';

/** Opens chDB on a data directory kept across restarts. chDB allows one data directory per process. */
export function openEmbeddedEngine(dataDir: string): ClickHouseEngine {
  mkdirSync(dataDir, { recursive: true });
  let session: Session | null = new Session(dataDir, {
    // Load databases before the first query rather than in the background: the API's first
    // request must see the tables the migrations created on an earlier start.
    connectionArgs: ['--async_load_databases=0', `--max_query_size=${MAX_QUERY_SIZE}`],
  });

  const live = (): Session => {
    if (!session?.open) throw new StorageUnavailableError('the embedded ClickHouse session is closed');
    return session;
  };
  const run = async (text: string, format?: string): Promise<string> => {
    const s = live();
    try {
      return (await s.queryAsync(text, format ? { format } : {})).text();
    } catch (error) {
      throw new StorageError(`embedded ClickHouse: ${(error as Error).message}`, { cause: error });
    }
  };

  return {
    kind: 'embedded',
    async command(statement: Sql) {
      await run(statement.text);
    },
    async query<Row>(statement: Sql) {
      return parseJsonEachRow<Row>(await run(statement.text, 'JSONEachRow'));
    },
    async insert(table: Sql, rows: InsertRows) {
      const s = live();
      try {
        const encoded = encodeInsert(rows);
        if (encoded === null) return;
        await s.insert({ table: table.text.replaceAll('`', ''), values: encoded.body, format: 'TabSeparated', columns: encoded.columns });
      } catch (error) {
        throw new StorageError(`embedded ClickHouse insert into ${table.text}: ${(error as Error).message}`, { cause: error });
      }
    },
    async ping() {
      await run('SELECT 1');
    },
    async close() {
      session?.close();
      session = null;
      // chDB defers a connection's teardown behind queries still running on it (a request the
      // client gave up on), and until then the process's one data directory stays bound: a session
      // opened elsewhere right after would be refused. Closed means released.
      await drainPending();
    },
  };
}

/** Parses JSONEachRow text into rows. */
export function parseJsonEachRow<Row>(text: string): Row[] {
  const rows: Row[] = [];
  for (const line of text.split('\n')) if (line.trim() !== '') rows.push(JSON.parse(line) as Row);
  return rows;
}
