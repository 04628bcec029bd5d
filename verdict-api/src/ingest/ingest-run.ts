// Ingests one run shard: test case runs with the is_new badge, organic repetitions, the
// identity catalogue and branch presence, then the run row that marks the upload complete.
import type { Project } from '../accounts/projects.js';
import type { RunUploadResult } from '../contract.js';
import { testCaseId } from '../identity/test-case-id.js';
import { presentIds } from '../presence/presence.js';
import { formatDateTime, sql, uuid } from '../sql/bind.js';
import { type Database, num } from '../storage/database.js';
import type { ParsedRunUpload } from '../validation/parse-body.js';
import { rejectDuplicates } from './duplicates.js';

/** The ingestion-time badge looks back this far; the verdict does not look back at all. */
export const IS_NEW_WINDOW_DAYS = 90;

/** Test case runs per insert: small enough to overlap encoding with writing, large enough for few parts. */
export const INGEST_CHUNK = 10_000;

/** Writes in flight: a rejected one is held (not unhandled) until it is awaited. */
class Pipeline {
  private readonly pending: Promise<void>[] = [];
  add(write: Promise<void>): void {
    write.catch(() => undefined);
    this.pending.push(write);
  }
  /** Waits, oldest first, until at most `n` writes are in flight; rethrows the first failure. */
  async atMost(n: number): Promise<void> {
    while (this.pending.length > n) await this.pending.shift();
  }
}

export async function ingestRun(db: Database, project: Project, run: ParsedRunUpload, now = new Date()): Promise<RunUploadResult> {
  const { projectId } = project;
  const shard = run.shard;
  const existing = await db.engine.query<{ test_case_count: unknown; new_test_case_count: unknown }>(sql`
    SELECT test_case_count, new_test_case_count FROM ${db.t('test_runs')} FINAL
    WHERE project_id = ${uuid(projectId)} AND run_id = ${run.runId} AND shard_index = ${shard.index}`);
  if (existing[0]) {
    return { runId: run.runId, shard, testCases: num(existing[0].test_case_count), newTestCases: num(existing[0].new_test_case_count), duplicate: true };
  }
  rejectDuplicates(run.testCases, 'testCases');

  const ranAt = run.startedAt ? new Date(run.startedAt) : now;
  const ranAtText = formatDateTime(ranAt);
  const isCi = run.isCi ? 1 : 0;
  const written = new Pipeline();
  // In chunks, so that ClickHouse writes one chunk while this process hashes and encodes the
  // next. The chunks' ids are disjoint, so a chunk's presence (written by the materialized
  // view) cannot change another chunk's badges.
  let newTestCases = 0;
  for (let start = 0; start < run.testCases.length; start += INGEST_CHUNK) {
    const chunk = run.testCases.slice(start, start + INGEST_CHUNK);
    const ids = chunk.map((t) => testCaseId(projectId, t));
    const badges = newBadges(db, project, ids, ranAt);
    // Encoded while ClickHouse answers the badge query: the two overlap on separate cores.
    written.add(
      db.engine.insert(
        db.t('test_case_run_repetitions'),
        chunk.flatMap((t, i) =>
          t.repetitions.map((r) => ({
            project_id: projectId,
            run_id: run.runId,
            shard_index: shard.index,
            test_case_id: ids[i],
            source: 'organic',
            repetition: r.repetition,
            status: r.status,
            duration_ms: r.durationMs,
            ran_at: ranAtText,
          })),
        ),
      ),
    );
    const isNew = await badges;
    newTestCases += isNew.filter(Boolean).length;
    // Fields are written out rather than spread from a shared object: V8 builds spread-then-
    // extended literals on a slow path, 0.6 s per 50,000 rows (scripts/bench-ingest.ts).
    // test_cases and test_case_branch_presence are filled from these rows by the materialized
    // views of migration 0010, inside ClickHouse.
    written.add(
      db.engine.insert(
        db.t('test_case_runs'),
        chunk.map((t, i) => ({
          project_id: projectId,
          run_id: run.runId,
          shard_index: shard.index,
          test_case_id: ids[i],
          module: t.module,
          suite: t.suite,
          name: t.name,
          status: t.status,
          duration_ms: t.durationMs,
          muted: t.muted ? 1 : 0,
          is_new: isNew[i] ? 1 : 0,
          git_branch: run.branch,
          is_ci: isCi,
          ran_at: ranAtText,
        })),
      ),
    );
    await written.atMost(4);
  }
  await written.atMost(0);
  await db.engine.insert(db.t('test_runs'), [
    {
      project_id: projectId,
      run_id: run.runId,
      shard_index: shard.index,
      shard_total: shard.total,
      git_branch: run.branch,
      git_commit: run.commit,
      is_ci: isCi,
      status: run.status,
      duration_ms: run.durationMs,
      started_at: ranAtText,
      ingested_at: formatDateTime(now),
      test_case_count: run.testCases.length,
      new_test_case_count: newTestCases,
    },
  ]);
  return { runId: run.runId, shard, testCases: run.testCases.length, newTestCases, duplicate: false };
}

/** The badge: not seen in CI on the default branch in the trailing window; nothing is new without a default branch. */
async function newBadges(db: Database, project: Project, ids: string[], ranAt: Date): Promise<boolean[]> {
  if (project.defaultBranch === null) return ids.map(() => false);
  const since = new Date(ranAt.getTime() - IS_NEW_WINDOW_DAYS * 86_400_000);
  const seen = await presentIds(db, { projectId: project.projectId, branch: project.defaultBranch, isCi: true }, ids, since);
  return ids.map((id) => !seen.has(id));
}
