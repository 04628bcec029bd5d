// Changes a test case's quarantine (a person through the API, auto-quarantine, or expiry):
// writes the state and its audit entry, and alerts when the test is newly quarantined.
import type { Project } from '../accounts/projects.js';
import type { QuarantineState } from '../contract.js';
import type { DomainDeps } from '../domain/deps.js';
import { BadRequestError } from '../errors/errors.js';
import type { Identity } from '../identity/test-case-id.js';
import { formatDateTime } from '../sql/bind.js';
import { effectiveState, quarantineOf, type QuarantineRecord, writeQuarantine } from './quarantine-store.js';

/** The change asked for. */
export interface QuarantineChange extends Identity {
  testCaseId: string;
  state: QuarantineState;
  owner: string;
  reason: string;
  issueUrl: string | null;
  expiresAt: Date | null;
}

/** Applies `change` by `actor` at `now`; returns the new record and the state it left. */
export async function setQuarantine(
  deps: DomainDeps,
  project: Pick<Project, 'projectId' | 'handle'>,
  change: QuarantineChange,
  actor: string,
  now: Date,
): Promise<{ record: QuarantineRecord; from: QuarantineState }> {
  if (change.state !== 'enabled' && change.expiresAt !== null && change.expiresAt.getTime() <= now.getTime()) {
    throw new BadRequestError('expiresAt: must be in the future', 'expiresAt');
  }
  const from = effectiveState(await quarantineOf(deps.db, project.projectId, change.testCaseId), now);
  const record: QuarantineRecord = {
    projectId: project.projectId,
    testCaseId: change.testCaseId,
    module: change.module,
    suite: change.suite,
    name: change.name,
    state: change.state,
    owner: change.owner,
    reason: change.reason,
    issueUrl: change.issueUrl,
    expiresAt: change.expiresAt && change.state !== 'enabled' ? formatDateTime(change.expiresAt) : null,
    changedBy: actor,
    changedAt: formatDateTime(now),
  };
  await writeQuarantine(deps.db, record, from);
  deps.log.info({ project: project.handle, testCaseId: record.testCaseId, from, to: record.state, actor }, 'quarantine changed');
  if (from === 'enabled' && record.state !== 'enabled') {
    deps.notifier.notify({
      type: 'test.quarantined',
      projectId: project.projectId,
      project: project.handle,
      testCase: { testCaseId: record.testCaseId, module: record.module, suite: record.suite, name: record.name },
      reason: record.reason,
      occurredAt: now.toISOString(),
      detail: { state: record.state, owner: record.owner, actor, issueUrl: record.issueUrl, expiresAt: record.expiresAt },
    });
  }
  return { record, from };
}
