import { describe, expect, it } from '@jest/globals';
import { DEFAULT_STRESS_PARAMETERS } from './contract.js';
import { formatDuration } from './contract.js';
import { price } from './contract.js';

const curve = DEFAULT_STRESS_PARAMETERS.curve;

describe('price', () => {
  it.each([
    [0, 10],
    [4, 10],
    [5000, 10],
    [5000.5, 5],
    [9999.9, 5],
    [10_000, 3],
    [29_999, 3],
    [30_000, 2],
    [299_999, 2],
  ])('gives %d ms %d repetitions (RFC curve)', (ms, reps) => {
    expect(price(ms, curve)).toEqual({ repetitions: reps, excluded: null });
  });

  it('excludes 5 minutes and slower with the reason', () => {
    expect(price(300_000, curve)).toEqual({ repetitions: null, excluded: { reason: 'slow', detail: 'took 5m, at or over 5m' } });
    expect(price(362_000, curve).excluded?.detail).toBe('took 6m 2s, at or over 5m');
  });
});

describe('formatDuration', () => {
  it('prints ms, seconds and minutes', () => {
    expect([formatDuration(4), formatDuration(1234), formatDuration(12_345), formatDuration(330_000)]).toEqual(['4ms', '1.2s', '12.3s', '5m 30s']);
  });
});
