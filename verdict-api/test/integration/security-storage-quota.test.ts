// Attack test (issue 37, "Storage and memory bounds"): one account's merge-request token floods run
// uploads to fill the store. Each account has a storage quota, rows and bytes a day and retained,
// judged before an upload claims or writes anything. Real servers on ports, both engines; the
// server is restarted to raise a limit (it reads the account's usage back from the table).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createToken } from '../../src/accounts/tokens.js';
import { NO_STORAGE_QUOTA, secondsToUtcMidnight, type StorageQuota, utcDay } from '../../src/limits/storage-quota.js';
import { silentLogger } from '../../src/log/logger.js';
import { type RunningServer, startServer } from '../../src/server.js';
import { sql, uuid } from '../../src/sql/bind.js';
import { num } from '../../src/storage/database.js';
import { type ProjectHandle, ids, run, seedProject } from '../support/api.js';
import { ENGINES, openTestDatabase, type TestDatabase } from '../support/engines.js';

const CASES = 100;
const names = (prefix: string) => Array.from({ length: CASES }, (_, i) => `${prefix}-${i}`);
const quota = (over: Partial<StorageQuota>): StorageQuota => ({ ...NO_STORAGE_QUOTA, ...over });

describe.each(ENGINES)('storage quota on %s ClickHouse', (kind) => {
  let t: TestDatabase;
  let server: RunningServer | undefined;
  let a: ProjectHandle;
  let b: ProjectHandle;
  let c: ProjectHandle;
  /** Account a's merge-request token: what a merge request's job holds. */
  let aMr: string;
  /** The bytes of every upload answered 201 per account (what the usage must say). */
  const accepted = new Map<string, number>();
  let refusedRunId = '';
  let refusedBody = '';

  const restart = async (q: StorageQuota) => {
    await server?.close();
    server = await startServer(t.db, silentLogger(), '127.0.0.1', 0, { accountRate: null, storageQuota: q });
  };
  const post = async (p: ProjectHandle, path: string, body: unknown, token = p.token) => {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    const res = await fetch(`${server!.url}/api/v1/projects/${p.handle}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: text });
    const answer = await res.text();
    if (res.status === 201) accepted.set(p.accountId, (accepted.get(p.accountId) ?? 0) + Buffer.byteLength(text));
    return { status: res.status, headers: res.headers, body: answer ? (JSON.parse(answer) as Record<string, any>) : null, sent: text };
  };
  const count = async (query: ReturnType<typeof sql>) => num((await t.db.engine.query<{ n: unknown }>(query))[0]!.n);
  const storedRuns = (p: ProjectHandle) => count(sql`SELECT count() AS n FROM ${t.db.t('test_case_runs')} WHERE project_id = ${uuid(p.projectId)}`);
  const claims = (p: ProjectHandle, runId: string) => count(sql`SELECT count() AS n FROM ${t.db.t('run_claims')} WHERE project_id = ${uuid(p.projectId)} AND run_id = ${runId}`);
  const usage = async (p: ProjectHandle) => {
    const [row] = await t.db.engine.query<Record<string, unknown>>(sql`SELECT sum(row_count) AS rows, sum(byte_count) AS bytes FROM ${t.db.t('account_usage')} WHERE account_id = ${uuid(p.accountId)}`);
    return { rows: num(row!['rows']), bytes: num(row!['bytes']) };
  };
  const gate = (name: string) => ({
    mode: 'enforce', outcome: 'passed', candidatesExamined: 1, stressed: 1, excluded: 0, guard: null, blocked: false, wouldHaveBlocked: false,
    testCases: [{ module: ':app', suite: 'com.example.CheckoutTest', name, outcome: 'passed', repetitions: Array.from({ length: 10 }, (_, i) => ({ repetition: i + 1, status: 'success', durationMs: 5 })) }],
  });
  const projectsPage = async (p: ProjectHandle) => {
    const signIn = await fetch(`${server!.url}/sign-in`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server!.url }, body: new URLSearchParams({ credential: p.admin }).toString() });
    const cookie = /sg_session=([^;]+)/.exec(signIn.headers.get('set-cookie') ?? '')![1]!;
    const page = await (await fetch(`${server!.url}/projects`, { headers: { cookie: `sg_session=${cookie}` } })).text();
    // The page's text, as a reader sees it.
    return page.replace(/<[^>]*>/g, '').replaceAll('&#39;', "'").replaceAll('&amp;', '&');
  };

  beforeAll(async () => {
    t = await openTestDatabase(kind);
    a = await seedProject(t.db, `storage-a-${kind}`);
    b = await seedProject(t.db, `storage-b-${kind}`);
    c = await seedProject(t.db, `storage-c-${kind}`);
    aMr = (await createToken(t.db, a.projectId, 'merge requests', 'merge-request')).token;
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  it('before: without a quota, 15 uploads of one token at once are all stored', async () => {
    // What the server did before the quota (every limit 0): nothing bounds what an account stores.
    await restart(NO_STORAGE_QUOTA);
    const flood = await Promise.all(Array.from({ length: 15 }, (_, i) => post(c, '/runs', run(`c-flood-${i}`, names(`c${i}`), { branch: 'feature/flood' }))));
    expect(flood.map((r) => r.status)).toEqual(Array(15).fill(201));
    expect(await storedRuns(c)).toBe(15 * CASES);
    process.stdout.write(`${kind}: no quota: 15 of 15 uploads 201, ${await storedRuns(c)} test case rows\n`);
  }, 120_000);

  it("floods a merge-request token's uploads until the day's quota bites: 429 with Retry-After to UTC midnight, nothing of a refused upload stored or claimed; another account uploads and gets its verdicts", async () => {
    await restart(quota({ rowsPerDay: 10 * CASES }));
    // 15 uploads of 100 test cases at once: together they would pass the 1,000 rows a day.
    const flood = await Promise.all(Array.from({ length: 15 }, (_, i) => post(a, '/runs', run(`flood-${i}`, names(`a${i}`), { branch: 'feature/flood' }), aMr)));
    const refused = flood.filter((r) => r.status === 429);
    process.stdout.write(`${kind}: quota 1,000 rows a day: 15 uploads of 100 at once: ${flood.length - refused.length} x 201, ${refused.length} x 429 (Retry-After ${refused[0]?.headers.get('retry-after')} s)\n`);
    expect(flood.filter((r) => r.status === 201)).toHaveLength(10);
    expect(refused).toHaveLength(5);
    const error = refused[0]!.body!.error;
    expect(error).toMatchObject({ code: 'TOO_MANY_REQUESTS', field: 'quota' });
    // An upload that arrives once the account is full is refused before its body is read, so without
    // "this upload holds" (on a loaded machine the other uploads may all be stored by then).
    expect(error.message).toMatch(/^quota: this account stored 1,000 rows today of its 1,000 rows a day; (this upload holds 100 rows; )?uploads are taken again from 00:00 UTC/);
    expect(error.message).toContain('STRESS_GATE_ACCOUNT_ROWS_PER_DAY');
    const retryAfter = Number(refused[0]!.headers.get('retry-after'));
    expect(Math.abs(retryAfter - secondsToUtcMidnight(Date.now()))).toBeLessThan(30);
    // Nothing of the refused uploads: no rows, no run-id claim.
    expect(await storedRuns(a)).toBe(10 * CASES);
    refusedRunId = JSON.parse(refused[0]!.sent).runId as string;
    refusedBody = refused[0]!.sent;
    expect(await claims(a, refusedRunId)).toBe(0);
    // The account is at its quota: the next upload, and a gate result, are refused before their body is read, claiming nothing.
    expect((await post(a, '/runs', run('after-quota', ['x'], { branch: 'feature/flood' }), aMr)).status).toBe(429);
    const gateRefused = await post(a, '/runs/flood-gate/gate', gate('a0-0'), aMr);
    expect([gateRefused.status, gateRefused.body!.error.field]).toEqual([429, 'quota']);
    expect(await claims(a, 'flood-gate')).toBe(0);
    expect(await claims(a, 'after-quota')).toBe(0);
    // Another account is not held back: its uploads are stored and its verdicts answer.
    expect((await post(b, '/runs', run('b-main', ['known-1', 'known-2']))).status).toBe(201);
    expect((await post(b, '/runs/b-main/gate', gate('known-1'))).status).toBe(201);
    const verdict = await post(b, '/verdict', { testCases: ids(['known-1', 'known-2', 'new-one']) });
    expect(verdict.status).toBe(200);
    expect(verdict.body!.candidates.map((x: { name: string }) => x.name)).toEqual(['new-one']);
    // The usage recorded is what the accepted uploads carried: their rows and the bytes of their bodies.
    expect(await usage(a)).toEqual({ rows: 10 * CASES, bytes: accepted.get(a.accountId) });
    expect(await usage(b)).toEqual({ rows: 2 + 1 + 10, bytes: accepted.get(b.accountId) });
    // The account's admin reads the same figures over the API; another account's admin cannot.
    const read = async (p: ProjectHandle, credential: string) => fetch(`${server!.url}/api/v1/accounts/${p.accountId}/usage`, { headers: { authorization: `Bearer ${credential}` } });
    const own = await read(a, a.admin);
    expect(await own.json()).toEqual({ day: utcDay(Date.now()), today: { rows: 1_000, bytes: accepted.get(a.accountId) }, retained: { rows: 1_000, bytes: accepted.get(a.accountId) }, quota: quota({ rowsPerDay: 10 * CASES }), reached: ['rowsPerDay'] });
    expect((await read(a, b.admin)).status).toBe(403);
    expect((await read(a, aMr)).status).toBe(403);
  }, 120_000);

  it('shows the account its usage on the projects page, and the quota reached', async () => {
    const page = await projectsPage(a);
    expect(page).toContain(`Storage today (${utcDay(Date.now())}, UTC): 1,000 rows of 1,000 rows`);
    expect(page).toContain('retained: 1,000 rows (no limit)');
    expect(page).toContain("Storage quota reached: today's rows: uploads are refused (429) until 00:00 UTC.");
    // Another account sees its own figures, and no quota reached.
    const other = await projectsPage(b);
    expect(other).toContain('Storage today');
    expect(other).toContain('13 rows of 1,000 rows');
    expect(other).not.toContain('quota reached');
  }, 60_000);

  it('takes the refused upload once the limit is raised (restart): it claimed nothing before', async () => {
    await restart(quota({ rowsPerDay: 20 * CASES }));
    const again = await post(a, '/runs', refusedBody, aMr);
    expect([again.status, again.body!.duplicate]).toEqual([201, false]);
    expect(await claims(a, refusedRunId)).toBe(1);
    expect((await post(a, '/runs/flood-gate/gate', gate('a0-0'), aMr)).status).toBe(201);
    // The restarted server read the account's usage back from the table, and counts on from it.
    expect(await usage(a)).toEqual({ rows: 11 * CASES + 11, bytes: accepted.get(a.accountId) });
    expect(await projectsPage(a)).toContain('1,111 rows of 2,000 rows');
  }, 120_000);

  it('refuses an upload past the retained quota with 413: nothing to wait for, the setting named', async () => {
    await restart(quota({ rowsRetained: 12 * CASES }));
    const before = await storedRuns(a);
    const over = await post(a, '/runs', run('retained-1', names('r1'), { branch: 'feature/flood' }), aMr);
    expect([over.status, over.headers.get('retry-after')]).toEqual([413, null]);
    expect(over.body!.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', field: 'quota' });
    expect(over.body!.error.message).toBe('quota: this account stores 1,111 rows of its 1,200 rows retained; this upload holds 100 rows. Waiting does not help: the operator can raise STRESS_GATE_ACCOUNT_ROWS_RETAINED (0: no limit)');
    expect(await storedRuns(a)).toBe(before);
    expect(await claims(a, 'retained-1')).toBe(0);
    // What still fits is taken; then the retained quota is reached, and shown.
    expect((await post(a, '/runs', run('retained-2', names('r2').slice(0, 89), { branch: 'feature/flood' }), aMr)).status).toBe(201);
    expect((await post(a, '/runs', run('retained-3', ['one-more'], { branch: 'feature/flood' }), aMr)).status).toBe(413);
    expect(await projectsPage(a)).toContain('Storage quota reached: the rows retained: uploads are refused (413) until the operator raises STRESS_GATE_ACCOUNT_ROWS_RETAINED.');
    // Another account's retained figure is its own.
    expect((await post(b, '/runs', run('b-2', ['known-1', 'known-3']))).status).toBe(201);
  }, 120_000);
});
