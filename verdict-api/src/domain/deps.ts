// What the flakiness and quarantine domain functions are given: the store, a logger and the
// alert port. No HTTP here; the app and the sweeper build one of these.
import type { Notifier } from '../alerts/alert-event.js';
import type { Logger } from '../log/logger.js';
import type { Database } from '../storage/database.js';

/** The store, a logger and where alerts go. */
export interface DomainDeps {
  db: Database;
  log: Logger;
  notifier: Notifier;
}
