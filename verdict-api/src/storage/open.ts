// Opens the configured engine and database, and applies migrations with retry on start-up.
import type { Config } from '../config/config.js';
import { StorageUnavailableError } from '../errors/errors.js';
import type { Logger } from '../log/logger.js';
import { type Database, database } from './database.js';
import { openEmbeddedEngine } from './embedded-engine.js';
import { migrate } from './migrate.js';
import { openZooKeeperCoordinator } from './coordinator.js';
import { defaultKeyFile, loadSecretBox } from './secret-box.js';
import { openServerEngine } from './server-engine.js';

export function openDatabase(
  config: Pick<Config, 'CLICKHOUSE_URL' | 'CLICKHOUSE_CLUSTER' | 'CLICKHOUSE_DATABASE' | 'STRESS_GATE_ZOOKEEPER' | 'STRESS_GATE_DATA_DIR' | 'STRESS_GATE_SECRETS_KEY' | 'STRESS_GATE_SECRETS_KEY_FILE'>,
): Database {
  const engine = config.CLICKHOUSE_URL
    ? openServerEngine({ url: config.CLICKHOUSE_URL, cluster: config.CLICKHOUSE_CLUSTER })
    : openEmbeddedEngine(config.STRESS_GATE_DATA_DIR);
  const secrets = loadSecretBox({ key: config.STRESS_GATE_SECRETS_KEY, keyFile: config.STRESS_GATE_SECRETS_KEY_FILE ?? defaultKeyFile(config.STRESS_GATE_DATA_DIR) });
  const coordinator = config.CLICKHOUSE_CLUSTER && config.STRESS_GATE_ZOOKEEPER ? openZooKeeperCoordinator(config.STRESS_GATE_ZOOKEEPER, config.CLICKHOUSE_DATABASE) : undefined;
  return database(engine, config.CLICKHOUSE_DATABASE, secrets, coordinator);
}

/** Applies the migrations; on a cluster under the coordinator's lock, one API instance at a time. */
export function migrateDatabase(db: Database): Promise<string[]> {
  const coordinator = db.coordinator;
  return migrate(db.engine, db.name, undefined, coordinator ? (work) => coordinator.exclusive('migrations', work) : undefined);
}

/**
 * A readiness gate: the first caller applies migrations; while ClickHouse is unreachable each
 * call tries again, so the service recovers by itself when the database returns.
 */
export function migrationGate(db: Database, log: Logger): () => Promise<void> {
  let done: Promise<void> | null = null;
  return () => {
    done ??= migrateDatabase(db).then(
      (applied) => {
        if (applied.length > 0) log.info({ applied }, 'migrations applied');
      },
      (error: unknown) => {
        done = null;
        if (error instanceof StorageUnavailableError) throw error;
        log.fatal({ err: error }, 'migrations failed');
        throw error;
      },
    );
    return done;
  };
}
