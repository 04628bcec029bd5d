// The flaky-tests page's "Caught before merge" (issue 36) on both engines, from uploads through the
// API: the gate's catches on merge requests with their run, branch and effect (blocked, would have,
// not blocking: muted or timing-sensitive), never the default branch's, never another project's;
// and the page that says so instead of "No flaky tests.".
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getProject, type Project } from '../../src/accounts/projects.js';
import { gateCatches } from '../../src/run-page/gate-catches.js';
import { FlakyTestsPage } from '../../src/web/flaky-tests-page.js';
import { type ProjectHandle, run, seedProject, testApp } from '../support/api.js';
import { ENGINES, openTestDatabase, type TestDatabase } from '../support/engines.js';

const SUITE = 'com.example.CheckoutTest';
const strip = (fails: number[], n = 10) => Array.from({ length: n }, (_, k) => ({ repetition: k + 1, status: fails.includes(k + 1) ? 'failure' : 'success', durationMs: 5 }));
const cand = (name: string, fails: number[], over: Record<string, unknown> = {}) => ({ module: ':app', suite: SUITE, name, outcome: fails.length ? 'failed' : 'passed', repetitions: strip(fails), ...over });
const gate = (mode: 'report' | 'enforce', testCases: Record<string, unknown>[]) => {
  const blocking = testCases.some((c) => c['outcome'] === 'failed' && !c['muted']);
  return { mode, outcome: blocking ? 'failed' : 'passed', candidatesExamined: testCases.length, stressed: testCases.length, excluded: 0, guard: null, blocked: blocking && mode === 'enforce', wouldHaveBlocked: blocking, testCases };
};

describe.each(ENGINES)('the gate’s catches on %s', (kind) => {
  let t: TestDatabase;
  let p: ProjectHandle;
  let other: ProjectHandle;
  let project: Project;

  beforeAll(async () => {
    t = await openTestDatabase(kind);
    const { call } = testApp(t.db);
    p = await seedProject(t.db, `catches-${kind}`);
    other = await seedProject(t.db, `catches-other-${kind}`);
    const uploads: [ProjectHandle, string, string, ReturnType<typeof gate>][] = [
      [p, 'mr-1', 'feature/a', gate('enforce', [cand('flaky', [2, 5, 8]), cand('steady', [])])],
      [p, 'mr-2', 'feature/b', gate('report', [cand('flaky2', [4]), cand('mutedOne', [1, 2], { muted: true })])],
      [p, 'mr-3', 'feature/c', gate('enforce', [cand('waits', [], { timingSensitive: { failures: 2, repetitions: 10 } })])],
      [p, 'main-1', 'main', gate('report', [cand('onMain', [1])])],
      [other, 'mr-1', 'feature/a', gate('enforce', [cand('secretOfOther', [1])])],
    ];
    for (const [who, runId, branch, g] of uploads) {
      const names = g.testCases.map((c) => String(c['name']));
      expect((await call('POST', `/api/v1/projects/${who.handle}/runs`, who.token, run(runId, names, { branch }))).status).toBe(201);
      expect((await call('POST', `/api/v1/projects/${who.handle}/runs/${runId}/gate`, who.token, g)).status).toBe(201);
    }
    project = (await getProject(t.db, p.projectId))!;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('lists the catches on merge requests with their run, branch and effect, and nothing else', async () => {
    const { catches, total } = await gateCatches(t.db, project, new Date(Date.now() - 86_400_000));
    expect(total).toBe(4);
    const byName = Object.fromEntries(catches.map((c) => [c.name, c]));
    expect(Object.keys(byName).sort()).toEqual(['flaky', 'flaky2', 'mutedOne', 'waits']);
    expect(byName['flaky']).toMatchObject({ runId: 'mr-1', branch: 'feature/a', failed: 3, repetitions: 10, timingSensitive: false, muted: false, effect: 'blocked', module: ':app', suite: SUITE });
    expect(byName['flaky2']).toMatchObject({ runId: 'mr-2', branch: 'feature/b', failed: 1, repetitions: 10, effect: 'would_have_blocked' });
    expect(byName['mutedOne']).toMatchObject({ runId: 'mr-2', failed: 2, muted: true, effect: 'not_blocking' });
    expect(byName['waits']).toMatchObject({ runId: 'mr-3', failed: 2, repetitions: 10, timingSensitive: true, effect: 'not_blocking' });
    expect((await gateCatches(t.db, project, new Date(Date.now() + 86_400_000))).total).toBe(0);
  });

  it('reads the newest 100 catches and counts the rest, never the default branch', async () => {
    const { call } = testApp(t.db);
    const many = await seedProject(t.db, `catches-many-${kind}`);
    const names = Array.from({ length: 105 }, (_, i) => `caught${i}`);
    expect((await call('POST', `/api/v1/projects/${many.handle}/runs`, many.token, run('mr-many', names, { branch: 'feature/many' }))).status).toBe(201);
    expect((await call('POST', `/api/v1/projects/${many.handle}/runs/mr-many/gate`, many.token, gate('report', names.map((n) => cand(n, [3]))))).status).toBe(201);
    expect((await call('POST', `/api/v1/projects/${many.handle}/runs`, many.token, run('main-many', ['onMain'], { branch: 'main' }))).status).toBe(201);
    expect((await call('POST', `/api/v1/projects/${many.handle}/runs/main-many/gate`, many.token, gate('report', [cand('onMain', [1])]))).status).toBe(201);
    const { catches, total } = await gateCatches(t.db, (await getProject(t.db, many.projectId))!, new Date(Date.now() - 86_400_000));
    expect([catches.length, total]).toEqual([100, 105]);
    expect(catches.every((c) => c.runId === 'mr-many')).toBe(true);
  });

  it('says on the flaky-tests page that nothing counts for attribution but the gate caught tests, with links to their runs', async () => {
    const catches = await gateCatches(t.db, project, new Date(Date.now() - 86_400_000));
    const html = String(FlakyTestsPage({ frame: { title: 'Flaky tests', project: p.handle, account: 'a', csrf: 'x' }, windowDays: 14, tests: [], catches }));
    expect(html).not.toContain('No flaky tests.');
    expect(html).toContain('No flaky tests that count for attribution; the stress gate caught 4 new tests before merge, below.');
    expect(html).toContain('Caught before merge by the stress gate (4)');
    expect(html).toContain(`<a href="/projects/${p.handle}/runs/mr-1"><code>mr-1</code></a> on feature/a`);
    expect(html).toContain('blocked its merge request');
    expect(html).not.toContain('secretOfOther');
    expect(html).not.toContain('onMain');
  });
});
