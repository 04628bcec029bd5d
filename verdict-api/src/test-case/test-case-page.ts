// GET …/test-cases/:testCaseId: one test case's flaky mark with its history and its quarantine
// with its audit, for a dashboard to render.
import type { Project } from '../accounts/projects.js';
import { identitiesOf } from '../catalogue/test-case-identities.js';
import { VerdictApiError } from '../errors/errors.js';
import { markHistory, marksOf, type MarkChange } from '../flakiness/flaky-marks.js';
import { effectiveState, quarantineAudit, quarantineOf, type QuarantineAuditEntry } from '../quarantine/quarantine-store.js';
import type { Database } from '../storage/database.js';

/** The page's JSON. */
export interface TestCasePage {
  testCaseId: string;
  module: string;
  suite: string;
  name: string;
  mark: { marked: boolean; reason: string | null; changedAt: string | null; lastFlakyAt: string | null };
  markHistory: MarkChange[];
  quarantine: {
    state: 'enabled' | 'muted' | 'skipped';
    owner: string | null;
    reason: string | null;
    issueUrl: string | null;
    expiresAt: string | null;
    changedBy: string | null;
    changedAt: string | null;
  };
  quarantineAudit: QuarantineAuditEntry[];
}

/** The page; NOT_FOUND when the project has never seen nor quarantined the test case. */
export async function testCasePage(db: Database, project: Project, testCaseId: string, now: Date): Promise<TestCasePage> {
  const [names, marks, q, history, audit] = await Promise.all([
    identitiesOf(db, project.projectId, [testCaseId]),
    marksOf(db, project.projectId, [testCaseId]),
    quarantineOf(db, project.projectId, testCaseId),
    markHistory(db, project.projectId, testCaseId),
    quarantineAudit(db, project.projectId, testCaseId),
  ]);
  const identity = names.get(testCaseId) ?? q;
  if (!identity) throw new VerdictApiError('NOT_FOUND', `no test case ${testCaseId} in this project`, 'testCaseId');
  const mark = marks.get(testCaseId);
  const state = effectiveState(q, now);
  return {
    testCaseId,
    module: identity.module,
    suite: identity.suite,
    name: identity.name,
    mark: mark
      ? { marked: mark.marked, reason: mark.reason, changedAt: mark.changedAt, lastFlakyAt: mark.lastFlakyAt }
      : { marked: false, reason: null, changedAt: null, lastFlakyAt: null },
    markHistory: history,
    quarantine: {
      state,
      owner: q?.owner ?? null,
      reason: q?.reason ?? null,
      issueUrl: q && state !== 'enabled' ? q.issueUrl : null,
      expiresAt: q && state !== 'enabled' ? q.expiresAt : null,
      changedBy: q?.changedBy ?? null,
      changedAt: q?.changedAt ?? null,
    },
    quarantineAudit: audit,
  };
}
