// Predicts the stress pass's wall clock from the measured durations, before running it.
import type { GateCandidate } from '../candidates/gate-candidate.js';

/** The prediction and whether it exceeds the ceiling; the guard, the report and telemetry share it. */
export interface CeilingPrediction {
  predictedMs: number;
  ceilingMs: number;
  exceeds: boolean;
  /** Repetition JVMs at a time, as the build adapter planned the pass. */
  concurrency: number;
  /** Repetition JVMs: one per candidate (or group of invocations sharing JVMs) and repetition. */
  jvms: number;
}

/**
 * Every repetition of every candidate is one fresh JVM: a job of (JVM start + the candidate's
 * duration); the new invocations of one method share theirs (JVM start + the sum of their
 * durations). With `concurrency` JVMs at a time the pass takes about Σ jobs / concurrency, and
 * never less than its longest job. With concurrency 1 (the Gradle executor) it is Σ jobs. A
 * candidate that fails side by side runs again alone: that is not known before, so not predicted
 * (the report says what ran).
 */
export function predictCeiling(stress: readonly GateCandidate[], jvmStartMs: number, ceilingSeconds: number, concurrency = 1): CeilingPrediction {
  let totalMs = 0;
  let longestMs = 0;
  let jvms = 0;
  const units = new Map<string, { reps: number; durationMs: number }>();
  stress.forEach((c, i) => {
    const key = c.group ?? `#${i}`;
    const u = units.get(key) ?? { reps: 0, durationMs: 0 };
    units.set(key, { reps: Math.max(u.reps, c.repetitions ?? 0), durationMs: u.durationMs + c.durationMs });
  });
  for (const { reps, durationMs } of units.values()) {
    if (reps === 0) continue;
    const job = jvmStartMs + durationMs;
    totalMs += reps * job;
    longestMs = Math.max(longestMs, job);
    jvms += reps;
  }
  const predictedMs = Math.max(longestMs, totalMs / Math.max(1, concurrency));
  const ceilingMs = ceilingSeconds * 1000;
  return { predictedMs, ceilingMs, exceeds: predictedMs > ceilingMs, concurrency, jvms };
}
