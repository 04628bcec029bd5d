// What one account may store: rows and bytes per UTC day, and retained (everything it stored:
// nothing expires). Judged at upload, before anything is written or claimed: past a daily limit
// 429 with Retry-After until the next UTC midnight; past a retained limit, or an upload larger
// than a day's limit on its own, 413 (waiting does not help; the operator raises the setting).
import { VerdictApiError } from '../errors/errors.js';

/** Rows and bytes of an upload, or the sum of an account's uploads. */
export interface Usage {
  rows: number;
  bytes: number;
}

/** An account's usage on one UTC day (`YYYY-MM-DD`) and in all. */
export interface UsageFigures {
  day: string;
  today: Usage;
  retained: Usage;
}

/** Each limit of the storage quota; 0: no limit. */
export interface StorageQuota {
  rowsPerDay: number;
  bytesPerDay: number;
  rowsRetained: number;
  bytesRetained: number;
}

const MiB = 1024 * 1024;

/**
 * The default quota: 50 million rows and 20 GiB a day, 10 billion rows and 4 TiB retained. A
 * day's limit holds 5,000 runs of a 10,000-test suite (about 620 bytes of body a test case: 3,300
 * of them by bytes); the retained limit holds four years of 3 GiB a day. STRESS_GATE_ACCOUNT_ROWS_PER_DAY,
 * STRESS_GATE_ACCOUNT_MIB_PER_DAY, STRESS_GATE_ACCOUNT_ROWS_RETAINED and
 * STRESS_GATE_ACCOUNT_MIB_RETAINED change it (0: no limit).
 */
export const STORAGE_QUOTA: StorageQuota = { rowsPerDay: 50_000_000, bytesPerDay: 20 * 1024 * MiB, rowsRetained: 10_000_000_000, bytesRetained: 4 * 1024 * 1024 * MiB };

/** No limit at all (the benchmarks). */
export const NO_STORAGE_QUOTA: StorageQuota = { rowsPerDay: 0, bytesPerDay: 0, rowsRetained: 0, bytesRetained: 0 };

/** The setting behind each limit, named in refusals: what the operator changes. */
export const QUOTA_SETTINGS: Record<keyof StorageQuota, string> = {
  rowsPerDay: 'STRESS_GATE_ACCOUNT_ROWS_PER_DAY',
  bytesPerDay: 'STRESS_GATE_ACCOUNT_MIB_PER_DAY',
  rowsRetained: 'STRESS_GATE_ACCOUNT_ROWS_RETAINED',
  bytesRetained: 'STRESS_GATE_ACCOUNT_MIB_RETAINED',
};

/** The UTC day of `ms` as `YYYY-MM-DD`. */
export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** Whole seconds from `ms` to the next UTC midnight (at least 1). */
export const secondsToUtcMidnight = (ms: number): number => Math.max(1, Math.ceil((86_400_000 - (ms % 86_400_000)) / 1000));

/** `n` rows or bytes in words: "1,234 rows", "12.3 MiB". */
export function amount(kind: 'rows' | 'bytes', n: number): string {
  return kind === 'rows' ? `${n.toLocaleString('en-US')} rows` : `${(n / MiB).toLocaleString('en-US', { maximumFractionDigits: 1 })} MiB`;
}

interface Check {
  limit: keyof StorageQuota;
  kind: 'rows' | 'bytes';
  used: (f: UsageFigures) => number;
}

// Retained first: when both bite, waiting for tomorrow would not help.
const CHECKS: Check[] = [
  { limit: 'rowsRetained', kind: 'rows', used: (f) => f.retained.rows },
  { limit: 'bytesRetained', kind: 'bytes', used: (f) => f.retained.bytes },
  { limit: 'rowsPerDay', kind: 'rows', used: (f) => f.today.rows },
  { limit: 'bytesPerDay', kind: 'bytes', used: (f) => f.today.bytes },
];

/**
 * Why an upload of `upload` is refused with the account at `figures`, or null when it fits. With
 * `upload` null the question is whether a limit is reached already (asked before a body is read).
 */
export function quotaRefusal(quota: StorageQuota, figures: UsageFigures, upload: Usage | null, nowMs: number): VerdictApiError | null {
  for (const { limit, kind, used } of CHECKS) {
    const max = quota[limit];
    if (max === 0) continue;
    const have = used(figures);
    const adding = upload?.[kind] ?? 0;
    if (upload === null ? have < max : have + adding <= max) continue;
    const setting = QUOTA_SETTINGS[limit];
    const part = upload === null ? '' : `; this upload holds ${amount(kind, adding)}`;
    if (limit === 'rowsRetained' || limit === 'bytesRetained') {
      return new VerdictApiError('PAYLOAD_TOO_LARGE', `quota: this account stores ${amount(kind, have)} of its ${amount(kind, max)} retained${part}. Waiting does not help: the operator can raise ${setting} (0: no limit)`, 'quota');
    }
    if (adding > max) {
      return new VerdictApiError('PAYLOAD_TOO_LARGE', `quota: this upload holds ${amount(kind, adding)}, more than the account's ${amount(kind, max)} a day; split it, or the operator can raise ${setting} (0: no limit)`, 'quota');
    }
    const wait = secondsToUtcMidnight(nowMs);
    const error = new VerdictApiError('TOO_MANY_REQUESTS', `quota: this account stored ${amount(kind, have)} today of its ${amount(kind, max)} a day${part}; uploads are taken again from 00:00 UTC (in ${wait} s), or the operator can raise ${setting}`, 'quota');
    error.retryAfterSeconds = wait;
    return error;
  }
  return null;
}

/** Which limits `figures` has reached (the dashboard's line). */
export function reachedLimits(quota: StorageQuota, figures: UsageFigures): (keyof StorageQuota)[] {
  return CHECKS.filter(({ limit, used }) => quota[limit] > 0 && used(figures) >= quota[limit]).map((c) => c.limit);
}
