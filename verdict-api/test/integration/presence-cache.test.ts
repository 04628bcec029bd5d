// The verdict's cached answer to "has this identity ever run in CI on the default branch" against
// a direct read of ClickHouse, under random sequences of uploads: the default branch and others,
// CI or not, skipped tests, shards, retried uploads (the same run again) and reruns (a new run of
// the same tests), with verdicts between them, some sent while an upload is being stored. The
// cache lives in several places (storage/read-cache.ts: known ids, the scope held whole on
// embedded chDB, the inventory; identity/remembered-ids.ts: marks on remembered ids;
// presence/presence.ts: merged lookups; ingest-run.ts and storage/database.ts: what a write adds),
// and none of them may ever call an identity new that has run there, or old that has not.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { testCaseId } from '../../src/identity/test-case-id.js';
import { sql, uuid } from '../../src/sql/bind.js';
import { database, type Database } from '../../src/storage/database.js';
import { scopeKey } from '../../src/storage/read-cache.js';
import { seedProject, testApp, type ProjectHandle } from '../support/api.js';
import { ENGINES, openTestDatabase, type TestDatabase } from '../support/engines.js';

const RUNS = Number(process.env['STRESS_GATE_PRESENCE_RUNS'] ?? 20);
const SUITE = 'com.example.PresenceTest';
/** A small universe of test names, so that sequences revisit the same identities. */
const NAMES = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
const BRANCHES = ['main', 'main', 'main', 'feature/x', 'feature/y'];

type Status = 'success' | 'failure' | 'skipped';
interface Upload {
  kind: 'upload';
  branch: string;
  isCi: boolean;
  tests: [string, Status][];
  shard: { index: number; total: number } | null;
  /** Post an earlier upload of this sequence again: `retry` with its run id (a duplicate), `rerun` as a new run. */
  again: { of: number; as: 'retry' | 'rerun' } | null;
}
interface Verdict {
  kind: 'verdict';
  names: string[];
  /** Sent while the upload before it is being stored, rather than after. */
  concurrent: boolean;
}
interface Pause {
  kind: 'pause';
  ms: number;
}

const tests = fc.uniqueArray(fc.constantFrom(...NAMES), { minLength: 0, maxLength: 5 }).chain((names) =>
  fc.tuple(...names.map((n) => fc.tuple(fc.constant(n), fc.constantFrom<Status>('success', 'success', 'failure', 'skipped')))),
);
const upload: fc.Arbitrary<Upload> = fc.record({
  kind: fc.constant('upload' as const),
  branch: fc.constantFrom(...BRANCHES),
  isCi: fc.oneof({ weight: 2, arbitrary: fc.constant(true) }, fc.constant(false)),
  tests,
  shard: fc.option(fc.integer({ min: 0, max: 1 }).map((index) => ({ index, total: 2 })), { freq: 4 }),
  again: fc.option(fc.record({ of: fc.nat(), as: fc.constantFrom<'retry' | 'rerun'>('retry', 'rerun') }), { freq: 3 }),
});
const verdictStep: fc.Arbitrary<Verdict> = fc.record({
  kind: fc.constant('verdict' as const),
  // Usually every name, so that ids found once are posted again and answered from the cache.
  names: fc.oneof({ weight: 2, arbitrary: fc.constant(NAMES) }, fc.uniqueArray(fc.constantFrom(...NAMES), { minLength: 1, maxLength: NAMES.length })),
  concurrent: fc.boolean(),
});
const pause: fc.Arbitrary<Pause> = fc.record({ kind: fc.constant('pause' as const), ms: fc.constantFrom(0, 5, 30) });
const steps = fc.array(fc.oneof({ weight: 4, arbitrary: upload }, { weight: 4, arbitrary: verdictStep }, { weight: 1, arbitrary: pause }), { minLength: 2, maxLength: 20, size: 'large' });

describe.each(ENGINES)('the verdict\'s cached "ever ran in CI on the default branch" on %s ClickHouse', (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await t.close();
  });

  /** The direct read: every identity with a presence row in CI on main, no cache involved. */
  const presentInClickHouse = async (p: ProjectHandle): Promise<Set<string>> => {
    const rows = await t.db.engine.query<{ id: string }>(sql`
      SELECT DISTINCT toString(test_case_id) AS id FROM ${t.db.t('test_case_branch_presence')}
      WHERE project_id = ${uuid(p.projectId)} AND git_branch = 'main' AND is_ci = 1`);
    return new Set(rows.map((r) => r.id));
  };

  it('answers what ClickHouse holds, after every sequence of uploads, and what a model of the uploads says', async () => {
    let sequence = 0;
    let verdicts = 0;
    let cachedAnswers = 0;
    await fc.assert(
      fc.asyncProperty(steps, async (plan) => {
        sequence++;
        // A fresh Database per sequence: its own caches (over the same engine), its own project.
        const db: Database = database(t.db.engine, t.db.name);
        const { call } = testApp(db);
        const p = await seedProject(t.db, `presence-${kind}-${sequence}`);
        const id = (name: string) => testCaseId(p.projectId, { module: ':app', suite: SUITE, name });
        const posted: { runId: string; body: Record<string, unknown> }[] = [];
        /** The model: names that ran (not skipped) in CI on main in an acknowledged upload. */
        const model = new Set<string>();

        const send = async (step: Upload, index: number): Promise<void> => {
          const earlier = step.again === null || posted.length === 0 ? null : posted[step.again.of % posted.length]!;
          const runId = earlier && step.again!.as === 'retry' ? earlier.runId : `run-${index}`;
          const body: Record<string, unknown> = earlier
            ? { ...earlier.body, runId }
            : {
                runId,
                branch: step.branch,
                commit: `c${index}`,
                isCi: step.isCi,
                status: 'success',
                durationMs: 100,
                ...(step.shard ? { shard: step.shard } : {}),
                testCases: step.tests.map(([name, status]) => ({ module: ':app', suite: SUITE, name, status, durationMs: 12 })),
              };
          const res = await call('POST', `/api/v1/projects/${p.handle}/runs`, p.token, body);
          expect(res.status).toBe(201);
          posted.push({ runId, body });
          if (body.branch === 'main' && body.isCi === true) {
            for (const tc of body.testCases as { name: string; status: Status }[]) if (tc.status !== 'skipped') model.add(tc.name);
          }
        };
        const ask = async (step: Verdict) => {
          // Answered (in part) from the cache: the scope held whole, or a posted id among its known ids.
          const key = scopeKey(p.projectId, 'main', true);
          if (db.cache.known.isWhole(key) || step.names.some((name) => db.cache.known.of(key)?.has(id(name)))) cachedAnswers++;
          const res = await call('POST', `/api/v1/projects/${p.handle}/verdict`, p.token, { testCases: step.names.map((name) => ({ module: ':app', suite: SUITE, name, durationMs: 12 })) });
          expect(res.status).toBe(200);
          verdicts++;
          return { candidates: new Set<string>(res.body!.candidates.map((c: { name: string }) => c.name)), inventory: res.body!.inventory as number };
        };

        for (let i = 0; i < plan.length; i++) {
          const step = plan[i]!;
          if (step.kind === 'pause') {
            await new Promise((resolve) => setTimeout(resolve, step.ms));
          } else if (step.kind === 'upload') {
            const next = plan[i + 1];
            if (next?.kind === 'verdict' && next.concurrent) {
              // The verdict races the upload: each answer must be right before it or after it.
              const before = await presentInClickHouse(p);
              const [, answer] = await Promise.all([send(step, i), ask(next)]);
              const after = await presentInClickHouse(p);
              for (const name of next.names) {
                if (answer.candidates.has(name)) expect({ name, newToTheVerdict: true, presentBefore: before.has(id(name)) }).toEqual({ name, newToTheVerdict: true, presentBefore: false });
                else expect({ name, newToTheVerdict: false, presentAfter: after.has(id(name)) }).toEqual({ name, newToTheVerdict: false, presentAfter: true });
              }
              i++;
            } else await send(step, i);
          } else {
            const answer = await ask(step);
            const present = await presentInClickHouse(p);
            const expected = step.names.filter((name) => !present.has(id(name))).sort();
            expect({ after: i, candidates: [...answer.candidates].sort() }).toEqual({ after: i, candidates: expected });
            expect({ after: i, inventory: answer.inventory }).toEqual({ after: i, inventory: present.size });
            // ClickHouse holds what the uploads say: a skipped test, another branch or a non-CI run leaves no presence there.
            expect([...present].sort()).toEqual([...model].map(id).sort());
          }
        }
      }),
      { numRuns: RUNS },
    );
    process.stderr.write(`presence cache on ${kind}: ${sequence} sequences, ${verdicts} verdicts, ${cachedAnswers} of them answered in part from the cache\n`);
    // The comparison means something only when the cache answered a fair share of the verdicts
    // (measured: about 3 in 4 on embedded chDB, where scopes are held whole; 1 in 4 on a server).
    expect(cachedAnswers).toBeGreaterThan(verdicts / 10);
  }, 240_000);
});
