import { describe, expect, it } from '@jest/globals';
import { AccountRequests, shareOfRate } from './account-rate.js';

describe('shareOfRate', () => {
  it('is the whole rate on one instance', () => {
    expect(shareOfRate({ perSecond: 100, burst: 1000 }, 1)).toEqual({ perSecond: 100, burst: 1000 });
  });

  it('splits the rate and the burst evenly, so the instances together allow the configured rate', () => {
    const share = shareOfRate({ perSecond: 100, burst: 1000 }, 3);
    expect(share.perSecond * 3).toBeCloseTo(100);
    expect(share.burst).toBe(333);
  });

  it('keeps at least one request at once', () => {
    expect(shareOfRate({ perSecond: 1, burst: 2 }, 4)).toEqual({ perSecond: 0.25, burst: 1 });
  });

  it('is what two instances count: the account gets its burst once, not twice', () => {
    const instances = [0, 1].map(() => new AccountRequests(shareOfRate({ perSecond: 0.001, burst: 10 }, 2)));
    let allowed = 0;
    for (let i = 0; i < 20; i++) {
      try {
        instances[i % 2]!.take('account');
        allowed++;
      } catch {
        // over its share
      }
    }
    expect(allowed).toBe(10);
  });
});
