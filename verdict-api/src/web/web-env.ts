// What the dashboard's routes are given: its dependencies, and the variables a signed-in request carries.
import type { Session } from '../accounts/sessions.js';
import type { Clock } from '../clock/clock.js';
import type { TargetPolicy } from '../config/webhook-allow-list.js';
import type { DomainDeps } from '../domain/deps.js';
import type { BodyCaps } from '../limits/body-caps.js';
import type { StorageQuotas } from '../limits/storage-usage.js';

/** What the dashboard needs: the domain's dependencies, the clock, the migration gate. */
export interface DashboardDeps extends DomainDeps {
  clock: Clock;
  ready: () => Promise<void>;
  /** The public base URL, when the server sits behind a proxy (Origin checks). */
  publicUrl?: string;
  /** The largest forms read (signIn before a session, form after). */
  caps: Pick<BodyCaps, 'form' | 'signIn'>;
  /** Where webhooks may go besides public addresses (config/webhook-allow-list.ts). */
  webhookTargets: TargetPolicy;
  /** Each account's storage usage and quota (the projects page shows them). */
  storage: StorageQuotas;
}

/** The Hono environment of the dashboard: the signed-in session and its account's name (the session guard of signed-in.tsx sets them). */
export type WebEnv = { Variables: { session: Session; accountName: string } };
