// Prices a candidate by its measured duration on the project's repetition curve.
import type { CurveBucket } from '../contract.js';

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

/** 4ms, 1.2s, 5m 30s. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)}s`;
  const m = Math.floor(ms / 60_000);
  const s = Math.round((ms % 60_000) / 1000);
  return s === 0 ? `${m}m` : `${m}m ${s}s`;
}
