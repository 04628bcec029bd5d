import { describe, expect, it } from '@jest/globals';
import { NO_STORAGE_QUOTA, quotaRefusal, reachedLimits, secondsToUtcMidnight, type StorageQuota, type UsageFigures, utcDay } from './storage-quota.js';

const MiB = 1024 * 1024;
const quota: StorageQuota = { rowsPerDay: 1_000, bytesPerDay: 10 * MiB, rowsRetained: 5_000, bytesRetained: 100 * MiB };
const figures = (today: [number, number], retained: [number, number]): UsageFigures => ({ day: '2026-03-04', today: { rows: today[0], bytes: today[1] }, retained: { rows: retained[0], bytes: retained[1] } });
// 2026-03-04 23:00:00 UTC: an hour before midnight.
const at = Date.UTC(2026, 2, 4, 23, 0, 0);

describe('quotaRefusal', () => {
  it('lets an upload through that fits every limit, up to the limit itself', () => {
    expect(quotaRefusal(quota, figures([900, MiB], [900, MiB]), { rows: 100, bytes: MiB }, at)).toBeNull();
    expect(quotaRefusal(NO_STORAGE_QUOTA, figures([1e12, 1e15], [1e12, 1e15]), { rows: 1e9, bytes: 1e12 }, at)).toBeNull();
  });

  it("refuses an upload that would pass today's rows with 429, Retry-After until the next UTC midnight, naming used, limit and setting", () => {
    const refusal = quotaRefusal(quota, figures([900, MiB], [900, MiB]), { rows: 101, bytes: 1 }, at)!;
    expect(refusal).toMatchObject({ code: 'TOO_MANY_REQUESTS', field: 'quota', retryAfterSeconds: 3600 });
    expect(refusal.message).toBe('quota: this account stored 900 rows today of its 1,000 rows a day; this upload holds 101 rows; uploads are taken again from 00:00 UTC (in 3600 s), or the operator can raise STRESS_GATE_ACCOUNT_ROWS_PER_DAY');
  });

  it("refuses an upload that would pass today's bytes with 429", () => {
    const refusal = quotaRefusal(quota, figures([1, 9.5 * MiB], [1, 9.5 * MiB]), { rows: 1, bytes: MiB }, at)!;
    expect(refusal).toMatchObject({ code: 'TOO_MANY_REQUESTS', field: 'quota' });
    expect(refusal.message).toContain('stored 9.5 MiB today of its 10 MiB a day; this upload holds 1 MiB');
  });

  it('refuses an upload past a retained limit with 413: waiting does not help, the setting is named', () => {
    const refusal = quotaRefusal(quota, figures([0, 0], [4_990, MiB]), { rows: 20, bytes: 1 }, at)!;
    expect(refusal).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', field: 'quota' });
    expect(refusal.retryAfterSeconds).toBeUndefined();
    expect(refusal.message).toContain('stores 4,990 rows of its 5,000 rows retained');
    expect(refusal.message).toContain('STRESS_GATE_ACCOUNT_ROWS_RETAINED');
    // Past both: the retained limit is the one named (tomorrow would not help).
    expect(quotaRefusal(quota, figures([999, 0], [4_999, 0]), { rows: 5, bytes: 1 }, at)!.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it("refuses with 413 an upload larger than a day's limit on its own", () => {
    const refusal = quotaRefusal(quota, figures([0, 0], [0, 0]), { rows: 1_001, bytes: 1 }, at)!;
    expect(refusal).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', field: 'quota' });
    expect(refusal.message).toContain('more than the account\'s 1,000 rows a day; split it');
  });

  it('with no upload, asks whether a limit is reached already', () => {
    expect(quotaRefusal(quota, figures([999, 0], [999, 0]), null, at)).toBeNull();
    expect(quotaRefusal(quota, figures([1_000, 0], [1_000, 0]), null, at)).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    expect(quotaRefusal(quota, figures([0, 0], [0, 100 * MiB]), null, at)).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });
});

describe('the UTC day', () => {
  it('names the day and the seconds to its end', () => {
    expect(utcDay(at)).toBe('2026-03-04');
    expect(secondsToUtcMidnight(at)).toBe(3600);
    expect(secondsToUtcMidnight(Date.UTC(2026, 2, 5))).toBe(86_400);
    expect(secondsToUtcMidnight(Date.UTC(2026, 2, 5) - 1)).toBe(1);
  });

  it('lists the limits reached', () => {
    expect(reachedLimits(quota, figures([1_000, 0], [1_000, 100 * MiB]))).toEqual(['bytesRetained', 'rowsPerDay']);
    expect(reachedLimits(NO_STORAGE_QUOTA, figures([1_000, 0], [1_000, 100 * MiB]))).toEqual([]);
  });
});
