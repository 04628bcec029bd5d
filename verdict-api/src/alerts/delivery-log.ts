// The webhook delivery log: one row per attempt, readable through GET …/webhooks/deliveries.
import { formatDateTime, sql, uuid } from '../sql/bind.js';
import { type Database, num } from '../storage/database.js';
import { nextVersion } from '../storage/version.js';

/** One delivery attempt. */
export interface DeliveryAttempt {
  deliveryId: string;
  webhookId: string;
  event: string;
  testCaseId: string;
  attempt: number;
  outcome: 'delivered' | 'failed';
  /** The receiver's HTTP status; 0 when no response came. */
  statusCode: number;
  error: string;
  willRetry: boolean;
  attemptedAt: string;
}

/** Appends one attempt. */
export async function logAttempt(db: Database, projectId: string, a: Omit<DeliveryAttempt, 'attemptedAt'>, at: Date): Promise<void> {
  await db.engine.insert(db.t('webhook_deliveries'), [
    {
      project_id: projectId,
      delivery_id: a.deliveryId,
      webhook_id: a.webhookId,
      event: a.event,
      test_case_id: a.testCaseId,
      attempt: a.attempt,
      outcome: a.outcome,
      will_retry: a.willRetry ? 1 : 0,
      status_code: a.statusCode,
      error: a.error,
      attempted_at: formatDateTime(at),
      seq: nextVersion(),
    },
  ]);
}

/** The project's latest attempts, newest first. */
export async function deliveryLog(db: Database, projectId: string, limit: number): Promise<DeliveryAttempt[]> {
  const rows = await db.engine.query<Record<string, unknown>>(sql`
    SELECT toString(delivery_id) AS delivery, toString(webhook_id) AS webhook, event, toString(test_case_id) AS test_case, attempt, outcome,
      status_code, error, will_retry, toString(attempted_at) AS at
    FROM ${db.t('webhook_deliveries')} WHERE project_id = ${uuid(projectId)} ORDER BY seq DESC LIMIT ${limit}`);
  return rows.map((r) => ({
    deliveryId: String(r['delivery']),
    webhookId: String(r['webhook']),
    event: String(r['event']),
    testCaseId: String(r['test_case']),
    attempt: num(r['attempt']),
    outcome: r['outcome'] as DeliveryAttempt['outcome'],
    statusCode: num(r['status_code']),
    error: String(r['error']),
    willRetry: num(r['will_retry']) === 1,
    attemptedAt: String(r['at']),
  }));
}
