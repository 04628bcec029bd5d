// Attack tests (issue 31, "a merge request cannot rewrite history"): what a merge-request job
// could do with the project's one CI token, against a real server on a port, on both engines. A
// project now has a default-branch token (protected-branch jobs) and a merge-request token;
// the attacks below use the merge-request one.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pino from 'pino';
import { silentLogger } from '../../src/log/logger.js';
import { type RunningServer, startServer } from '../../src/server.js';
import { formatDateTime } from '../../src/sql/bind.js';
import { nextVersion } from '../../src/storage/version.js';
import { hashToken } from '../../src/accounts/tokens.js';
import { ids, type ProjectHandle, run, seedProject } from '../support/api.js';
import { ENGINES, openTestDatabase, type TestDatabase } from '../support/engines.js';
import type { GateUpload, RunUpload } from '../../src/contract.js';

describe.each(ENGINES)('merge-request token on %s ClickHouse', (kind) => {
  let t: TestDatabase;
  let server: RunningServer;
  let p: ProjectHandle;
  /** The merge-request token (created through the API as a merge-request token). */
  let mr: string;

  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(`${server.url}/api/v1/projects/${p.handle}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, any>) : null };
  };
  const upload = (token: string, body: RunUpload) => call('POST', '/runs', token, body);
  const candidates = async (names: string[]) => ((await call('POST', '/verdict', p.token, { testCases: ids(names) })).body!.candidates as { name: string }[]).map((c) => c.name);
  const gate = (outcome: 'passed' | 'failed', blocked: boolean): GateUpload => ({
    mode: 'enforce',
    outcome,
    candidatesExamined: 1,
    stressed: 1,
    excluded: 0,
    guard: null,
    blocked,
    wouldHaveBlocked: blocked,
    testCases: [{ module: ':app', suite: 'com.example.CheckoutTest', name: 'candidate', outcome, repetitions: [{ repetition: 1, status: outcome === 'failed' ? 'failure' : 'success', durationMs: 3 }] }],
  });

  beforeAll(async () => {
    t = await openTestDatabase(kind);
    p = await seedProject(t.db, `tokens-${kind}`);
    server = await startServer(t.db, silentLogger(), '127.0.0.1', 0);
    const created = await call('POST', '/tokens', p.admin, { name: 'merge requests', scope: 'merge-request' });
    expect(created.status).toBe(201);
    mr = created.body!.token as string;
    expect((await upload(p.token, run('history', ['old-test']))).status).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  it('issues a merge-request token when no scope is asked for: it cannot write the default branch', async () => {
    const plain = await call('POST', '/tokens', p.admin, { name: 'no scope given' });
    expect([plain.status, plain.body!.scope]).toEqual([201, 'merge-request']);
    expect(plain.body!.token).toMatch(/^sgm_/);
    const res = await upload(plain.body!.token as string, run('plain-claims-main', ['sneaked-in-plain']));
    expect([res.status, res.body?.error?.field]).toEqual([403, 'branch']);
  });

  it('reads back only the runs it uploaded: another credential’s run is the 404 of a run that does not exist', async () => {
    const other = (await call('POST', '/tokens', p.admin, { name: 'another merge request' })).body!.token as string;
    expect((await upload(mr, run('mr-own', ['own-test'], { branch: 'feature/own' }))).status).toBe(201);
    expect((await upload(other, run('mr-other', ['other-test'], { branch: 'feature/other' }))).status).toBe(201);
    const status = async (token: string, path: string) => (await fetch(`${server.url}/api/v1/projects/${p.handle}${path}`, { headers: { authorization: `Bearer ${token}` } })).status;
    const read = async (token: string, runId: string) => [await status(token, `/runs/${runId}`), await status(token, `/runs/${runId}/report.md`)];
    expect(await read(mr, 'mr-own')).toEqual([200, 200]);
    expect(await read(mr, 'mr-other')).toEqual([404, 404]);
    expect(await read(mr, 'history')).toEqual([404, 404]);
    expect(await read(mr, 'never-uploaded')).toEqual([404, 404]);
    const { message: _m1, ...refused } = (await call('GET', '/runs/mr-other', mr)).body!.error as Record<string, unknown>;
    const { message: _m2, ...absent } = (await call('GET', '/runs/never-uploaded', mr)).body!.error as Record<string, unknown>;
    expect(refused).toEqual(absent);
    // The default-branch token and the admin read the project's runs.
    expect(await read(p.token, 'mr-other')).toEqual([200, 200]);
    expect(await read(p.admin, 'mr-own')).toEqual([200, 200]);
  });

  it('names each request itself: a client’s X-Request-Id is neither echoed nor logged', async () => {
    const lines: string[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const own = await startServer(t.db, log, '127.0.0.1', 0);
    try {
      const res = await fetch(`${own.url}/api/v1/projects/${p.handle}/quarantine`, { headers: { authorization: `Bearer ${mr}`, 'x-request-id': 'forged-id' } });
      expect(res.status).toBe(200);
      const id = res.headers.get('x-request-id');
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const logged = lines.map((l) => JSON.parse(l) as { requestId?: string; msg: string }).filter((l) => l.msg === 'request');
      expect(logged.map((l) => l.requestId)).toEqual([id]);
      expect(lines.join('')).not.toContain('forged-id');
    } finally {
      await own.close();
    }
  });

  it('cannot make a new test default-branch history by uploading it as branch main', async () => {
    const res = await upload(mr, run('mr-claims-main', ['sneaked-in']));
    expect([res.status, res.body?.error?.field]).toEqual([403, 'branch']);
    expect(await candidates(['old-test', 'sneaked-in'])).toEqual(['sneaked-in']);
  });

  it('cannot become default-branch history by a branch that is made the default branch later', async () => {
    expect((await upload(mr, run('mr-on-release', ['release-only'], { branch: 'release' }))).status).toBe(201);
    expect((await call('PATCH', '/settings', p.admin, { defaultBranch: 'release' })).status).toBe(200);
    try {
      expect(await candidates(['release-only'])).toEqual(['release-only']);
    } finally {
      expect((await call('PATCH', '/settings', p.admin, { defaultBranch: 'main' })).status).toBe(200);
    }
  });

  it("cannot claim a run id first and so have the default branch's upload of it dropped", async () => {
    // The merge request guesses the next pipeline's run id and uploads under it first.
    expect((await upload(mr, run('pipeline-42', ['fake'], { branch: 'feature/x' }))).status).toBe(201);
    const real = await upload(p.token, run('pipeline-42', ['real-new-test']));
    // The real upload is refused loudly (it was answered "duplicate" and dropped), and the run is not the merge request's to shape.
    expect(real.status).toBe(409);
    expect(real.body!.error).toMatchObject({ code: 'CONFLICT', field: 'runId' });
  });

  it("cannot add a shard to the default branch's run", async () => {
    expect((await upload(p.token, run('pipeline-43', ['a'], { shard: { index: 0, total: 2 } }))).status).toBe(201);
    const res = await upload(mr, run('pipeline-43', ['injected'], { branch: 'feature/x', shard: { index: 1, total: 2 } }));
    expect(res.status).toBe(409);
    const page = await call('GET', '/runs/pipeline-43', p.admin);
    expect(page.body!.testCases.map((c: { name: string }) => c.name)).toEqual(['a']);
  });

  it("cannot overwrite a run's gate result, and the gate is written once per run shard", async () => {
    expect((await upload(p.token, run('pipeline-44', ['candidate']))).status).toBe(201);
    expect((await call('POST', '/runs/pipeline-44/gate', p.token, gate('failed', true))).status).toBe(201);
    // Another token's gate result, and the owner's own second, different one.
    const overwrite = await call('POST', '/runs/pipeline-44/gate', mr, gate('passed', false));
    const again = await call('POST', '/runs/pipeline-44/gate', p.token, gate('passed', false));
    expect([overwrite.status, again.status]).toEqual([409, 409]);
    // A retry of the same result is answered as before (the CLI may post it twice after a timeout).
    expect((await call('POST', '/runs/pipeline-44/gate', p.token, gate('failed', true))).status).toBe(201);
    const page = await call('GET', '/runs/pipeline-44', p.admin);
    expect(page.body!.gate).toMatchObject({ outcome: 'failed', blocked: true });
  });

  it('uploads its own runs and gate results', async () => {
    expect((await upload(mr, run('mr-own', ['candidate'], { branch: 'feature/y' }))).status).toBe(201);
    expect((await call('POST', '/runs/mr-own/gate', mr, gate('passed', false))).status).toBe(201);
    expect((await call('GET', '/runs/mr-own', p.admin)).body!.gate).toMatchObject({ outcome: 'passed' });
  });

  it('cannot fake retries that mark or mute a test: only default-branch CI evidence counts, and a mark does not block the mute it earns later', async () => {
    expect((await call('PATCH', '/settings', p.admin, { flakyPolicy: { autoMarkFlaky: true, autoMarkThreshold: 3, autoQuarantine: true } })).status).toBe(200);
    const flakyCase = (name: string) => ({ module: ':app', suite: 'com.example.CheckoutTest', name, status: 'success' as const, durationMs: 5, repetitions: [{ repetition: 1, status: 'failure' as const, durationMs: 5 }, { repetition: 2, status: 'success' as const, durationMs: 5 }] });
    const state = async (name: string) => {
      const flaky = (await call('GET', '/flaky-tests', p.admin)).body!.tests as { name: string; markedFlaky: boolean }[];
      const muted = ((await call('GET', '/quarantine', p.token)).body!.tests as { name: string }[]).some((x) => x.name === name);
      return { marked: flaky.some((x) => x.name === name && x.markedFlaky), muted };
    };
    // Evaluations run after the upload is answered: wait until `want`, or 20 s.
    const settle = async (name: string, want: { marked: boolean; muted: boolean }) => {
      const deadline = Date.now() + 20_000;
      let now = await state(name);
      while (JSON.stringify(now) !== JSON.stringify(want) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        now = await state(name);
      }
      return now;
    };
    // An existing test with default-branch history, one real flaky CI run, and two faked by a merge request.
    expect((await upload(p.token, run('pipeline-45', ['checkout-total']))).status).toBe(201);
    expect((await upload(p.token, run('pipeline-46', [], { commit: 'c0ffee46', testCases: [flakyCase('checkout-total')] }))).status).toBe(201);
    for (const [i, commit] of ['badc0de1', 'badc0de2'].entries()) {
      expect((await upload(mr, run(`mr-fakes-retries-${i}`, [], { branch: 'feature/z', commit, testCases: [flakyCase('checkout-total')] }))).status).toBe(201);
    }
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await state('checkout-total')).toEqual({ marked: false, muted: false });

    // Marked by real evidence while auto-quarantine is off; the mute comes with the real evidence that earns it.
    expect((await call('PATCH', '/settings', p.admin, { flakyPolicy: { autoQuarantine: false } })).status).toBe(200);
    for (const commit of ['c0ffee47', 'c0ffee48']) expect((await upload(p.token, run(`pipeline-${commit}`, [], { commit, testCases: [flakyCase('checkout-total')] }))).status).toBe(201);
    expect(await settle('checkout-total', { marked: true, muted: false })).toEqual({ marked: true, muted: false });
    expect((await call('PATCH', '/settings', p.admin, { flakyPolicy: { autoQuarantine: true } })).status).toBe(200);
    expect((await upload(p.token, run('pipeline-c0ffee49', [], { commit: 'c0ffee49', testCases: [flakyCase('checkout-total')] }))).status).toBe(201);
    expect(await settle('checkout-total', { marked: true, muted: true })).toEqual({ marked: true, muted: true });
  });

  it('keeps a token issued before scopes existed working as a default-branch token', async () => {
    // A token row as 0003 wrote them, with no scope.
    const legacy = 'sg_legacy-token-of-an-existing-user';
    await t.db.engine.insert(t.db.t('api_tokens'), [{ token_hash: hashToken(legacy), token_id: '11111111-2222-4333-8444-555555555555', project_id: p.projectId, revoked: 0, created_at: formatDateTime(new Date()), version: nextVersion() }]);
    expect((await upload(legacy, run('legacy-main', ['legacy-test']))).status).toBe(201);
    expect(await candidates(['legacy-test'])).toEqual([]);
  });
});
