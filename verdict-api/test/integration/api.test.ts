// Authentication, tenant isolation, bad input and settings validation, on both real engines.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ENGINES, openTestDatabase, type TestDatabase } from '../support/engines.js';
import { type ProjectHandle, ids, run, seedProject, testApp } from '../support/api.js';
import { createAccount } from '../../src/accounts/accounts.js';
import { createAdminCredential } from '../../src/accounts/admin-credentials.js';
import { getProject, listProjectsOfAccount } from '../../src/accounts/projects.js';
import { createToken } from '../../src/accounts/tokens.js';
import { DEFAULT_FLAKY_POLICY, DEFAULT_STRESS_PARAMETERS } from '../../src/contract.js';
import { createApp } from '../../src/http/app.js';
import { silentLogger } from '../../src/log/logger.js';
import { formatDateTime, ident, sql } from '../../src/sql/bind.js';
import { database } from '../../src/storage/database.js';
import { loadMigrations, migrate } from '../../src/storage/migrate.js';

describe.each(ENGINES)('API on %s ClickHouse', (kind) => {
  let t: TestDatabase;
  let call: ReturnType<typeof testApp>['call'];
  let a: ProjectHandle;
  let b: ProjectHandle;
  beforeAll(async () => {
    t = await openTestDatabase(kind);
    call = testApp(t.db).call;
    a = await seedProject(t.db, `alpha-${kind}`);
    b = await seedProject(t.db, `beta-${kind}`);
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses calls without a token or with a wrong one (401)', async () => {
    expect((await call('GET', `/api/v1/projects/${a.handle}/settings`, null)).status).toBe(401);
    const wrong = await call('GET', `/api/v1/projects/${a.handle}/settings`, 'sg_not-a-token');
    expect(wrong.status).toBe(401);
    expect(wrong.body!.error.code).toBe('UNAUTHENTICATED');
  });

  it("never lets project A's token read or write project B, and answers unknown projects the same way", async () => {
    await call('POST', `/api/v1/projects/${b.handle}/runs`, b.token, run('b-main', ['secret-of-b']));
    const reads = [
      await call('GET', `/api/v1/projects/${b.handle}/settings`, a.token),
      await call('POST', `/api/v1/projects/${b.handle}/verdict`, a.token, { testCases: ids(['secret-of-b']) }),
      await call('POST', `/api/v1/projects/${b.handle}/runs`, a.token, run('a-into-b', ['x'])),
      await call('PATCH', `/api/v1/projects/${b.handle}/settings`, a.token, { defaultBranch: 'hijacked' }),
    ];
    expect(reads.map((r) => r.status)).toEqual([403, 403, 403, 403]);
    const unknown = await call('GET', '/api/v1/projects/does-not-exist/settings', a.token);
    expect(unknown.status).toBe(403);
    expect(unknown.body!.error.message.replace('does-not-exist', b.handle)).toBe(reads[0]!.body!.error.message);
    // A's view of the same identity is its own: B's history does not make it known to A.
    await call('POST', `/api/v1/projects/${a.handle}/runs`, a.token, run('a-main', ['a-old']));
    const v = await call('POST', `/api/v1/projects/${a.handle}/verdict`, a.token, { testCases: ids(['secret-of-b']) });
    expect(v.body!.candidates.map((c: any) => c.name)).toEqual(['secret-of-b']);
    expect((await call('GET', `/api/v1/projects/${b.handle}/settings`, b.admin)).body!.defaultBranch).toBe('main');
  });

  it.each([
    ['not JSON', '{"testCases": [', 'body'],
    ['missing testCases', {}, 'testCases'],
    ['empty name', { testCases: [{ module: ':app', suite: 'S', name: '', durationMs: 1 }] }, 'testCases[0].name'],
    ['negative duration', { testCases: [{ module: ':app', suite: 'S', name: 'n', durationMs: -1 }] }, 'testCases[0].durationMs'],
    ['lone surrogate', { testCases: [{ module: ':app', suite: 'S', name: 'bad\ud800', durationMs: 1 }] }, 'testCases[0].name'],
    ['duplicate identity', { testCases: [...ids(['same']), ...ids(['same'])] }, 'testCases[1]'],
  ])('answers a verdict request with %s by 400 naming the field', async (_label, body, field) => {
    const res = await call('POST', `/api/v1/projects/${a.handle}/verdict`, a.token, body);
    expect(res.status).toBe(400);
    expect(res.body!.error).toMatchObject({ code: 'BAD_REQUEST', field });
    expect(res.body!.error.message).toContain(field);
  });

  it.each([
    ['bad run id', { ...run('x', ['a']), runId: 'has space' }, 'runId'],
    ['unknown status', { ...run('x', ['a']), status: 'green' }, 'status'],
    ['case status', run('x', [], { testCases: [{ module: ':m', suite: 'S', name: 'n', status: 'ok' as never, durationMs: 1 }] }), 'testCases[0].status'],
    ['shard total 0', { ...run('x', ['a']), shard: { index: 0, total: 0 } }, 'shard.total'],
  ])('answers a run upload with %s by 400 naming the field', async (_label, body, field) => {
    const res = await call('POST', `/api/v1/projects/${a.handle}/runs`, a.token, body);
    expect(res.status).toBe(400);
    expect(res.body!.error.field).toBe(field);
  });

  it.each([
    [{ stress: { curve: [{ maxDurationMs: 10_000, bound: 'exclusive', repetitions: 5 }, { maxDurationMs: 5_000, bound: 'inclusive', repetitions: 10 }] } }, 'stress.curve'],
    [{ stress: { curve: [{ maxDurationMs: 5_000, bound: 'inclusive', repetitions: 0 }] } }, 'stress.curve[0].repetitions'],
    [{ stress: { bulkChangeRatio: 0 } }, 'stress.bulkChangeRatio'],
    [{ stress: { candidateCap: 2.5 } }, 'stress.candidateCap'],
    [{ flakyPolicy: { autoMarkThreshold: 0 } }, 'flakyPolicy.autoMarkThreshold'],
    [{ stress: { timingSensitiveBlocks: 'yes' } }, 'stress.timingSensitiveBlocks'],
    [{ stress: { timingSensitiveBlocks: 1 } }, 'stress.timingSensitiveBlocks'],
    [{ stress: { timingSensitiveBlocks: null } }, 'stress.timingSensitiveBlocks'],
  ])('refuses the settings write %j naming %s, and keeps the old settings', async (patch, field) => {
    const before = await call('GET', `/api/v1/projects/${a.handle}/settings`, a.admin);
    const res = await call('PATCH', `/api/v1/projects/${a.handle}/settings`, a.admin, patch);
    expect(res.status).toBe(400);
    expect(res.body!.error.field).toBe(field);
    expect(res.body!.error.message).toMatch(new RegExp(`^${field.replace(/[.[\]]/g, '\\$&')}: `));
    expect((await call('GET', `/api/v1/projects/${a.handle}/settings`, a.admin)).body).toEqual(before.body);
  });

  it('keeps timingSensitiveBlocks false for a new project, and round-trips it through PATCH, GET, the verdict and storage', async () => {
    const p = await seedProject(t.db, `timing-${kind}`);
    const settings = async () => (await call('GET', `/api/v1/projects/${p.handle}/settings`, p.admin)).body!.stress.timingSensitiveBlocks;
    const inVerdict = async () => (await call('POST', `/api/v1/projects/${p.handle}/verdict`, p.token, { testCases: ids(['new-one']) })).body!.parameters.timingSensitiveBlocks;
    // Past the authentication cache: what ClickHouse holds.
    const stored = async () => (await listProjectsOfAccount(t.db, p.accountId))[0]!.stress.timingSensitiveBlocks;
    const patch = (stress: Record<string, unknown>) => call('PATCH', `/api/v1/projects/${p.handle}/settings`, p.admin, { stress });
    expect([await settings(), await inVerdict(), await stored()]).toEqual([false, false, false]);

    const on = await patch({ timingSensitiveBlocks: true });
    expect([on.status, on.body!.stress.timingSensitiveBlocks]).toEqual([200, true]);
    expect([await settings(), await inVerdict(), await stored()]).toEqual([true, true, true]);
    // Another parameter's write leaves it as it was.
    const other = await patch({ candidateCap: 7 });
    expect(other.body!.stress).toMatchObject({ candidateCap: 7, timingSensitiveBlocks: true });
    expect(await stored()).toBe(true);
    const audit = (await call('GET', `/api/v1/projects/${p.handle}/settings/audit`, p.admin)).body!.changes as any[];
    expect(audit.map((c) => [c.before.stress.timingSensitiveBlocks, c.after.stress.timingSensitiveBlocks])).toEqual([[true, true], [false, true]]);

    expect((await patch({ timingSensitiveBlocks: false })).body!.stress.timingSensitiveBlocks).toBe(false);
    expect([await settings(), await inVerdict(), await stored()]).toEqual([false, false, false]);
  });

  it('reads timingSensitiveBlocks as false for a project created before migration 0035, and stores it once patched', async () => {
    const name = `pre0035_${randomBytes(6).toString('hex')}`;
    const db = database(t.db.engine, name);
    try {
      expect(await migrate(db.engine, name, loadMigrations().filter((m) => m.version < '0035'))).not.toContain('0035_create_project_stress_flags');
      const account = await createAccount(db, 'before 0035', true);
      const projectId = randomUUID();
      // The row the service wrote before 0035: projects alone, no flags anywhere.
      const s = DEFAULT_STRESS_PARAMETERS;
      await db.engine.insert(db.t('projects'), [{
        project_id: projectId, account_id: account.accountId, handle: `old-${kind}`, default_branch: 'main',
        flaky_auto_mark: 1, flaky_auto_mark_threshold: DEFAULT_FLAKY_POLICY.autoMarkThreshold, flaky_cooldown_days: DEFAULT_FLAKY_POLICY.cooldownDays, flaky_auto_quarantine: 0,
        stress_curve: JSON.stringify(s.curve), stress_candidate_cap: 123, stress_ceiling_seconds: s.ceilingSeconds,
        stress_bulk_change_ratio: s.bulkChangeRatio, stress_bulk_change_floor: s.bulkChangeFloor, created_at: formatDateTime(new Date()), version: 1,
      }]);
      expect(await migrate(db.engine, name, loadMigrations().filter((m) => m.version <= '0035'))).toEqual(['0035_create_project_stress_flags']);
      // The later ones too: the service reads the tables they add (0040's order flag among them: no row there either).
      await migrate(db.engine, name);

      expect((await getProject(db, projectId))!.stress).toEqual({ ...s, candidateCap: 123, timingSensitiveBlocks: false });
      const { token } = await createToken(db, projectId, 'ci', 'default-branch');
      const { credential } = await createAdminCredential(db, account.accountId);
      const old = testApp(db).call;
      expect((await old('GET', `/api/v1/projects/old-${kind}/settings`, credential)).body!.stress).toMatchObject({ candidateCap: 123, timingSensitiveBlocks: false });
      expect((await old('POST', `/api/v1/projects/old-${kind}/verdict`, token, { testCases: ids(['x']) })).body!.parameters.timingSensitiveBlocks).toBe(false);
      expect((await old('PATCH', `/api/v1/projects/old-${kind}/settings`, credential, { stress: { timingSensitiveBlocks: true } })).status).toBe(200);
      expect((await listProjectsOfAccount(db, account.accountId))[0]!.stress).toMatchObject({ candidateCap: 123, timingSensitiveBlocks: true });
    } finally {
      await t.db.engine.command(sql`DROP DATABASE IF EXISTS ${ident(name)}`);
    }
  });

  it("saves the dashboard settings form's timing-sensitive checkbox: checked stores true, unchecked false", async () => {
    const p = await seedProject(t.db, `form-${kind}`);
    const { app } = testApp(t.db);
    const origin = 'http://localhost';
    const signIn = await app.request(`${origin}/sign-in`, { method: 'POST', headers: { origin, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ credential: p.admin }).toString() });
    expect(signIn.status).toBe(303);
    const cookie = /sg_session=[^;]+/.exec(signIn.headers.get('set-cookie') ?? '')![0];
    const path = `${origin}/projects/${p.handle}/settings`;
    const checkbox = (html: string) => /<input[^>]*name="timingSensitiveBlocks"[^>]*>/.exec(html)![0];
    const page = await (await app.request(path, { headers: { cookie } })).text();
    expect(checkbox(page)).not.toMatch(/\schecked/);
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!;
    // What a browser sends: every field as shown, the checkbox only when checked.
    const save = async (checked: boolean) => {
      const s = (await listProjectsOfAccount(t.db, p.accountId))[0]!.stress;
      const form = new URLSearchParams({
        csrf, defaultBranch: 'main', autoMarkFlaky: '1', autoMarkThreshold: '1', cooldownDays: '14',
        candidateCap: String(s.candidateCap), ceilingSeconds: String(s.ceilingSeconds), bulkChangeRatio: String(s.bulkChangeRatio), bulkChangeFloor: String(s.bulkChangeFloor),
        curve: JSON.stringify(s.curve), ...(checked ? { timingSensitiveBlocks: '1' } : {}),
      });
      const res = await app.request(path, { method: 'POST', headers: { cookie, origin, 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
      expect(res.status).toBe(200);
      return res.text();
    };
    const saved = await save(true);
    expect(saved).toContain('Settings saved.');
    expect(checkbox(saved)).toMatch(/\schecked/);
    expect((await listProjectsOfAccount(t.db, p.accountId))[0]!.stress.timingSensitiveBlocks).toBe(true);
    expect(checkbox(await (await app.request(path, { headers: { cookie } })).text())).toMatch(/\schecked/);
    expect(checkbox(await save(false))).not.toMatch(/\schecked/);
    expect((await listProjectsOfAccount(t.db, p.accountId))[0]!.stress.timingSensitiveBlocks).toBe(false);
  });

  it('refuses a body over the byte limit with 413 before reading it', async () => {
    const small = createApp({ db: t.db, log: silentLogger(), ready: async () => {}, bodyCaps: { verdict: 1024 } });
    const res = await small.request(`/api/v1/projects/${a.handle}/verdict`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${a.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ testCases: ids(Array.from({ length: 50 }, (_, i) => `t${i}`)) }),
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as any).error).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: 'body: the request body exceeds 1024 bytes, the limit of this route', field: 'body' });
  });

  it('writes settings and the verdict uses them at once', async () => {
    const res = await call('PATCH', `/api/v1/projects/${a.handle}/settings`, a.admin, {
      stress: { curve: [{ maxDurationMs: 1000, bound: 'inclusive', repetitions: 7 }], ceilingSeconds: 120 },
      flakyPolicy: { autoMarkFlaky: false },
    });
    expect(res.status).toBe(200);
    expect(res.body!.stress).toMatchObject({ ceilingSeconds: 120, candidateCap: 200 });
    expect(res.body!.flakyPolicy).toMatchObject({ autoMarkFlaky: false, autoMarkThreshold: 1 });
    const v = await call('POST', `/api/v1/projects/${a.handle}/verdict`, a.token, { testCases: ids(['brand-new'], 999) });
    expect(v.body!.parameters.ceilingSeconds).toBe(120);
    expect(v.body!.candidates[0]).toMatchObject({ name: 'brand-new', repetitions: 7 });
  });
});
