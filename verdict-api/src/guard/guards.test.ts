import { describe, expect, it } from '@jest/globals';
import { DEFAULT_STRESS_PARAMETERS } from '../contract.js';
import { guards } from './guards.js';

const base = { defaultBranch: 'main', inventory: 200, newCount: 3, stressable: 3, parameters: DEFAULT_STRESS_PARAMETERS };

describe('guards', () => {
  it('fires nothing for an ordinary branch', () => {
    const g = guards(base);
    expect([g.premise.fired, g.bulkChange.fired, g.candidateCap.fired]).toEqual([false, false, false]);
  });

  it('fires the premise guard without a default branch or without history', () => {
    expect(guards({ ...base, defaultBranch: null }).premise).toEqual({ fired: true, reason: 'no_default_branch' });
    expect(guards({ ...base, inventory: 0 }).premise).toEqual({ fired: true, reason: 'no_default_branch_history' });
  });

  it('fires bulk change only at or above the floor and above ratio x inventory', () => {
    // A small project adding 49 tests: above 30% of 100 but below the floor.
    expect(guards({ ...base, inventory: 100, newCount: 49 }).bulkChange.fired).toBe(false);
    expect(guards({ ...base, inventory: 100, newCount: 50 }).bulkChange.fired).toBe(true);
    // 60 new of 200 is exactly 30%: not more than the ratio.
    expect(guards({ ...base, inventory: 200, newCount: 60 }).bulkChange.fired).toBe(false);
    expect(guards({ ...base, inventory: 200, newCount: 61 }).bulkChange).toEqual({ fired: true, newCount: 61, inventory: 200, ratio: 0.3, floor: 50 });
  });

  it('fires the cap above the cap, counting only stressable candidates', () => {
    expect(guards({ ...base, stressable: 200 }).candidateCap.fired).toBe(false);
    expect(guards({ ...base, stressable: 201 }).candidateCap).toEqual({ fired: true, count: 201, cap: 200 });
  });
});
