// The conflict check after a CI upload ("a commit with a failing and a passing CI run") reads the
// run just stored and the commit's COMMIT_RUNS_READ most recent other runs, on both real engines:
// a commit rerun without end costs each upload a bounded read, the conflict with a recent run is
// still found, and the bound says when it bites (a warning naming how many runs it left unread).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pino from 'pino';
import { testCaseId } from '../../src/identity/test-case-id.js';
import { COMMIT_RUNS_READ, commitConflicts } from '../../src/flakiness/flaky-evidence.js';
import { seedProject, testApp } from '../support/api.js';
import { ENGINES, openTestDatabase, type TestDatabase } from '../support/engines.js';

const T = { module: ':app', suite: 'com.example.NightlyTest', name: 'syncs' };
const U = { module: ':app', suite: 'com.example.NightlyTest', name: 'stable' };
const D0 = Date.parse('2026-11-02T02:00:00Z');

describe.each(ENGINES)('the commit conflict check on %s ClickHouse', (kind) => {
  let t: TestDatabase;
  const warnings: Record<string, unknown>[] = [];
  let nowMs = D0;

  beforeAll(async () => {
    t = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await t.close();
  });

  it(`reads the run just stored and the ${COMMIT_RUNS_READ} most recent others of its commit, and says when runs were left unread`, async () => {
    const log = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line) as Record<string, unknown>) });
    const { call } = testApp(t.db, { clock: () => new Date(nowMs), log });
    const p = await seedProject(t.db, `nightly-${kind}`);
    const upload = async (runId: string, status: 'success' | 'failure') => {
      const res = await call('POST', `/api/v1/projects/${p.handle}/runs`, p.admin, {
        runId, branch: 'main', commit: 'quiet', isCi: true, status, durationMs: 100, startedAt: new Date(nowMs).toISOString(),
        testCases: [{ ...T, status, durationMs: 4 }, { ...U, status: 'success', durationMs: 4 }],
      });
      expect(res.status).toBe(201);
      nowMs += 24 * 3600_000;
    };
    // A scheduled pipeline on a branch nobody commits to: the same commit, night after night.
    for (let i = 1; i <= COMMIT_RUNS_READ + 1; i++) await upload(`night-${String(i).padStart(2, '0')}`, 'success');
    expect(warnings.filter((w) => w.msg?.toString().startsWith('commit conflict check'))).toHaveLength(0);
    await upload('night-22', 'failure');

    // Night 22 failed where 21 nights passed: found, though night 1 was not read.
    const id = testCaseId(p.projectId, T);
    expect(await commitConflicts(t.db, p.projectId, 'quiet', 'night-22')).toEqual({ ids: [id], unread: 1 });
    const page = (await call('GET', `/api/v1/projects/${p.handle}/test-cases/${id}`, p.admin)).body!;
    expect(page.mark.marked).toBe(true);
    const bit = warnings.filter((w) => w.msg?.toString().startsWith('commit conflict check'));
    expect(bit.map((w) => [w.runId, w.read, w.unread])).toEqual([['night-22', COMMIT_RUNS_READ, 1]]);
    // A late upload of an old run is always read beside the most recent others.
    expect(await commitConflicts(t.db, p.projectId, 'quiet', 'night-01')).toEqual({ ids: [id], unread: 1 });
    // A commit of one run has nothing to conflict with.
    expect(await commitConflicts(t.db, p.projectId, 'other', 'x')).toEqual({ ids: [], unread: 0 });
  });
});
