// ClickHouse going away: 503 with a clear message, and recovery without a restart.
import { afterAll, describe, expect, it } from '@jest/globals';
import { createServer } from 'node:net';
import { createApp } from '../../src/http/app.js';
import { silentLogger } from '../../src/log/logger.js';
import { database } from '../../src/storage/database.js';
import { migrationGate } from '../../src/storage/open.js';
import { openServerEngine } from '../../src/storage/server-engine.js';
import { type ClickHouseServer, removeServerDir, startClickHouseServer } from '../support/clickhouse-server.mjs';
import { seedProject } from '../support/api.js';
import { migrate } from '../../src/storage/migrate.js';

describe('ClickHouse server down and back', () => {
  let server: ClickHouseServer | null = null;
  afterAll(async () => {
    if (server) {
      await server.stop();
      removeServerDir(server);
    }
  });

  it('answers 503 while ClickHouse is down and recovers by itself when it returns', async () => {
    server = await startClickHouseServer();
    const engine = openServerEngine({ url: server.url, requestTimeoutMs: 5_000 });
    const db = database(engine, 'faults');
    await migrate(engine, 'faults');
    const p = await seedProject(db, 'faulty');
    const log = silentLogger();
    const app = createApp({ db, log, ready: migrationGate(db, log) });
    const settings = () => app.request(`/api/v1/projects/${p.handle}/settings`, { headers: { Authorization: `Bearer ${p.admin}` } });

    expect((await settings()).status).toBe(200);
    await server.stop();
    const down = await settings();
    expect(down.status).toBe(503);
    expect(((await down.json()) as any).error).toMatchObject({ code: 'STORAGE_UNAVAILABLE', message: expect.stringContaining('ClickHouse') });
    expect((await app.request('/readyz')).status).toBe(503);

    server = await startClickHouseServer({ port: server.port, dir: server.dir });
    expect((await settings()).status).toBe(200);
    expect((await app.request('/readyz')).status).toBe(200);
    await engine.close();
  });

  it('answers 503 when the API starts before ClickHouse is reachable at all', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port: p } = s.address() as { port: number };
        s.close(() => resolve(p));
      });
    });
    const engine = openServerEngine({ url: `http://127.0.0.1:${port}`, requestTimeoutMs: 2_000 });
    const db = database(engine, 'never');
    const log = silentLogger();
    const app = createApp({ db, log, ready: migrationGate(db, log) });
    const res = await app.request('/api/v1/projects/x/settings', { headers: { Authorization: 'Bearer sg_x' } });
    expect(res.status).toBe(503);
    await engine.close();
  });
});
