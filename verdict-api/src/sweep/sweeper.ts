// Runs the sweep on an interval inside the server, and purges expired dashboard sessions. Runs
// never overlap; a failed sweep is logged and the next tick tries again.
import type { Clock } from '../clock/clock.js';
import type { DomainDeps } from '../domain/deps.js';
import { sweep } from './sweep.js';
import { purgeExpiredSessions } from '../accounts/sessions.js';

/** How long a claim's ZooKeeper node is kept (coordinator.ts sweepClaims): its row is in ClickHouse long before. */
export const CLAIMS_KEPT_MS = 24 * 3600_000;

/** A running sweeper. */
export interface Sweeper {
  stop(): Promise<void>;
}

/** Starts sweeping every `intervalMs` (the first sweep after one interval). */
export function startSweeper(deps: DomainDeps, intervalMs: number, clock: Clock): Sweeper {
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running) return;
    const now = clock();
    running = sweep(deps, now)
      .then((out) => deps.log.debug({ ...out }, 'sweep done'))
      .catch((error: unknown) => deps.log.warn({ err: error }, 'sweep failed; retrying next interval'))
      .then(async () => {
        const purged = await purgeExpiredSessions(deps.db, now);
        if (purged > 0) deps.log.info({ purged }, 'expired sessions purged');
      })
      .catch((error: unknown) => deps.log.warn({ err: error }, 'expired sessions not purged; retrying next interval'))
      .then(async () => {
        const coordinator = deps.db.coordinator;
        if (!coordinator) return;
        const removed = await coordinator.sweepClaims(CLAIMS_KEPT_MS, now.getTime());
        if (removed > 0) deps.log.info({ removed }, 'old claims removed from ZooKeeper');
      })
      .catch((error: unknown) => deps.log.warn({ err: error }, 'old claims not removed from ZooKeeper; retrying next interval'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
