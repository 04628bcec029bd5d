import { describe, expect, it } from '@jest/globals';
import { candidate, verdict } from '../../test/support/builders.js';
import { predictCeiling } from './predict-ceiling.js';
import { applyGuards } from './apply-guards.js';

const guards = verdict().guards;
const none = predictCeiling([], 600, 600);

describe('applyGuards', () => {
  it('fires nothing for an ordinary branch', () => {
    expect(applyGuards(verdict(), [candidate('a')], predictCeiling([candidate('a')], 600, 600, 2))).toBeNull();
  });

  it('names the premise guard and its reason', () => {
    const v = verdict({ guards: { ...guards, premise: { fired: true, reason: 'no_default_branch_history' } }, candidates: [] });
    expect(applyGuards(v, [], none)).toEqual({
      name: 'premise',
      count: 0,
      reason: 'Premise: no CI run of main is recorded yet, so no test can be told new (0 test cases ran); not stressed.',
    });
  });

  it('prints the bulk change with its count, ratio and inventory', () => {
    const v = verdict({ guards: { ...guards, bulkChange: { fired: true, newCount: 120, inventory: 200, ratio: 0.3, floor: 50 } } });
    expect(applyGuards(v, [], none)).toEqual({
      name: 'bulk_change',
      count: 120,
      reason: 'Bulk change: 120 new test cases exceed 30% of the 200 known on main; not stressed.',
    });
  });

  it('prints the candidate cap', () => {
    const v = verdict({ guards: { ...guards, candidateCap: { fired: true, count: 250, cap: 200 } } });
    expect(applyGuards(v, [], none)?.reason).toBe('Candidate cap: 250 new test cases exceed the cap of 200; not stressed.');
  });

  it('predicts the ceiling: one JVM per candidate and repetition, Σ reps × (JVM start + duration) / JVMs at a time', () => {
    const slow = [candidate('a', { durationMs: 20_000, repetitions: 3 }), candidate('b', { durationMs: 4_000, repetitions: 10 })];
    // 3 × (600 + 20 000) + 10 × (600 + 4 000) = 107 800 ms
    expect(predictCeiling(slow, 600, 100)).toEqual({ predictedMs: 107_800, ceilingMs: 100_000, exceeds: true, concurrency: 1, jvms: 13 });
    expect(predictCeiling(slow, 600, 108).exceeds).toBe(false);
    // Two at a time: half, but never less than the longest single JVM.
    expect(predictCeiling(slow, 600, 100, 2)).toMatchObject({ predictedMs: 53_900, exceeds: false, concurrency: 2 });
    expect(predictCeiling([candidate('c', { durationMs: 90_000, repetitions: 2 })], 600, 60, 8).predictedMs).toBe(90_600);
    const v = verdict({ parameters: { ...verdict().parameters, ceilingSeconds: 100 } });
    expect(applyGuards(v, slow, predictCeiling(slow, 600, 100))).toEqual({
      name: 'ceiling',
      count: 2,
      reason: 'Ceiling: stressing 2 new test cases would take about 1m 48s, over the 1m 40s ceiling; not stressed.',
    });
  });

  it('gives two candidates of one task a JVM each per repetition', () => {
    const two = [candidate('a', { repetitions: 10 }), candidate('b', { repetitions: 10 })];
    expect(predictCeiling(two, 500, 600)).toMatchObject({ predictedMs: 2 * 10 * (500 + 5), jvms: 20 });
  });
});
