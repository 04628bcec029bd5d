// Who may do what, on both real engines: the CI token's narrow rights, the account admin's
// credential, the operator's account administration over HTTP, token listing and revocation
// (refused at once), settings audits, one account never seeing another's, and the ramp query.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ENGINES, openTestDatabase, type TestDatabase } from '../support/engines.js';
import { type ProjectHandle, run, seedProject, testApp } from '../support/api.js';

const OPERATOR = 'op_'.padEnd(40, 'x');

describe.each(ENGINES)('administration on %s ClickHouse', (kind) => {
  let t: TestDatabase;
  let call: ReturnType<typeof testApp>['call'];
  let a: ProjectHandle;
  let b: ProjectHandle;
  beforeAll(async () => {
    t = await openTestDatabase(kind);
    call = testApp(t.db, { operatorToken: OPERATOR }).call;
    a = await seedProject(t.db, `adm-a-${kind}`);
    b = await seedProject(t.db, `adm-b-${kind}`);
  });
  afterAll(async () => {
    await t.close();
  });
  const base = (p: ProjectHandle) => `/api/v1/projects/${p.handle}`;

  it('lets a CI token upload, ask, gate and read the quarantine list, and nothing else', async () => {
    expect((await call('POST', `${base(a)}/runs`, a.token, run('ci-1', ['x']))).status).toBe(201);
    expect((await call('POST', `${base(a)}/verdict`, a.token, { testCases: [] })).status).toBe(200);
    expect((await call('GET', `${base(a)}/quarantine`, a.token)).status).toBe(200);
    expect((await call('GET', `${base(a)}/runs/ci-1`, a.token)).status).toBe(200);
    const refused = [
      await call('PATCH', `${base(a)}/settings`, a.token, { defaultBranch: 'x' }),
      await call('GET', `${base(a)}/settings`, a.token),
      await call('POST', `${base(a)}/quarantine`, a.token, { module: ':m', suite: 'S', name: 'n', state: 'muted', owner: 'o', reason: 'r' }),
      await call('POST', `${base(a)}/webhooks`, a.token, { url: 'http://127.0.0.1:1/h', secret: 's'.repeat(16) }),
      await call('GET', `${base(a)}/tokens`, a.token),
      await call('POST', `${base(a)}/tokens`, a.token, { name: 'sneaky' }),
      await call('GET', `${base(a)}/flaky-tests`, a.token),
      await call('GET', `${base(a)}/ramp`, a.token),
    ];
    expect(refused.map((r) => r.status)).toEqual(refused.map(() => 403));
    expect(refused[0]!.body!.error.message).toContain('admin credential');
  });

  it("never lets one account's admin credential into another account's project", async () => {
    const reads = [await call('GET', `${base(b)}/settings`, a.admin), await call('GET', `${base(b)}/runs`, a.admin), await call('GET', '/api/v1/projects/nope/settings', a.admin)];
    expect(reads.map((r) => r.status)).toEqual([403, 403, 403]);
    expect((await call('GET', `/api/v1/accounts/${b.accountId}/projects`, a.admin)).status).toBe(403);
  });

  it('lists tokens without their secrets, names them, and refuses a revoked token at once', async () => {
    const created = await call('POST', `${base(a)}/tokens`, a.admin, { name: 'github-actions' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ scope: 'merge-request', token: expect.stringMatching(/^sgm_/) });
    expect((await call('POST', `${base(a)}/verdict`, created.body!.token, { testCases: [] })).status).toBe(200);
    const list = (await call('GET', `${base(a)}/tokens`, a.admin)).body!.tokens as Record<string, unknown>[];
    expect(list.find((x) => x['tokenId'] === created.body!.tokenId)).toMatchObject({ name: 'github-actions', revoked: false });
    expect(JSON.stringify(list)).not.toContain(created.body!.token);
    expect((await call('DELETE', `${base(a)}/tokens/${created.body!.tokenId}`, a.admin)).body).toMatchObject({ revoked: true });
    expect((await call('POST', `${base(a)}/verdict`, created.body!.token, { testCases: [] })).status).toBe(401);
    expect((await call('DELETE', `${base(b)}/tokens/${created.body!.tokenId}`, b.admin)).status).toBe(404);
  });

  it('administers accounts with the operator credential only, and projects with the account admin', async () => {
    expect((await call('POST', '/api/v1/admin/accounts', a.admin, { name: 'Evil' })).status).toBe(403);
    expect((await call('POST', '/api/v1/admin/accounts', 'wrong', { name: 'Evil' })).status).toBe(401);
    const account = await call('POST', '/api/v1/admin/accounts', OPERATOR, { name: 'Acme' });
    expect(account.status).toBe(201);
    expect(account.body!.stressGateEntitled).toBe(false);
    expect((await call('PUT', `/api/v1/admin/accounts/${account.body!.accountId}/entitlement`, OPERATOR, { entitled: true })).body!.stressGateEntitled).toBe(true);
    const cred = await call('POST', `/api/v1/admin/accounts/${account.body!.accountId}/credentials`, OPERATOR, { name: 'ops' });
    expect(cred.body!.credential).toMatch(/^sga_/);
    const project = await call('POST', `/api/v1/accounts/${account.body!.accountId}/projects`, cred.body!.credential, { handle: `acme-${kind}`, defaultBranch: 'main' });
    expect(project.status).toBe(201);
    const token = await call('POST', `/api/v1/projects/acme-${kind}/tokens`, cred.body!.credential, {});
    expect((await call('POST', `/api/v1/projects/acme-${kind}/verdict`, token.body!.token, { testCases: [] })).body!.entitled).toBe(true);
    expect((await call('POST', `/api/v1/accounts/${account.body!.accountId}/projects`, cred.body!.credential, { handle: 'Bad Handle' })).body!.error.field).toBe('handle');
    await call('DELETE', `/api/v1/admin/accounts/${account.body!.accountId}/credentials/${cred.body!.credentialId}`, OPERATOR);
    expect((await call('GET', `/api/v1/projects/acme-${kind}/settings`, cred.body!.credential)).status).toBe(401);
  });

  it('audits every settings change with who made it', async () => {
    await call('PATCH', `${base(a)}/settings`, a.admin, { stress: { candidateCap: 42 } });
    const audit = (await call('GET', `${base(a)}/settings/audit`, a.admin)).body!.changes as any[];
    expect(audit[0]).toMatchObject({ actor: expect.stringMatching(/^admin:/), before: { stress: { candidateCap: 200 } }, after: { stress: { candidateCap: 42 } } });
  });

  it('answers the ramp per day from the query file: merge requests, runs, would have blocked, stressed, guards, time added', async () => {
    await call('POST', `${base(a)}/runs`, a.token, run('mr-1', ['n1', 'n2'], { branch: 'feature/x' }));
    await call('POST', `${base(a)}/runs`, a.token, run('mr-2', ['n3'], { branch: 'feature/y' }));
    const gate = { mode: 'report', outcome: 'failed', candidatesExamined: 2, stressed: 2, excluded: 0, guard: null, blocked: false, wouldHaveBlocked: true, timing: { wallClockMs: 4000, predictedMs: 3500, jvmStartMs: 600 }, testCases: [] };
    expect((await call('POST', `${base(a)}/runs/mr-1/gate`, a.token, gate)).status).toBe(201);
    await call('POST', `${base(a)}/runs/mr-2/gate`, a.token, { ...gate, outcome: 'guarded', stressed: 0, wouldHaveBlocked: false, timing: { wallClockMs: null, predictedMs: 900_000, jvmStartMs: 600 }, guard: { name: 'candidate_cap', count: 300, reason: 'too many' } });
    const ramp = (await call('GET', `${base(a)}/ramp`, a.admin)).body!;
    const counts = { mergeRequests: 2, runs: 2, wouldHaveBlocked: 1, candidatesStressed: 2, guardsFired: 1, addedMs: 4000 };
    expect(ramp).toEqual({ days: [{ day: new Date().toISOString().slice(0, 10), ...counts }], total: counts });
    const runs = (await call('GET', `${base(a)}/runs`, a.admin)).body!.runs as any[];
    expect(Object.fromEntries(runs.map((r) => [r.runId, r.gate]))).toMatchObject({ 'mr-1': 'would_have_blocked', 'mr-2': 'guard', 'ci-1': 'none' });
  });
});
