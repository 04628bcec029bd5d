// Starts one clickhouse-server for the integration run; every test file makes its own database.
import { startClickHouseServer } from './clickhouse-server.mjs';

export default async function globalSetup() {
  if (process.env.STRESS_GATE_TEST_CLICKHOUSE_URL) return; // an existing server was given
  const server = await startClickHouseServer();
  process.env.STRESS_GATE_TEST_CLICKHOUSE_URL = server.url;
  globalThis.__stressGateClickHouse = server;
}
