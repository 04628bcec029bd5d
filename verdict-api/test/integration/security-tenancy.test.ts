// Attack tests (issue 31, "one tenant cannot hurt another"): two accounts racing for one project
// handle; expired sessions left behind; one account's sign-outs emptying every account's caches.
// Real servers on ports, both engines.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createAccount } from '../../src/accounts/accounts.js';
import { createAdminCredential } from '../../src/accounts/admin-credentials.js';
import { openSession, SESSION_TTL_MS } from '../../src/accounts/sessions.js';
import { hashToken } from '../../src/accounts/tokens.js';
import { silentLogger } from '../../src/log/logger.js';
import { type RunningServer, startServer } from '../../src/server.js';
import { sql } from '../../src/sql/bind.js';
import { num } from '../../src/storage/database.js';
import { ids, type ProjectHandle, run, seedProject } from '../support/api.js';
import { scopeKey } from '../../src/storage/read-cache.js';
import { ENGINES, openTestDatabase, type TestDatabase } from '../support/engines.js';

describe.each(ENGINES)('tenancy on %s ClickHouse', (kind) => {
  let t: TestDatabase;
  let server: RunningServer;

  beforeAll(async () => {
    t = await openTestDatabase(kind);
    // The sweep (and the session purge) every 300 ms.
    server = await startServer(t.db, silentLogger(), '127.0.0.1', 0, { sweepIntervalMs: 300 });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  it('gives a handle claimed by two accounts at once to one of them, and the other a 409 that names nothing of it', async () => {
    const accounts = await Promise.all(['first', 'second'].map(async (name) => {
      const account = await createAccount(t.db, name, true);
      return { account, credential: (await createAdminCredential(t.db, account.accountId)).credential };
    }));
    const attempts = await Promise.all(
      Array.from({ length: 8 }, (_, i) => accounts[i % 2]!).map(({ account, credential }) =>
        fetch(`${server.url}/api/v1/accounts/${account.accountId}/projects`, { method: 'POST', headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json' }, body: JSON.stringify({ handle: 'shop', defaultBranch: 'main' }) }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, any>, account })),
      ),
    );
    expect(attempts.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    const rows = await t.db.engine.query<{ n: unknown }>(sql`SELECT count() AS n FROM ${t.db.t('projects')} FINAL WHERE handle = 'shop'`);
    expect(num(rows[0]!.n)).toBe(1);
    const winner = attempts.find((a) => a.status === 201)!;
    for (const loser of attempts.filter((a) => a.status === 409)) {
      expect(loser.body.error).toMatchObject({ code: 'CONFLICT', field: 'handle' });
      expect(JSON.stringify(loser.body)).not.toContain(winner.body.projectId);
      expect(JSON.stringify(loser.body)).not.toContain(winner.account.accountId);
    }
  });

  it('purges expired sessions on its own', async () => {
    const account = await createAccount(t.db, 'sessions', true);
    const { credentialId } = await createAdminCredential(t.db, account.accountId);
    const { secret } = await openSession(t.db, { accountId: account.accountId, credentialId }, new Date(Date.now() - SESSION_TTL_MS - 60_000));
    const rowsOf = async () => num((await t.db.engine.query<{ n: unknown }>(sql`SELECT count() AS n FROM ${t.db.t('sessions')} WHERE session_hash = ${hashToken(secret)}`))[0]!.n);
    expect(await rowsOf()).toBe(1);
    const deadline = Date.now() + 15_000;
    while ((await rowsOf()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await rowsOf()).toBe(0);
  });

  it("does not empty another account's caches when one account signs out", async () => {
    const a: ProjectHandle = await seedProject(t.db, `signing-out-${kind}`);
    const b: ProjectHandle = await seedProject(t.db, `busy-${kind}`);
    const post = (p: ProjectHandle, path: string, body: unknown) =>
      fetch(`${server.url}/api/v1/projects/${p.handle}${path}`, { method: 'POST', headers: { authorization: `Bearer ${p.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post(b, '/runs', run('b-history', ['known-1', 'known-2']))).status).toBe(201);
    expect((await post(b, '/verdict', { testCases: ids(['known-1', 'known-2', 'new']) })).status).toBe(200);
    // B's default-branch ids, cached by its verdict.
    const scope = scopeKey(b.projectId, 'main', true);
    const cached = t.db.cache.known.of(scope)?.size ?? 0;
    expect(cached).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) {
      const signIn = await fetch(`${server.url}/sign-in`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url }, body: new URLSearchParams({ credential: a.admin }).toString() });
      const cookie = /sg_session=([^;]+)/.exec(signIn.headers.get('set-cookie') ?? '')![1]!;
      const projects = await (await fetch(`${server.url}/projects`, { headers: { cookie: `sg_session=${cookie}` } })).text();
      const csrf = /name="csrf" value="([^"]+)"/.exec(projects)![1]!;
      const out = await fetch(`${server.url}/sign-out`, { method: 'POST', redirect: 'manual', headers: { cookie: `sg_session=${cookie}`, origin: server.url, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ csrf }).toString() });
      expect(out.status).toBe(303);
    }
    expect(t.db.cache.known.of(scope)?.size).toBe(cached);
  });
});
