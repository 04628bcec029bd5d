// Evaluation at ingestion time: after a run upload, the test cases it gave fresh organic
// evidence about (retries that disagreed, or a commit that now has a failing and a passing CI
// run) are evaluated against the flaky policy. The sweep catches up anything missed here.
import type { Project } from '../accounts/projects.js';
import type { DomainDeps } from '../domain/deps.js';
import { rememberedTestCaseId } from '../identity/remembered-ids.js';
import type { ParsedRunUpload } from '../validation/parse-body.js';
import { storedRanAt } from '../ingest/ingest-run.js';
import { formatDateTime } from '../sql/bind.js';
import { evaluateMarks, type MarkOutcome, refreshMarked } from './evaluate-marks.js';
import { COMMIT_RUNS_READ, commitConflicts } from './flaky-evidence.js';
import { recordedIds } from '../quarantine/quarantine-store.js';

/** What an upload revealed, kept small enough to wait in a queue: the ids whose retries disagreed, and the run's commit. */
export interface Revealed {
  runId: string;
  isCi: boolean;
  commit: string;
  /** When the run ran, as stored ('YYYY-MM-DD hh:mm:ss' UTC): the time of its retries' evidence. */
  ranAt: string;
  retried: string[];
}

/** Pure: the upload's test cases whose own retries disagreed. */
export function revealedBy(project: Project, run: ParsedRunUpload, now: Date): Revealed {
  const retried: string[] = [];
  for (const t of run.testCases) {
    if (t.repetitions.length < 2) continue;
    const statuses = new Set(t.repetitions.map((r) => r.status));
    if (statuses.size > 1) retried.push(rememberedTestCaseId(project.projectId, t));
  }
  const ranAt = formatDateTime(storedRanAt(run, now));
  return { runId: run.runId, isCi: run.isCi, commit: run.commit, ranAt, retried };
}

/** Marks (and alerts on) what this upload revealed; errors are logged, never fail the upload. */
export async function onRunIngested(deps: DomainDeps, project: Project, run: ParsedRunUpload | Revealed, now: Date): Promise<MarkOutcome | null> {
  const revealed = 'testCases' in run ? revealedBy(project, run, now) : run;
  // Only default-branch CI evidence changes a project's marks (evaluate-marks.ts): a merge-request
  // token's run (stored as no CI run) or a run outside CI is shown, never evaluated.
  if (!revealed.isCi) return null;
  try {
    // Marked test cases whose retries disagreed here only move their latest evidence to this run.
    const { refreshed, rest } = await refreshMarked(deps, project, now, revealed.retried, revealed.ranAt);
    const ids = new Set(rest);
    // A marked test nobody has quarantined may have just earned its auto-mute (evaluate-marks.ts).
    const marked = revealed.retried.filter((id) => !ids.has(id));
    if (project.flakyPolicy.autoQuarantine && marked.length > 0) {
      const recorded = await recordedIds(deps.db, project.projectId, marked);
      for (const id of marked) if (!recorded.has(id)) ids.add(id);
    }
    if (revealed.isCi) {
      const conflicts = await commitConflicts(deps.db, project.projectId, revealed.commit, revealed.runId);
      for (const id of conflicts.ids) ids.add(id);
      if (conflicts.unread > 0) {
        deps.log.warn(
          { project: project.handle, runId: revealed.runId, commit: revealed.commit, read: COMMIT_RUNS_READ, unread: conflicts.unread },
          'commit conflict check: only the most recent runs of this commit were read; the sweep reads the rest',
        );
      }
    }
    if (ids.size === 0) return refreshed.length === 0 ? null : { marked: [], refreshed, quarantined: [] };
    const outcome = await evaluateMarks(deps, project, now, [...ids]);
    return { ...outcome, refreshed: [...new Set([...refreshed, ...outcome.refreshed])] };
  } catch (error) {
    deps.log.warn({ err: error, project: project.handle, runId: revealed.runId }, 'flaky marks not evaluated at ingestion; the sweep will');
    return null;
  }
}

/** Runs the evaluation after an upload: at once (awaited) or queued behind the response. */
export interface AfterIngest {
  (deps: DomainDeps, project: Project, run: ParsedRunUpload, now: Date): Promise<void>;
  /** Resolves when nothing is queued (shutdown). */
  drain(): Promise<void>;
}

/** The upload waits for its evaluation (tests, tools): marks exist when the upload is answered. */
export function inlineAfterIngest(): AfterIngest {
  const run = async (deps: DomainDeps, project: Project, upload: ParsedRunUpload, now: Date) => void (await onRunIngested(deps, project, upload, now));
  return Object.assign(run, { drain: async () => undefined });
}

/** Evaluations queued at most; beyond it one is skipped, logged, and left to the sweep. */
export const EVALUATIONS_QUEUED = 64;

/**
 * The server's: an upload is answered once its rows are stored, and its flakiness evaluation
 * (reads of the project's recent history, marks, alerts) runs after, one at a time. An upload of
 * 50,000 cases with thousands of disagreeing retries is no longer held by it. Beyond
 * EVALUATIONS_QUEUED waiting, an evaluation is skipped with a warning: the sweep catches it up.
 */
export function queuedAfterIngest(maxQueued = EVALUATIONS_QUEUED): AfterIngest {
  let tail: Promise<void> = Promise.resolve();
  let queued = 0;
  const run = async (deps: DomainDeps, project: Project, upload: ParsedRunUpload, now: Date) => {
    const revealed = revealedBy(project, upload, now);
    if (queued >= maxQueued) {
      deps.log.warn({ project: project.handle, runId: upload.runId, queued }, 'flaky-mark evaluation queue full: this upload is left to the sweep');
      return;
    }
    queued++;
    tail = tail.then(async () => {
      try {
        await onRunIngested(deps, project, revealed, now);
      } finally {
        queued--;
      }
    });
  };
  return Object.assign(run, { drain: () => tail });
}
