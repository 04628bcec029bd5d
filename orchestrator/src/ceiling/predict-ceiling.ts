// Predicts the stress pass's wall clock from the measured durations, before running it.
import type { GateCandidate } from '../candidates/gate-candidate.js';

/** The prediction and whether it exceeds the ceiling. */
export interface CeilingPrediction {
  predictedMs: number;
  ceilingMs: number;
  exceeds: boolean;
}

/**
 * Repetition k of a Test task is one fresh JVM running its candidates with reps >= k: a job of
 * (JVM start + Σ those candidates' durations). With `concurrency` JVMs at a time the pass takes
 * about Σ jobs / concurrency, and never less than its longest job. With concurrency 1 (the Gradle
 * executor) this is Σ over tasks of (max repetitions × JVM start) + Σ reps_i × duration_i.
 */
export function predictCeiling(stress: readonly GateCandidate[], jvmStartMs: number, ceilingSeconds: number, concurrency = 1): CeilingPrediction {
  const byTask = new Map<string, { reps: number; durationMs: number }[]>();
  for (const c of stress) {
    const task = c.source?.task ?? `${c.module}:?`;
    byTask.set(task, [...(byTask.get(task) ?? []), { reps: c.repetitions ?? 0, durationMs: c.durationMs }]);
  }
  let totalMs = 0;
  let longestMs = 0;
  for (const cands of byTask.values()) {
    const max = Math.max(0, ...cands.map((c) => c.reps));
    for (let k = 1; k <= max; k++) {
      const job = jvmStartMs + cands.filter((c) => c.reps >= k).reduce((a, c) => a + c.durationMs, 0);
      totalMs += job;
      longestMs = Math.max(longestMs, job);
    }
  }
  const predictedMs = Math.max(longestMs, totalMs / Math.max(1, concurrency));
  const ceilingMs = ceilingSeconds * 1000;
  return { predictedMs, ceilingMs, exceeds: predictedMs > ceilingMs };
}
