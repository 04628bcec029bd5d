// Telemetry rows of one gate upload: the stress pass's timing and per-candidate statistics
// (first failure, repetitions recorded). Pure; record-gate inserts them, the fleet generator too.
import type { Repetition } from '../contract.js';
import type { ParsedGateUpload } from '../validation/parse-body.js';

/** What telemetry keeps of one candidate's repetitions. */
export interface RepetitionStats {
  repetitions: number;
  failures: number;
  /** The repetition number of the first failure; 0 when none failed. */
  firstFailureAt: number;
  repetitionsMs: number;
}

/** Counts, first failure and summed duration of a candidate's repetitions (in any order). */
export function repetitionStats(reps: readonly Repetition[]): RepetitionStats {
  let failures = 0;
  let firstFailureAt = 0;
  let repetitionsMs = 0;
  for (const r of reps) {
    repetitionsMs += r.durationMs;
    if (r.status !== 'failure') continue;
    failures++;
    if (firstFailureAt === 0 || r.repetition < firstFailureAt) firstFailureAt = r.repetition;
  }
  return { repetitions: reps.length, failures, firstFailureAt, repetitionsMs };
}

type RunKey = { project_id: string; run_id: string; shard_index: number };

/** The gate_timings row of an upload (has_timing = 0 when the client sent none). */
export function gateTimingRow(key: RunKey, timing: ParsedGateUpload['timing'], recordedAt: string): Record<string, unknown> {
  return {
    ...key,
    has_timing: timing ? 1 : 0,
    has_pass: timing?.wallClockMs != null ? 1 : 0,
    wall_clock_ms: timing?.wallClockMs ?? 0,
    predicted_ms: timing?.predictedMs ?? 0,
    jvm_start_ms: timing?.jvmStartMs ?? 0,
    ceiling_cut: timing?.cut ? 1 : 0,
    recorded_at: recordedAt,
  };
}

/** The gate_candidate_stats row of one uploaded candidate. */
export function candidateStatsRow(key: RunKey, testCaseId: string, t: Pick<ParsedGateUpload['testCases'][number], 'muted' | 'outcome' | 'durationMs' | 'plannedRepetitions' | 'repetitions'>, recordedAt: string): Record<string, unknown> {
  const s = repetitionStats(t.repetitions);
  return {
    ...key,
    test_case_id: testCaseId,
    muted: t.muted ? 1 : 0,
    outcome: t.outcome,
    duration_ms: t.durationMs ?? 0,
    planned_repetitions: t.plannedRepetitions ?? s.repetitions,
    repetitions: s.repetitions,
    failures: s.failures,
    first_failure_at: s.firstFailureAt,
    repetitions_ms: s.repetitionsMs,
    recorded_at: recordedAt,
  };
}
