// Evaluation at ingestion time: after a run upload, the test cases it gave fresh organic
// evidence about (retries that disagreed, or a commit that now has a failing and a passing CI
// run) are evaluated against the flaky policy. The sweep catches up anything missed here.
import type { Project } from '../accounts/projects.js';
import type { DomainDeps } from '../domain/deps.js';
import { testCaseId } from '../identity/test-case-id.js';
import type { ParsedRunUpload } from '../validation/parse-body.js';
import { evaluateMarks, type MarkOutcome } from './evaluate-marks.js';
import { commitConflicts } from './flaky-evidence.js';

/** Marks (and alerts on) what this upload revealed; errors are logged, never fail the upload. */
export async function onRunIngested(deps: DomainDeps, project: Project, run: ParsedRunUpload, now: Date): Promise<MarkOutcome | null> {
  try {
    const ids = new Set<string>();
    for (const t of run.testCases) {
      const statuses = new Set(t.repetitions.map((r) => r.status));
      if (statuses.size > 1) ids.add(testCaseId(project.projectId, t));
    }
    if (run.isCi) for (const id of await commitConflicts(deps.db, project.projectId, run.commit)) ids.add(id);
    if (ids.size === 0) return null;
    return await evaluateMarks(deps, project, now, [...ids]);
  } catch (error) {
    deps.log.warn({ err: error, project: project.handle, runId: run.runId }, 'flaky marks not evaluated at ingestion; the sweep will');
    return null;
  }
}
