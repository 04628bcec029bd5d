// Auto-marking by the project's flaky policy. A test case is marked flaky when its organic
// flaky evidence within the window spans at least `autoMarkThreshold` distinct commits; a mark
// clears after `cooldownDays` with no flaky run (see sweep/). Every change goes to the history
// and a newly marked test raises an alert (and may be auto-quarantined).
//
// Only default-branch CI evidence counts (FlakyEvidence.trusted: a CI run of a default-branch
// credential): a merge-request token's runs are stored as no CI run, and their retries neither
// mark a test, nor keep a mark from cooling down, nor mute it. A test marked before real evidence
// earned its mute (marked by evidence that no longer counts, or while auto-quarantine was off) is
// muted when real evidence reaches the threshold, unless it has a quarantine record of its own
// (a person muted or enabled it).
import type { Project } from '../accounts/projects.js';
import { identitiesOf } from '../catalogue/test-case-identities.js';
import { DAY_MS } from '../clock/clock.js';
import type { DomainDeps } from '../domain/deps.js';
import { autoQuarantine } from '../quarantine/auto-quarantine.js';
import { commitKey, type FlakyEvidence, flakyEvidence } from './flaky-evidence.js';
import { type FlakyMark, marksOf, stamp, writeMarks } from './flaky-marks.js';

/** The evidence window: the cooldown, and at least one day. */
export const windowDays = (project: Project): number => Math.max(project.flakyPolicy.cooldownDays, 1);

/** What one evaluation changed. */
export interface MarkOutcome {
  marked: string[];
  refreshed: string[];
  quarantined: string[];
}

/** Evaluates marks for `ids` (or every test case with evidence in the window) at `now`. */
export async function evaluateMarks(deps: DomainDeps, project: Project, now: Date, ids?: readonly string[]): Promise<MarkOutcome> {
  const outcome: MarkOutcome = { marked: [], refreshed: [], quarantined: [] };
  const policy = project.flakyPolicy;
  if (!policy.autoMarkFlaky || (ids && ids.length === 0)) return outcome;
  const days = windowDays(project);
  const evidence = (await flakyEvidence(deps.db, project.projectId, new Date(now.getTime() - days * DAY_MS), ids)).filter((e) => e.trusted);
  if (evidence.length === 0) return outcome;
  const byId = new Map<string, FlakyEvidence[]>();
  for (const e of evidence) byId.set(e.testCaseId, [...(byId.get(e.testCaseId) ?? []), e]);
  const current = await marksOf(deps.db, project.projectId, [...byId.keys()]);
  const names = await identitiesOf(deps.db, project.projectId, [...byId.keys()].filter((id) => !current.has(id)));

  const newlyMarked: (FlakyMark & { reason: string; trusted: boolean })[] = [];
  /** Marked already, and now with enough real evidence: muted if no person decided otherwise. */
  const earned: (FlakyMark & { reason: string; unrecordedOnly: true })[] = [];
  const writes: { mark: FlakyMark; changed: boolean }[] = [];
  const announce: (() => void)[] = [];
  for (const [id, all] of byId) {
    const mark = current.get(id);
    // A cleared mark keeps the evidence that led to it: only newer evidence can mark again.
    const fresh = mark && !mark.marked ? all.filter((e) => e.at > mark.lastFlakyAt) : all;
    if (fresh.length === 0) continue;
    const lastFlakyAt = fresh.reduce((max, e) => (e.at > max ? e.at : max), '');
    const commits = new Set(fresh.map(commitKey));
    if (mark?.marked) {
      if (lastFlakyAt > mark.lastFlakyAt) {
        writes.push({ mark: { ...mark, lastFlakyAt }, changed: false });
        outcome.refreshed.push(id);
      }
      if (commits.size >= policy.autoMarkThreshold) earned.push({ ...mark, reason: markReason(fresh, commits.size, days, policy.autoMarkThreshold), unrecordedOnly: true });
      continue;
    }
    if (commits.size < policy.autoMarkThreshold) continue;
    const identity = mark ?? names.get(id) ?? { module: '', suite: '', name: '' };
    const next: FlakyMark = {
      projectId: project.projectId,
      testCaseId: id,
      module: identity.module,
      suite: identity.suite,
      name: identity.name,
      marked: true,
      reason: markReason(fresh, commits.size, days, policy.autoMarkThreshold),
      changedAt: stamp(now),
      lastFlakyAt,
    };
    writes.push({ mark: next, changed: true });
    newlyMarked.push({ ...next, trusted: fresh.some((e) => e.trusted) });
    outcome.marked.push(id);
    // Announced once the marks are stored.
    announce.push(() => {
      deps.log.info({ project: project.handle, testCaseId: id, reason: next.reason }, 'marked flaky');
      deps.notifier.notify({
        type: 'test.marked_flaky',
        projectId: project.projectId,
        project: project.handle,
        testCase: { testCaseId: id, module: next.module, suite: next.suite, name: next.name },
        reason: next.reason,
        occurredAt: now.toISOString(),
        detail: { flakyRuns: fresh.length, distinctCommits: commits.size, threshold: policy.autoMarkThreshold, windowDays: days, lastFlakyAt },
      });
    });
  }
  if (writes.length > 0) await writeMarks(deps.db, writes);
  for (const a of announce) a();
  outcome.quarantined = await autoQuarantine(deps, project, [...newlyMarked, ...earned], now);
  return outcome;
}

/**
 * Ingestion's shortcut for test cases already marked flaky whose retries disagreed in the run just
 * stored (at `ranAt`): for a marked test, the evidence window only ever moves the mark's latest
 * flaky time, and this run is that evidence, so the mark moves to `ranAt` without reading the
 * window (an upload whose thousands of known-flaky tests were retried read all their history on
 * every upload). Evidence that any other run brought was evaluated when that run was stored, or
 * is caught up by the sweep. Returns the ids it refreshed and the rest, which need evaluateMarks.
 */
export async function refreshMarked(deps: DomainDeps, project: Project, now: Date, ids: readonly string[], ranAt: string): Promise<{ refreshed: string[]; rest: string[] }> {
  if (!project.flakyPolicy.autoMarkFlaky || ids.length === 0) return { refreshed: [], rest: [...ids] };
  const current = await marksOf(deps.db, project.projectId, ids);
  // Evidence older than the window does not count (as in evaluateMarks).
  const windowStart = stamp(new Date(now.getTime() - windowDays(project) * DAY_MS));
  const refreshed: string[] = [];
  const rest: string[] = [];
  const writes: { mark: FlakyMark; changed: boolean }[] = [];
  for (const id of ids) {
    const mark = current.get(id);
    if (!mark?.marked) rest.push(id);
    else if (ranAt > mark.lastFlakyAt && ranAt >= windowStart) {
      writes.push({ mark: { ...mark, lastFlakyAt: ranAt }, changed: false });
      refreshed.push(id);
    }
  }
  if (writes.length > 0) await writeMarks(deps.db, writes);
  return { refreshed, rest };
}

/** "2 flaky runs in 2 distinct commits within 14 days (threshold 1); latest: …" */
export function markReason(evidence: readonly FlakyEvidence[], commits: number, days: number, threshold: number): string {
  const latest = evidence.reduce((a, b) => (b.at > a.at ? b : a));
  const where = latest.commit === '' ? `run ${latest.runId}` : `commit ${latest.commit}`;
  const what =
    latest.kind === 'retries'
      ? `its retries disagreed in run ${latest.runId}${latest.commit === '' ? '' : ` (commit ${latest.commit})`}`
      : `${where} has both a failing and a passing CI run`;
  const runs = `${evidence.length} flaky run${evidence.length === 1 ? '' : 's'}`;
  return `${runs} in ${commits} distinct commit${commits === 1 ? '' : 's'} within ${days} days (threshold ${threshold}); latest: ${what}`;
}
