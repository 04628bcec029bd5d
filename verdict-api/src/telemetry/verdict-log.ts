// The verdict log: one row per verdict request, written at verdict time, so telemetry sees
// entitlement, inventory and guard signals even for runs that never upload a gate. Candidates'
// durations go beside it without their names.
import type { VerdictResponse } from '../contract.js';
import { formatDateTime } from '../sql/bind.js';
import type { Database } from '../storage/database.js';
import { nextVersion } from '../storage/version.js';

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
    candidates: v.candidates.map((c) => ({ ...key, duration_ms: c.durationMs, repetitions: c.repetitions ?? 0 })),
  };
}

/** Writes one verdict's log rows. */
export async function recordVerdictLog(db: Database, v: VerdictResponse, ctx: VerdictRequestContext, now = new Date()): Promise<void> {
  const rows = verdictLogRows(v, ctx, now, nextVersion());
  await db.engine.insert(db.t('verdict_log_candidates'), rows.candidates);
  await db.engine.insert(db.t('verdict_log'), [rows.log]);
}
