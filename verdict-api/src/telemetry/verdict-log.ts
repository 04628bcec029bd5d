// The verdict log: one row per verdict request, written at verdict time, so telemetry sees
// entitlement, inventory and guard signals even for runs that never upload a gate. Candidates'
// durations go beside it without their names.
import type { VerdictResponse } from '../contract.js';
import { formatDateTime } from '../sql/bind.js';
import type { Database } from '../storage/database.js';
import { nextVersion } from '../storage/version.js';
import type { Logger } from '../log/logger.js';
import { TsvRows, TsvWriter } from '../storage/tab-separated.js';

/** What the request said about itself (both optional on the wire). */
export interface VerdictRequestContext {
  runId?: string | undefined;
  mode?: 'report' | 'enforce' | undefined;
}

/** The verdict_log row and verdict_log_candidates rows of one answered verdict. Pure. */
export function verdictLogRows(v: VerdictResponse, ctx: VerdictRequestContext, now: Date, seq: number): { log: Record<string, unknown>; candidates: Record<string, unknown>[] } {
  const requestedAt = formatDateTime(now);
  const key = { project_id: v.projectId, requested_at: requestedAt, seq };
  const excluded = v.candidates.filter((c) => c.excluded !== null).length;
  return {
    log: {
      ...key,
      run_id: ctx.runId ?? '',
      mode: ctx.mode ?? '',
      entitled: v.entitled ? 1 : 0,
      has_default_branch: v.defaultBranch === null ? 0 : 1,
      inventory: v.inventory,
      posted: v.posted,
      new_count: v.candidates.length,
      stressable: v.candidates.length - excluded,
      excluded,
      premise_fired: v.guards.premise.fired ? 1 : 0,
      premise_reason: v.guards.premise.reason ?? '',
      bulk_change_fired: v.guards.bulkChange.fired ? 1 : 0,
      candidate_cap_fired: v.guards.candidateCap.fired ? 1 : 0,
      bulk_change_ratio: v.parameters.bulkChangeRatio,
      bulk_change_floor: v.parameters.bulkChangeFloor,
      candidate_cap: v.parameters.candidateCap,
      ceiling_seconds: v.parameters.ceilingSeconds,
    },
    // Written out, not spread: V8 builds spread-then-extended literals on a slow path.
    candidates: v.candidates.map((c) => ({ project_id: key.project_id, requested_at: requestedAt, seq, duration_ms: c.durationMs, repetitions: c.repetitions ?? 0 })),
  };
}

/** Writes one verdict's log rows. */
export async function recordVerdictLog(db: Database, v: VerdictResponse, ctx: VerdictRequestContext, now = new Date()): Promise<void> {
  const rows = verdictLogRows(v, ctx, now, nextVersion());
  await db.engine.insert(db.t('verdict_log_candidates'), rows.candidates);
  await db.engine.insert(db.t('verdict_log'), [rows.log]);
}

/** Where the verdict route puts its log rows. */
export interface VerdictLog {
  record(v: VerdictResponse, ctx: VerdictRequestContext, now: Date): Promise<void>;
  /** Writes what is pending (rejects if ClickHouse refuses; the rows stay pending). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** Writes each verdict's rows before the verdict is answered: two inserts per verdict (tests, tools). */
export function directVerdictLog(db: Database): VerdictLog {
  return {
    record: (v, ctx, now) => recordVerdictLog(db, v, ctx, now),
    flush: async () => undefined,
    close: async () => undefined,
  };
}

/** Verdicts' rows held at most, when ClickHouse refuses them; beyond it the oldest are dropped, loudly. */
export const VERDICT_LOG_MAX_PENDING = 100_000;

/** Verdicts' rows encoded for one insert per table (TabSeparated bytes: no row objects are held). */
class EncodedBatch {
  verdicts = 0;
  private logs: TsvWriter | null = null;
  private candidates: TsvWriter | null = null;

  add(rows: ReturnType<typeof verdictLogRows>): void {
    // The columns are the rows' own keys, in their order, as toTabSeparated takes them.
    (this.logs ??= new TsvWriter(Object.keys(rows.log), 16 * 1024)).row(rows.log);
    for (const c of rows.candidates) (this.candidates ??= new TsvWriter(Object.keys(c), 16 * 1024)).row(c);
    this.verdicts++;
  }

  seal(): SealedBatch {
    return { verdicts: this.verdicts, logs: this.logs!.finish(), candidates: this.candidates?.finish() ?? null };
  }
}

interface SealedBatch {
  verdicts: number;
  logs: TsvRows;
  /** null: none, or written already (the verdict_log insert after them failed). */
  candidates: TsvRows | null;
}

/**
 * The server's verdict log: rows gather and are written every `intervalMs` in one insert per
 * table, so a busy server makes a few inserts a second rather than two per verdict (each insert is
 * a ClickHouse part). Telemetry only: a crash loses at most one interval of it, and rows refused
 * while ClickHouse is away are kept (up to VERDICT_LOG_MAX_PENDING verdicts, oldest batches
 * dropped beyond it, counted and logged) and written when it is back.
 *
 * The rows gather encoded as TabSeparated bytes, outside the JavaScript heap: while ClickHouse is
 * away they pile up (up to 100,000 verdicts' and their candidates'), and as row objects every full
 * collection walked them. Speed is not why: under bench-load (clickhouse-server, 20 s,
 * --trace-gc-nvp) young collections promoted 3.2-3.3 MB each either way. Candidates are written
 * first, and not again once written: verdict_log_candidates has no key that folds a repeat.
 */
export function batchedVerdictLog(db: Database, log: Logger, intervalMs = 1000, maxPending = VERDICT_LOG_MAX_PENDING): VerdictLog {
  let current = new EncodedBatch();
  /** Sealed batches not yet written, oldest first. */
  let sealed: SealedBatch[] = [];
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> | null = null;
  let dropped = 0;

  const schedule = () => {
    if (timer || writing) return;
    timer = setTimeout(() => {
      timer = null;
      flush().catch((error: unknown) => log.warn({ err: error, pending: pending() }, 'verdict log not written yet; retrying'));
    }, intervalMs);
    timer.unref();
  };

  const pending = (): number => sealed.reduce((n, b) => n + b.verdicts, current.verdicts);

  const flush = async (): Promise<void> => {
    while (writing) await writing.catch(() => undefined);
    if (current.verdicts > 0) {
      sealed.push(current.seal());
      current = new EncodedBatch();
    }
    if (sealed.length === 0) return;
    // Taken out while written (flush waits for `writing`, so nothing else touches `sealed`); put back if refused.
    const batch = sealed;
    sealed = [];
    writing = (async () => {
      try {
        const candidates = batch.flatMap((b) => (b.candidates ? [b.candidates] : []));
        if (candidates.length) {
          await db.engine.insert(db.t('verdict_log_candidates'), TsvRows.concat(candidates[0]!.columns, candidates));
          for (const b of batch) b.candidates = null;
        }
        // Rows of a key written twice (a retry after the insert failed half way) are one row to FINAL.
        await db.engine.insert(db.t('verdict_log'), TsvRows.concat(batch[0]!.logs.columns, batch.map((b) => b.logs)));
      } catch (error) {
        sealed = batch;
        let over = pending() - maxPending;
        if (over > 0) {
          let gone = 0;
          while (over > 0 && sealed.length > 0) {
            const oldest = sealed.shift()!;
            over -= oldest.verdicts;
            gone += oldest.verdicts;
          }
          dropped += gone;
          log.error({ dropped: gone, droppedTotal: dropped, limit: maxPending }, 'verdict log: ClickHouse refused it too long; oldest telemetry rows dropped');
        }
        throw error;
      } finally {
        writing = null;
        if (pending() > 0) schedule();
      }
    })();
    await writing;
  };

  return {
    async record(v, ctx, now) {
      current.add(verdictLogRows(v, ctx, now, nextVersion()));
      schedule();
    },
    flush,
    async close() {
      if (timer) clearTimeout(timer);
      timer = null;
      await flush();
    },
  };
}
