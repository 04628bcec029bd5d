// The alerts the flakiness machinery raises, and the port they leave through. Domain modules
// raise them; the webhook dispatcher (an adapter) delivers them.

/** What happened to a test case. */
export type AlertEventType = 'test.marked_flaky' | 'test.quarantined' | 'test.quarantine_expired';

/** One alert: the body of a webhook delivery (plus its delivery id). */
export interface AlertEvent {
  type: AlertEventType;
  projectId: string;
  project: string;
  testCase: { testCaseId: string; module: string; suite: string; name: string };
  reason: string;
  occurredAt: string;
  detail: Record<string, unknown>;
}

/** Where alerts go. `notify` never throws and never waits for delivery. */
export interface Notifier {
  notify(event: AlertEvent): void;
}

/** Drops every alert (admin commands, and tests that do not look at alerts). */
export const noNotifier: Notifier = { notify: () => undefined };
