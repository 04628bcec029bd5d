// What an account stores, measured and kept (account_usage, migration 0039): the storage quota's
// figures. An upload's rows are the test-case and repetition rows it carries (a run's test cases,
// organic repetitions and the body fingerprints kept of default-branch CI history; a gate's
// candidates, stress repetitions, failure records, order probes with their findings, candidate
// origins other than new, renamed tests and its diff analysis), its bytes
// the bytes of its request body as received: both known before anything is written, and what a
// tenant controls. The few rows an upload writes besides (the run row, a gate's verdict and
// timings) are not counted.
import type { Usage, UsageFigures } from '../limits/storage-quota.js';
import type { UsageStore } from '../limits/storage-usage.js';
import { sql, uuid } from '../sql/bind.js';
import { type Database, num } from '../storage/database.js';
import type { ParsedGateUpload, ParsedRunUpload } from '../validation/parse-body.js';
import { leavesPresence } from '../storage/leaves-presence.js';

/** The usage of a run upload of `bytes` bytes; `keepsFingerprints`: its fingerprints are stored (ingest-run.ts). */
export function runUsage(run: Pick<ParsedRunUpload, 'testCases'>, bytes: number, keepsFingerprints = false): Usage {
  let rows = run.testCases.length;
  for (const t of run.testCases) rows += t.repetitions.length + (keepsFingerprints && t.fingerprint != null && leavesPresence(t.status) ? 1 : 0);
  return { rows, bytes };
}

/** The usage of a gate upload of `bytes` bytes. */
export function gateUsage(gate: Pick<ParsedGateUpload, 'testCases' | 'renamed' | 'diff'>, bytes: number): Usage {
  let rows = gate.testCases.length + gate.renamed.length + (gate.diff ? 1 : 0);
  for (const t of gate.testCases) rows += t.repetitions.length + t.failures.length + (t.orderProbe ? 1 + t.orderProbe.findings.length : 0) + (t.origin === 'new' ? 0 : 1);
  return { rows, bytes };
}

/** The account_usage table as the quota's store. */
export function accountUsageStore(db: Database): UsageStore {
  return {
    async load(accountId: string, day: string): Promise<UsageFigures> {
      // Summed here, never trusting SummingMergeTree's merges to have happened.
      const [row] = await db.engine.query<Record<string, unknown>>(sql`
        SELECT sumIf(row_count, usage_date = toDate(${day})) AS today_rows, sumIf(byte_count, usage_date = toDate(${day})) AS today_bytes,
               sum(row_count) AS rows, sum(byte_count) AS bytes
        FROM ${db.t('account_usage')} WHERE account_id = ${uuid(accountId)}`);
      return {
        day,
        today: { rows: num(row?.['today_rows'] ?? 0), bytes: num(row?.['today_bytes'] ?? 0) },
        retained: { rows: num(row?.['rows'] ?? 0), bytes: num(row?.['bytes'] ?? 0) },
      };
    },
    async record(accountId: string, day: string, usage: Usage): Promise<void> {
      await db.engine.insert(db.t('account_usage'), [{ account_id: accountId, usage_date: day, row_count: usage.rows, byte_count: usage.bytes }]);
    },
  };
}
