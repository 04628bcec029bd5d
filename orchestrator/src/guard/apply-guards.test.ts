import { describe, expect, it } from '@jest/globals';
import { candidate, verdict } from '../../test/support/builders.js';
import { predictCeiling } from '../ceiling/predict-ceiling.js';
import { applyGuards } from './apply-guards.js';

const guards = verdict().guards;

describe('applyGuards', () => {
  it('fires nothing for an ordinary branch', () => {
    expect(applyGuards(verdict(), [candidate('a')], 600)).toBeNull();
  });

  it('names the premise guard and its reason', () => {
    const v = verdict({ guards: { ...guards, premise: { fired: true, reason: 'no_default_branch_history' } }, candidates: [] });
    expect(applyGuards(v, [], 600)).toEqual({
      name: 'premise',
      count: 0,
      reason: 'Premise: no CI run of main is recorded yet, so no test can be told new (0 test cases ran); not stressed.',
    });
  });

  it('prints the bulk change with its count, ratio and inventory', () => {
    const v = verdict({ guards: { ...guards, bulkChange: { fired: true, newCount: 120, inventory: 200, ratio: 0.3, floor: 50 } } });
    expect(applyGuards(v, [], 600)).toEqual({
      name: 'bulk_change',
      count: 120,
      reason: 'Bulk change: 120 new test cases exceed 30% of the 200 known on main; not stressed.',
    });
  });

  it('prints the candidate cap', () => {
    const v = verdict({ guards: { ...guards, candidateCap: { fired: true, count: 250, cap: 200 } } });
    expect(applyGuards(v, [], 600)?.reason).toBe('Candidate cap: 250 new test cases exceed the cap of 200; not stressed.');
  });

  it('predicts the ceiling: reps × JVM start per task plus Σ reps × duration', () => {
    const slow = [candidate('a', { durationMs: 20_000, repetitions: 3 }), candidate('b', { durationMs: 4_000, repetitions: 10 })];
    // 10 × 600 + 3 × 20 000 + 10 × 4 000 = 106 000 ms
    expect(predictCeiling(slow, 600, 100)).toEqual({ predictedMs: 106_000, ceilingMs: 100_000, exceeds: true });
    expect(predictCeiling(slow, 600, 107).exceeds).toBe(false);
    const v = verdict({ parameters: { ...verdict().parameters, ceilingSeconds: 100 } });
    expect(applyGuards(v, slow, 600)).toEqual({
      name: 'ceiling',
      count: 2,
      reason: 'Ceiling: stressing 2 new test cases would take about 1m 46s, over the 1m 40s ceiling; not stressed.',
    });
  });

  it('counts one JVM per repetition per Test task', () => {
    const two = [candidate('a', { repetitions: 10 }), candidate('b', { repetitions: 10, source: { task: ':lib:test', xmlName: 'b', occurrence: 1 } })];
    expect(predictCeiling(two, 500, 600).predictedMs).toBe(10 * 500 * 2 + 2 * 10 * 5);
  });
});
