// The periodic sweep: catches up marks the ingestion-time evaluation missed, clears marks whose
// cooldown has passed (no organic flaky run for cooldownDays), and returns expired quarantines
// to enabled with an alert. Deterministic given `now`: tests call it with an injected clock.
import { listProjects, type Project } from '../accounts/projects.js';
import { DAY_MS } from '../clock/clock.js';
import type { DomainDeps } from '../domain/deps.js';
import { evaluateMarks } from '../flakiness/evaluate-marks.js';
import { allMarked, stamp, writeMark } from '../flakiness/flaky-marks.js';
import { expiredQuarantines, writeQuarantine } from '../quarantine/quarantine-store.js';

/** The actor recorded when a quarantine expires. */
export const EXPIRY_ACTOR = 'expiry';

/** What one sweep changed, as test_case_ids. */
export interface SweepOutcome {
  marked: string[];
  cleared: string[];
  expired: string[];
}

/** Runs one sweep over every project at `now`. */
export async function sweep(deps: DomainDeps, now: Date): Promise<SweepOutcome> {
  const out: SweepOutcome = { marked: [], cleared: [], expired: [] };
  const projects = new Map((await listProjects(deps.db)).map((p) => [p.projectId, p]));
  for (const project of projects.values()) out.marked.push(...(await evaluateMarks(deps, project, now)).marked);

  for (const mark of await allMarked(deps.db)) {
    const project = projects.get(mark.projectId);
    if (!project) continue;
    const days = project.flakyPolicy.cooldownDays;
    if (stamp(new Date(now.getTime() - days * DAY_MS)) < mark.lastFlakyAt) continue;
    const reason = `cooldown: no flaky run for ${days} days (last ${mark.lastFlakyAt} UTC)`;
    await writeMark(deps.db, { ...mark, marked: false, reason, changedAt: stamp(now) }, true);
    deps.log.info({ project: project.handle, testCaseId: mark.testCaseId }, 'flaky mark cleared');
    out.cleared.push(mark.testCaseId);
  }

  for (const q of await expiredQuarantines(deps.db, now)) {
    const project: Pick<Project, 'projectId' | 'handle'> | undefined = projects.get(q.projectId);
    if (!project) continue;
    const reason = `quarantine expired at ${q.expiresAt} UTC`;
    await writeQuarantine(deps.db, { ...q, state: 'enabled', reason, expiresAt: null, changedBy: EXPIRY_ACTOR, changedAt: stamp(now) }, q.state);
    out.expired.push(q.testCaseId);
    deps.notifier.notify({
      type: 'test.quarantine_expired',
      projectId: q.projectId,
      project: project.handle,
      testCase: { testCaseId: q.testCaseId, module: q.module, suite: q.suite, name: q.name },
      reason,
      occurredAt: now.toISOString(),
      detail: { previousState: q.state, owner: q.owner, issueUrl: q.issueUrl, expiresAt: q.expiresAt },
    });
  }
  return out;
}
