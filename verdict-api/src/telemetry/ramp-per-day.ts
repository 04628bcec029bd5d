// The ramp's figures: per day, what the gate did on a project's merge requests, and the total over
// the period. The one definition is clickhouse/queries/ramp-per-day.sql, which `verdict-api
// telemetry` runs unchanged, so the ramp page, its JSON and the telemetry command count the same
// things with the same words: merge requests, runs, would have blocked.
import type { Project } from '../accounts/projects.js';
import { DAY_MS } from '../clock/clock.js';
import { loadQuery } from './query-file.js';
import { bindQuery } from '../telemetry/queries.js';
import type { Database } from '../storage/database.js';
import { num } from '../storage/database.js';

/** What the gate did on merge requests in one day (or the whole period). */
export interface RampCounts {
  /** Merge requests (branches other than the default) with a gated run. */
  mergeRequests: number;
  /** Their runs that reached the gate (a run is all its shards). */
  runs: number;
  /** Of those runs, the ones whose gate failed a new test: blocked (enforce) or would have (report). */
  wouldHaveBlocked: number;
  candidatesStressed: number;
  guardsFired: number;
  addedMs: number;
}

/** One day of the ramp. */
export interface RampDay extends RampCounts {
  day: string;
}

/** The ramp: its days, oldest first, and the total (a merge request gated on several days counts once). */
export interface Ramp {
  days: RampDay[];
  total: RampCounts;
}

const counts = (r: Record<string, unknown>): RampCounts => ({
  mergeRequests: num(r['merge_requests']),
  runs: num(r['runs']),
  wouldHaveBlocked: num(r['would_have_blocked']),
  candidatesStressed: num(r['candidates_stressed']),
  guardsFired: num(r['guards_fired']),
  addedMs: num(r['added_ms']),
});

/** The first day of a ramp of `days` days ending today (UTC). */
export function rampSince(now: Date, days = 28): Date {
  return new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS - (days - 1) * DAY_MS);
}

/** The last `days` days (default 28) with any gated merge-request run, oldest first, and their total. */
export async function rampPerDay(db: Database, project: Project, now: Date, days = 28): Promise<Ramp> {
  const rows = await db.engine.query<Record<string, unknown>>(bindQuery(loadQuery('ramp-per-day'), db.name, { projectId: project.projectId, since: rampSince(now, days) }));
  const total = rows.find((r) => r['day'] === 'total');
  return {
    days: rows.filter((r) => r['day'] !== 'total').map((r) => ({ day: String(r['day']), ...counts(r) })),
    total: total ? counts(total) : { mergeRequests: 0, runs: 0, wouldHaveBlocked: 0, candidatesStressed: 0, guardsFired: 0, addedMs: 0 },
  };
}
