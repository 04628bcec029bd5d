// Every storage test runs on both real engines: embedded chDB and a clickhouse-server.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { type Database, database } from '../../src/storage/database.js';
import type { EngineKind } from '../../src/storage/engine.js';
import { openEmbeddedEngine } from '../../src/storage/embedded-engine.js';
import { openServerEngine } from '../../src/storage/server-engine.js';
import { migrate } from '../../src/storage/migrate.js';

export const ENGINES: EngineKind[] = ['embedded', 'server'];

export function serverUrl(): string {
  const url = process.env.STRESS_GATE_TEST_CLICKHOUSE_URL;
  if (!url) throw new Error('STRESS_GATE_TEST_CLICKHOUSE_URL is not set: the integration global setup starts clickhouse-server');
  return url;
}

export interface TestDatabase {
  db: Database;
  close(): Promise<void>;
}

/** A fresh, migrated database of its own on the given engine (chDB: a temp data dir too). */
export async function openTestDatabase(kind: EngineKind, migrated = true): Promise<TestDatabase> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  if (kind === 'server') {
    const engine = openServerEngine({ url: serverUrl() });
    const db = database(engine, name);
    if (migrated) await migrate(engine, name);
    return {
      db,
      close: async () => {
        await engine.command(new (await import('../../src/sql/bind.js')).Sql(`DROP DATABASE IF EXISTS \`${name}\``));
        await engine.close();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'stress-gate-chdb-'));
  const engine = openEmbeddedEngine(dir);
  const db = database(engine, name);
  if (migrated) await migrate(engine, name);
  return {
    db,
    close: async () => {
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
