import { describe, expect, it } from '@jest/globals';
import { failedOnlyOnNew, failingTests } from './failed-on-new.js';

const tc = (name: string, status: 'success' | 'failure' | 'skipped', muted = false) => ({ module: ':app', suite: 'com.shop.CheckoutTest', name, status, muted });
const newTests = [{ module: ':app', suite: 'com.shop.CheckoutTest', name: 'appliesDiscount' }, { module: ':app', suite: 'com.shop.CheckoutTest', name: 'total' }];

describe('failedOnlyOnNew', () => {
  it('is true when every test that failed the build is new', () => {
    expect(failedOnlyOnNew({ cases: [tc('appliesDiscount', 'failure'), tc('old', 'success'), tc('total', 'success')] as never }, newTests)).toBe(true);
  });

  it('is false when an old test failed too: the old rule (skip) stands', () => {
    expect(failedOnlyOnNew({ cases: [tc('appliesDiscount', 'failure'), tc('old', 'failure')] as never }, newTests)).toBe(false);
  });

  it('is false when no test failed (compilation, a build script): nothing to stress', () => {
    expect(failedOnlyOnNew({ cases: [tc('appliesDiscount', 'success')] as never }, newTests)).toBe(false);
  });

  it('ignores a muted old failure (masked) but needs a real one', () => {
    const cases = [tc('appliesDiscount', 'failure'), tc('old', 'failure', true)] as never;
    expect(failedOnlyOnNew({ cases }, newTests)).toBe(true);
    expect(failingTests({ cases })).toHaveLength(1);
  });

  it('tells identities apart by module as well as name', () => {
    expect(failedOnlyOnNew({ cases: [{ ...tc('appliesDiscount', 'failure'), module: ':lib' }] as never }, newTests)).toBe(false);
  });
});
