// Predicts the stress pass's wall clock from the measured durations, before running it.
import type { GateCandidate } from '../candidates/gate-candidate.js';

/** The prediction and whether it exceeds the ceiling. */
export interface CeilingPrediction {
  predictedMs: number;
  ceilingMs: number;
  exceeds: boolean;
}

/**
 * Repetition k of a Test task is one fresh JVM, and the repetitions of the tasks run one after
 * another, so the floor is Σ over tasks of (max repetitions × JVM start) plus Σ (reps × duration).
 * (With a single Test task this is the brief's maxReps × jvmStart + Σ reps_i × duration_i.)
 */
export function predictCeiling(stress: readonly GateCandidate[], jvmStartMs: number, ceilingSeconds: number): CeilingPrediction {
  const maxRepsByTask = new Map<string, number>();
  let testsMs = 0;
  for (const c of stress) {
    const reps = c.repetitions ?? 0;
    const task = c.source?.task ?? `${c.module}:?`;
    maxRepsByTask.set(task, Math.max(maxRepsByTask.get(task) ?? 0, reps));
    testsMs += reps * c.durationMs;
  }
  let jvmMs = 0;
  for (const reps of maxRepsByTask.values()) jvmMs += reps * jvmStartMs;
  const predictedMs = jvmMs + testsMs;
  const ceilingMs = ceilingSeconds * 1000;
  return { predictedMs, ceilingMs, exceeds: predictedMs > ceilingMs };
}
