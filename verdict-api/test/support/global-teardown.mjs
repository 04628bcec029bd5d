import { removeServerDir } from './clickhouse-server.mjs';

export default async function globalTeardown() {
  const server = globalThis.__stressGateClickHouse;
  if (server) {
    await server.stop();
    removeServerDir(server);
  }
}
