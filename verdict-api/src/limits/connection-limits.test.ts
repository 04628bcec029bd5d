import { describe, expect, it } from '@jest/globals';
import { defaultConnectionLimits, descriptorLimit } from './connection-limits.js';

const limits = (soft: string) => `Limit                     Soft Limit           Hard Limit           Units\nMax processes             94843                94843                processes\nMax open files            ${soft}                524288               files\n`;

describe('connection limits', () => {
  it('reads the soft descriptor limit from /proc/self/limits', () => {
    expect(descriptorLimit(limits('20000'))).toBe(20_000);
    expect(descriptorLimit(limits('unlimited'))).toBe(Number.POSITIVE_INFINITY);
    expect(descriptorLimit('no such line')).toBeNull();
    expect(descriptorLimit(null)).toBeNull();
  });

  it('gives connections half the descriptors, at most 10,000, and 256 to one address', () => {
    expect(defaultConnectionLimits(20_000)).toMatchObject({ total: 10_000, perAddress: 256, headersTimeoutMs: 10_000, keepAliveTimeoutMs: 5_000 });
    expect(defaultConnectionLimits(1_024)).toMatchObject({ total: 512, perAddress: 256 });
    expect(defaultConnectionLimits(100)).toMatchObject({ total: 64, perAddress: 64 });
    expect(defaultConnectionLimits(Number.POSITIVE_INFINITY).total).toBe(10_000);
    expect(defaultConnectionLimits(null).total).toBe(4_096);
  });
});
