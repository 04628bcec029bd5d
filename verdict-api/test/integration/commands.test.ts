// The service's own commands as an operator runs them: admin commands create an account,
// project and token; `serve` answers over a real port; embedded data survives a restart.
import { afterAll, describe, expect, it } from '@jest/globals';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { sql } from '../../src/sql/bind.js';
import { openEmbeddedEngine } from '../../src/storage/embedded-engine.js';
import { database } from '../../src/storage/database.js';
import { migrate } from '../../src/storage/migrate.js';
import { createAccount, getAccount } from '../../src/accounts/accounts.js';
import { serverUrl } from '../support/engines.js';
import { AUTH_TTL_MS } from '../../src/storage/read-cache.js';
import { openServerEngine } from '../../src/storage/server-engine.js';
import { accessAudit } from '../../src/accounts/access-audit.js';
import { getProjectByHandle } from '../../src/accounts/projects.js';

const BIN = fileURLToPath(new URL('../../bin/verdict-api.js', import.meta.url));
const run = promisify(execFile);

describe('verdict-api commands against a clickhouse-server', () => {
  const env = { ...process.env, CLICKHOUSE_URL: serverUrl(), CLICKHOUSE_DATABASE: `cmd_${randomBytes(4).toString('hex')}`, LOG_LEVEL: 'warn' };
  const admin = async (...args: string[]) => JSON.parse((await run(process.execPath, [BIN, 'admin', ...args], { env })).stdout);
  let serve: ReturnType<typeof spawn> | null = null;
  afterAll(() => {
    serve?.kill('SIGTERM');
  });

  it('creates an account (not entitled by default), a project and a token, and serves them over a port', async () => {
    const account = await admin('create-account', '--name', 'Acme');
    expect(account.stressGateEntitled).toBe(false);
    const project = await admin('create-project', '--account', account.accountId, '--handle', 'shop', '--default-branch', 'main');
    const { token } = await admin('create-token', '--project', 'shop');
    expect(token).toMatch(/^sgm_/); // a merge-request token unless --scope default-branch

    serve = spawn(process.execPath, [BIN, 'serve'], { env: { ...env, VERDICT_API_PORT: '0', STRESS_GATE_VERDICT_CONCURRENCY: '2' }, stdio: ['ignore', 'pipe', 'pipe'] });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      serve!.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      serve!.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
    });
    const verdict = async () =>
      (await fetch(`${url}/api/v1/projects/shop/verdict`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ testCases: [{ module: ':app', suite: 'S', name: 'n', durationMs: 1 }] }),
      }).then((r) => r.json())) as { entitled: boolean; projectId: string; requestId?: string };
    expect(await verdict()).toMatchObject({ entitled: false, projectId: project.projectId });
    await admin('entitle', '--account', account.accountId);
    // Another process wrote it: the server trusts its authentication reads for AUTH_TTL_MS.
    await new Promise((r) => setTimeout(r, AUTH_TTL_MS + 50));
    expect((await verdict()).entitled).toBe(true);
    const ready = await fetch(`${url}/readyz`);
    expect(await ready.json()).toEqual({ status: 'ready', engine: 'server' });
    expect(ready.headers.get('x-request-id')).toMatch(/.+/);
  });

  it('creates, lists and revokes a viewer credential of a project, and the audit names the command', async () => {
    const created = await admin('create-viewer', '--project', 'shop', '--name', 'team-checkout');
    expect(created).toMatchObject({ project: 'shop', name: 'team-checkout', credential: expect.stringMatching(/^sgv_/) });
    expect((await admin('list-viewers', '--project', 'shop')).viewers).toEqual([expect.objectContaining({ viewerId: created.viewerId, name: 'team-checkout', revoked: false })]);
    expect(await admin('revoke-viewer', '--project', 'shop', '--viewer-id', created.viewerId)).toMatchObject({ viewerId: created.viewerId, revoked: true });
    const db = database(openServerEngine({ url: serverUrl() }), env.CLICKHOUSE_DATABASE);
    try {
      expect((await accessAudit(db, (await getProjectByHandle(db, 'shop'))!.projectId, 'viewer')).map((e) => [e.action, e.actor])).toEqual([['revoked', 'cli'], ['created', 'cli']]);
    } finally {
      await db.engine.close();
    }
  });

  it('refuses to start with a bad setting, naming it', async () => {
    const failed = await run(process.execPath, [BIN, 'serve'], { env: { ...env, VERDICT_API_PORT: '0', STRESS_GATE_VERDICT_CONCURRENCY: '0' } }).catch((e: { code: number; stderr: string }) => e);
    expect((failed as { code: number }).code).not.toBe(0);
    expect((failed as { stderr: string }).stderr).toContain('STRESS_GATE_VERDICT_CONCURRENCY: must be >= 1');
  });

  it('refuses an unknown command with a usage error (exit 2)', async () => {
    const failed = await run(process.execPath, [BIN, 'frobnicate'], { env }).catch((e: { code: number; stderr: string }) => e);
    expect(failed).toMatchObject({ code: 2 });
    expect((failed as { stderr: string }).stderr).toContain('unknown command "frobnicate"');
  });
});

describe('embedded chDB data directory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stress-gate-persist-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps its data across a restart', async () => {
    const first = openEmbeddedEngine(dir);
    const db = database(first, 'persist');
    await migrate(first, 'persist');
    const account = await createAccount(db, "O'Kept", true);
    await first.close();

    const second = openEmbeddedEngine(dir);
    const again = database(second, 'persist');
    expect(await migrate(second, 'persist')).toEqual([]);
    expect(await getAccount(again, account.accountId)).toEqual(account);
    const tables = await second.query<{ name: string }>(sql`SELECT name FROM system.tables WHERE database = 'persist' ORDER BY name`);
    expect(tables.map((t) => t.name)).toContain('test_case_branch_presence');
    await second.close();
  });

  it('is released when close() resolves, though a query was still running on it', async () => {
    // A client that gives up leaves its query running; chDB defers the connection's teardown
    // behind it. Another data directory (the next test file's, the next demo) must open at once.
    const busy = openEmbeddedEngine(join(dir, 'busy'));
    const running = busy.query(sql`SELECT sum(number) AS s FROM numbers(400000000)`).catch((e: Error) => e);
    await busy.close();
    const next = openEmbeddedEngine(join(dir, 'next'));
    expect(await next.query<{ one: number }>(sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]);
    await next.close();
    await running;
  });
});
