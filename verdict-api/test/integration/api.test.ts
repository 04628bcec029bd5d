// Authentication, tenant isolation, bad input and settings validation, on both real engines.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ENGINES, openTestDatabase, type TestDatabase } from '../support/engines.js';
import { type ProjectHandle, ids, run, seedProject, testApp } from '../support/api.js';
import { createApp } from '../../src/http/app.js';
import { silentLogger } from '../../src/log/logger.js';

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
  ])('refuses the settings write %j naming %s, and keeps the old settings', async (patch, field) => {
    const before = await call('GET', `/api/v1/projects/${a.handle}/settings`, a.admin);
    const res = await call('PATCH', `/api/v1/projects/${a.handle}/settings`, a.admin, patch);
    expect(res.status).toBe(400);
    expect(res.body!.error.field).toBe(field);
    expect((await call('GET', `/api/v1/projects/${a.handle}/settings`, a.admin)).body).toEqual(before.body);
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
