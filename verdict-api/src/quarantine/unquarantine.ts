// Returns a quarantined test case to enabled (a person through the API or the dashboard).
import type { Project } from '../accounts/projects.js';
import type { DomainDeps } from '../domain/deps.js';
import { VerdictApiError } from '../errors/errors.js';
import { effectiveState, quarantineOf, type QuarantineRecord } from './quarantine-store.js';
import { setQuarantine } from './set-quarantine.js';

/** Unquarantines `testCaseId` by `actor`; NOT_FOUND when it was never quarantined. */
export async function unquarantine(
  deps: DomainDeps,
  project: Pick<Project, 'projectId' | 'handle'>,
  testCaseId: string,
  reason: string | undefined,
  actor: string,
  now: Date,
): Promise<{ record: QuarantineRecord; from: QuarantineRecord['state'] }> {
  const current = await quarantineOf(deps.db, project.projectId, testCaseId);
  if (!current) throw new VerdictApiError('NOT_FOUND', `test case ${testCaseId} is not quarantined`, 'testCaseId');
  if (effectiveState(current, now) === 'enabled') return { record: current, from: 'enabled' };
  return setQuarantine(deps, project, { ...current, state: 'enabled', reason: reason ?? 'unquarantined', issueUrl: current.issueUrl, expiresAt: null }, actor, now);
}
