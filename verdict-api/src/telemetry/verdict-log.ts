// The verdict log: one row per verdict request, written at verdict time, so telemetry sees
// entitlement, inventory and guard signals even for runs that never upload a gate. Candidates'
// durations go beside it without their names.
import type { VerdictResponse } from '../contract.js';
import { formatDateTime } from '../sql/bind.js';
import type { Database } from '../storage/database.js';
import { nextVersion } from '../storage/version.js';
import type { Logger } from '../log/logger.js';

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

/**
 * The server's verdict log: rows gather in memory and are written every `intervalMs` in one insert
 * per table, so a busy server makes a few inserts a second rather than two per verdict (each
 * insert is a ClickHouse part). Telemetry only: a crash loses at most one interval of it, and rows
 * refused while ClickHouse is away are kept (up to VERDICT_LOG_MAX_PENDING verdicts, counted and
 * logged when dropped) and written when it is back.
 */
export function batchedVerdictLog(db: Database, log: Logger, intervalMs = 1000, maxPending = VERDICT_LOG_MAX_PENDING): VerdictLog {
  let logs: Record<string, unknown>[] = [];
  let candidates: Record<string, unknown>[] = [];
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> | null = null;
  let dropped = 0;

  const schedule = () => {
    if (timer || writing) return;
    timer = setTimeout(() => {
      timer = null;
      flush().catch((error: unknown) => log.warn({ err: error, pending: logs.length }, 'verdict log not written yet; retrying'));
    }, intervalMs);
    timer.unref();
  };

  const flush = async (): Promise<void> => {
    while (writing) await writing.catch(() => undefined);
    if (logs.length === 0) return;
    const batch = { logs, candidates };
    logs = [];
    candidates = [];
    writing = (async () => {
      try {
        if (batch.candidates.length) await db.engine.insert(db.t('verdict_log_candidates'), batch.candidates);
        // Rows of a key written twice (a retry after a half-written batch) are one row to FINAL.
        await db.engine.insert(db.t('verdict_log'), batch.logs);
      } catch (error) {
        logs = [...batch.logs, ...logs];
        candidates = [...batch.candidates, ...candidates];
        if (logs.length > maxPending) {
          const over = logs.length - maxPending;
          const gone = new Set(logs.slice(0, over).map((r) => `${String(r['requested_at'])}/${String(r['seq'])}`));
          logs = logs.slice(over);
          candidates = candidates.filter((c) => !gone.has(`${String(c['requested_at'])}/${String(c['seq'])}`));
          dropped += over;
          log.error({ dropped: over, droppedTotal: dropped, limit: maxPending }, 'verdict log: ClickHouse refused it too long; oldest telemetry rows dropped');
        }
        throw error;
      } finally {
        writing = null;
        if (logs.length) schedule();
      }
    })();
    await writing;
  };

  return {
    async record(v, ctx, now) {
      const rows = verdictLogRows(v, ctx, now, nextVersion());
      logs.push(rows.log);
      for (const c of rows.candidates) candidates.push(c);
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
