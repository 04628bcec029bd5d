// The ramp page's data: per day, what the gate did on merge requests (clickhouse/queries/ramp-per-day.sql).
import type { Project } from '../accounts/projects.js';
import { DAY_MS } from '../clock/clock.js';
import { queryFile } from '../queries/query-file.js';
import { dateTime, uuid } from '../sql/bind.js';
import { type Database, num } from '../storage/database.js';

/** One day of the ramp. */
export interface RampDay {
  day: string;
  gatedRuns: number;
  candidatesStressed: number;
  wouldHaveBlocked: number;
  guardsFired: number;
  addedMs: number;
}

/** The last `days` days (default 28) with any gate verdict, oldest first. */
export async function rampPerDay(db: Database, project: Project, now: Date, days = 28): Promise<RampDay[]> {
  const since = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS - (days - 1) * DAY_MS);
  const rows = await db.engine.query<Record<string, unknown>>(
    queryFile(db, 'ramp-per-day', { project_id: uuid(project.projectId), default_branch: project.defaultBranch ?? '', since: dateTime(since) }),
  );
  return rows.map((r) => ({
    day: String(r['day_text']),
    gatedRuns: num(r['gated_runs']),
    candidatesStressed: num(r['candidates_stressed']),
    wouldHaveBlocked: num(r['would_have_blocked']),
    guardsFired: num(r['guards_fired']),
    addedMs: num(r['added_ms']),
  }));
}
