// Ingests one run shard: test case runs with the is_new badge, organic repetitions, the
// identity catalogue of the new ones and branch presence, the body fingerprints of the test cases
// that ran in CI on the default branch, then the run row that marks the upload complete.
import type { Project } from '../accounts/projects.js';
import type { RunUploadResult } from '../contract.js';
import { rememberedTestCaseId } from '../identity/remembered-ids.js';
import { leavesPresence } from '../storage/leaves-presence.js';
import { absentIds, idsPresentSince, type PresenceScope } from '../presence/presence.js';
import { formatDateTime, sql, uuid } from '../sql/bind.js';
import { type Database, num } from '../storage/database.js';
import { TsvWriter } from '../storage/tab-separated.js';
import type { ParsedRunUpload } from '../validation/parse-body.js';
import { rejectDuplicates } from './duplicates.js';

/** The ingestion-time badge looks back this far; the verdict does not look back at all. Nothing is new without a default branch. */
export const IS_NEW_WINDOW_DAYS = 90;

/** Test case runs per insert: small enough to overlap encoding with writing, large enough for few parts. */
export const INGEST_CHUNK = 10_000;

/** Chunks whose badges are asked for before their turn: the first ones go out with the shard's first reads. */
const BADGES_AHEAD = 2;

/** The columns of test_case_runs an upload writes, in the order ingestShard encodes them. */
const RUN_COLUMNS = ['project_id', 'run_id', 'shard_index', 'git_branch', 'is_ci', 'ran_at', 'test_case_id', 'module', 'suite', 'name', 'status', 'duration_ms', 'muted', 'is_new'];
/** The columns of test_case_run_repetitions an upload writes, in the order ingestShard encodes them. */
const REPETITION_COLUMNS = ['project_id', 'run_id', 'shard_index', 'source', 'ran_at', 'test_case_id', 'repetition', 'status', 'duration_ms'];
/** The columns of the catalogue (test_cases) an upload writes itself, in the order ingestShard encodes them. */
const CATALOGUE_COLUMNS = ['project_id', 'last_ran_at', 'test_case_id', 'module', 'suite', 'name'];
/** The columns of test_case_fingerprints (0042), in the order ingestShard encodes them. */
const FINGERPRINT_COLUMNS = ['project_id', 'git_branch', 'last_seen_at', 'fingerprint', 'test_case_id', 'module', 'suite', 'name'];

/**
 * Whether a shard's fingerprints are kept: its rows are default-branch CI history (a CI run on the
 * project's default branch; a merge-request token's run arrives here as no CI run), the condition
 * under which its presence answers the verdict. Each test case's own: only those that ran (leavesPresence).
 */
export const keepsFingerprints = (project: Pick<Project, 'defaultBranch'>, run: Pick<ParsedRunUpload, 'isCi' | 'branch'>): boolean =>
  run.isCi && project.defaultBranch !== null && run.branch === project.defaultBranch;

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

/**
 * Ingestions of one shard in this process, one after another: a client that timed out and posted
 * the same run again while its first attempt was still being written waits for that attempt and
 * is answered `duplicate: true`, rather than writing every row a second time. (API processes that
 * share one ClickHouse server do not see each other's; FINAL readers still count each row once.)
 */
const shardsInFlight = new WeakMap<Database['engine'], Map<string, Promise<unknown>>>();

export async function ingestRun(db: Database, project: Project, run: ParsedRunUpload, now = new Date()): Promise<RunUploadResult> {
  const inFlight = shardsInFlight.get(db.engine) ?? shardsInFlight.set(db.engine, new Map()).get(db.engine)!;
  const key = JSON.stringify([db.name, project.projectId, run.runId, run.shard.index]);
  for (let earlier = inFlight.get(key); earlier; earlier = inFlight.get(key)) await earlier.catch(() => undefined);
  const ingesting = ingestShard(db, project, run, now);
  inFlight.set(key, ingesting);
  try {
    return await ingesting;
  } finally {
    if (inFlight.get(key) === ingesting) inFlight.delete(key);
  }
}

async function ingestShard(db: Database, project: Project, run: ParsedRunUpload, now: Date): Promise<RunUploadResult> {
  const { projectId } = project;
  const shard = run.shard;
  const ranAt = storedRanAt(run, now);
  // The reads start at once, before any hashing, so that none waits behind another or behind
  // this thread: whether the shard is stored already; what an earlier attempt that stopped half
  // way (the client was never told it succeeded) left behind, since those rows are not written
  // twice and their is_new badges stand although their own presence rows would now make them
  // look old; and the badges' presence. The badge reads cover every id, so they need not wait
  // for the earlier attempt: where it wrote a badge, that one is kept (badgesInOrder). Each
  // chunk's badges are known before its rows (and so its presence) are written.
  const existingRead = db.engine.query<{ test_case_count: unknown; new_test_case_count: unknown }>(sql`
      SELECT test_case_count, new_test_case_count FROM ${db.t('test_runs')} FINAL
      WHERE project_id = ${uuid(projectId)} AND run_id = ${run.runId} AND shard_index = ${shard.index}`);
  const priorRead = priorAttempt(db, projectId, run.runId, shard.index);
  existingRead.catch(() => undefined); // awaited below, after the hashing
  priorRead.catch(() => undefined);
  // In chunks, so that ClickHouse writes one chunk while this process hashes and encodes the
  // next. The chunks' ids are disjoint, so a chunk's presence (written by the materialized
  // view) cannot change another chunk's badges, and later chunks' badges are asked for while
  // this one is encoded and written.
  const chunks: { start: number; ids: string[]; badges?: Promise<boolean[]> }[] = [];
  const badgeScope: PresenceScope | null = project.defaultBranch === null ? null : { projectId, branch: project.defaultBranch, isCi: true };
  const since = new Date(ranAt.getTime() - IS_NEW_WINDOW_DAYS * 86_400_000);
  // An upload of more than one chunk reads its scope's presence once, when the scope is at most
  // twice its size (a full suite's run, the usual upload); otherwise, or when the scope is
  // larger, each chunk asks for its own ids.
  const scopeRead = badgeScope && run.testCases.length > INGEST_CHUNK ? idsPresentSince(db, badgeScope, since, 2 * run.testCases.length) : null;
  scopeRead?.catch(() => undefined); // awaited by the chunks' badges
  const askBadges = (k: number): void => {
    const c = chunks[k];
    if (c === undefined || c.badges !== undefined) return;
    c.badges = badgeScope === null ? Promise.resolve(c.ids.map(() => false)) : badgesOf(db, badgeScope, c.ids, since, scopeRead);
    c.badges.catch(() => undefined); // awaited in its turn
  };
  const ids = new Array<string>(run.testCases.length);
  for (let start = 0; start < ids.length; start += INGEST_CHUNK) {
    const end = Math.min(start + INGEST_CHUNK, ids.length);
    for (let i = start; i < end; i++) ids[i] = rememberedTestCaseId(projectId, run.testCases[i]!);
    chunks.push({ start, ids: ids.slice(start, end) });
    if (chunks.length <= BADGES_AHEAD) askBadges(chunks.length - 1);
  }
  const [existing, prior] = await Promise.all([existingRead, priorRead]);
  if (existing[0]) {
    return { runId: run.runId, shard, testCases: num(existing[0].test_case_count), newTestCases: num(existing[0].new_test_case_count), duplicate: true };
  }
  // One id per identity: equal ids are a repeated identity, named by rejectDuplicates.
  if (new Set(ids).size !== ids.length) rejectDuplicates(run.testCases, 'testCases');

  const ranAtText = formatDateTime(ranAt);
  const isCi = run.isCi ? 1 : 0;
  // What every row of this shard repeats, encoded once.
  const shardFields = TsvWriter.fields(projectId, run.runId, shard.index, run.branch, isCi, ranAtText);
  const catalogueFields = TsvWriter.fields(projectId, ranAtText);
  const written = new Pipeline();
  // The organic repetitions of the whole shard in one insert (they need no badge), written
  // while the chunks' badges are read.
  const repetitions = new TsvWriter(REPETITION_COLUMNS, 64 * 1024);
  const repetitionFields = TsvWriter.fields(projectId, run.runId, shard.index, 'organic', ranAtText);
  run.testCases.forEach((t, i) => {
    if (t.repetitions.length === 0 || prior.repeated.has(ids[i]!)) return;
    for (const r of t.repetitions) repetitions.append(repetitionFields).text(ids[i]!).number(r.repetition).text(r.status).number(r.durationMs).endRow();
  });
  written.add(db.engine.insert(db.t('test_case_run_repetitions'), repetitions.finish()));
  // Body fingerprints of default-branch CI history, in one insert beside the others (a retried
  // shard writes them again: the table keeps one row per key).
  if (keepsFingerprints(project, run)) {
    const fingerprints = new TsvWriter(FINGERPRINT_COLUMNS, 16 * 1024);
    const fingerprintFields = TsvWriter.fields(projectId, run.branch, ranAtText);
    run.testCases.forEach((t, i) => {
      if (t.fingerprint != null && leavesPresence(t.status)) fingerprints.append(fingerprintFields).text(t.fingerprint).text(ids[i]!).text(t.module).text(t.suite).text(t.name).endRow();
    });
    const encoded = fingerprints.finish();
    if (encoded.count > 0) written.add(db.engine.insert(db.t('test_case_fingerprints'), encoded));
  }
  let newTestCases = 0;
  for (let k = 0; k < chunks.length; k++) {
    const { start, ids: chunkIds } = chunks[k]!;
    for (let ahead = k; ahead < k + BADGES_AHEAD; ahead++) askBadges(ahead);
    const chunk = run.testCases.slice(start, start + chunkIds.length);
    const freshBadges = await chunks[k]!.badges!;
    const isNew = badgesInOrder(chunkIds, prior.badges, freshBadges);
    newTestCases += isNew.filter(Boolean).length;
    // Encoded straight into TabSeparated bytes (storage/tab-separated.ts): row objects and a
    // string per row cost three times as much at 50,000 rows. Materialized views fill branch
    // presence (migration 0010) and the catalogue of the ones badged new (0031) from these rows,
    // inside ClickHouse. A test case badged not new ran in CI on the default branch, so it was
    // catalogued then.
    const rows = new TsvWriter(RUN_COLUMNS, chunk.length * 256);
    // What the catalogue's view cannot know, written here before the runs: every test case when
    // nothing is badged new (no default branch), and the new ones an earlier attempt stored (it
    // may have stopped between its runs and their view).
    const catalogue = new TsvWriter(CATALOGUE_COLUMNS, 16 * 1024);
    const ranIds: string[] = [];
    for (let i = 0; i < chunk.length; i++) {
      const id = chunkIds[i]!;
      const t = chunk[i]!;
      const stored = prior.badges.has(id); // an earlier attempt wrote its run
      if (badgeScope === null || (stored && isNew[i])) catalogue.append(catalogueFields).text(id).text(t.module).text(t.suite).text(t.name).endRow();
      if (stored) continue;
      rows.append(shardFields).text(id).text(t.module).text(t.suite).text(t.name).text(t.status).number(t.durationMs).flag(t.muted === true).flag(isNew[i]!).endRow();
      if (leavesPresence(t.status)) ranIds.push(id);
    }
    const runsWrite = () => db.engine.insert(db.t('test_case_runs'), rows.finish({ projectId, branch: run.branch, isCi: run.isCi, ranIds }));
    const catalogued = catalogue.finish();
    written.add(catalogued.count === 0 ? runsWrite() : db.engine.insert(db.t('test_cases'), catalogued).then(runsWrite));
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

/** The time a run's rows are stored with: when it started, else when it arrived. */
export const storedRanAt = (run: Pick<ParsedRunUpload, 'startedAt'>, now: Date): Date => (run.startedAt ? new Date(run.startedAt) : now);

/** What an earlier, unfinished attempt at this shard wrote: its badges, and which ids have their repetitions stored. */
async function priorAttempt(db: Database, projectId: string, runId: string, shardIndex: number): Promise<{ badges: Map<string, boolean>; repeated: Set<string> }> {
  const scope = sql`project_id = ${uuid(projectId)} AND run_id = ${runId} AND shard_index = ${shardIndex}`;
  const rows = await db.engine.query<{ id: string; is_new: unknown; kind: unknown }>(sql`
    SELECT toString(test_case_id) AS id, max(is_new) AS is_new, toUInt8(1) AS kind FROM ${db.t('test_case_runs')} WHERE ${scope} GROUP BY test_case_id
    UNION ALL
    SELECT toString(test_case_id) AS id, toUInt8(0) AS is_new, toUInt8(2) AS kind FROM ${db.t('test_case_run_repetitions')} WHERE ${scope} GROUP BY test_case_id`);
  const badges = new Map<string, boolean>();
  const repeated = new Set<string>();
  for (const r of rows) {
    if (num(r.kind) === 1) badges.set(r.id, num(r.is_new) === 1);
    else repeated.add(r.id);
  }
  return { badges, repeated };
}

/** The badges of `ids` in order: an earlier attempt's where it wrote one, else the fresh one. */
function badgesInOrder(ids: readonly string[], prior: ReadonlyMap<string, boolean>, freshBadges: readonly boolean[]): readonly boolean[] {
  return prior.size === 0 ? freshBadges : ids.map((id, i) => prior.get(id) ?? freshBadges[i]!);
}

/**
 * The badges of `ids`: not seen in CI on the default branch since `since`. From the scope read
 * whole when there is one and it was not too large, else asked for these ids.
 */
async function badgesOf(db: Database, scope: PresenceScope, ids: string[], since: Date, scopeRead: Promise<Set<string> | null> | null): Promise<boolean[]> {
  const present = scopeRead ? await scopeRead : null;
  if (present) return ids.map((id) => !present.has(id));
  const unseen = await absentIds(db, scope, ids, since);
  return ids.map((id) => unseen.has(id));
}
