// Prices a candidate by its measured duration on the project's repetition curve.
import { formatDuration, type CurveBucket } from '../contract.js';

export type Price = { repetitions: number; excluded: null } | { repetitions: null; excluded: { reason: 'slow'; detail: string } };

/** The first bucket the duration fits gives the repetitions; slower than every bucket is excluded. */
export function price(durationMs: number, curve: readonly CurveBucket[]): Price {
  for (const bucket of curve) {
    const fits = bucket.bound === 'inclusive' ? durationMs <= bucket.maxDurationMs : durationMs < bucket.maxDurationMs;
    if (fits) return { repetitions: bucket.repetitions, excluded: null };
  }
  const last = curve[curve.length - 1];
  const limit = last ? `${last.bound === 'inclusive' ? 'over' : 'at or over'} ${formatDuration(last.maxDurationMs)}` : 'no curve';
  return { repetitions: null, excluded: { reason: 'slow', detail: `took ${formatDuration(durationMs)}, ${limit}` } };
}
