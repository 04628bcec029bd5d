// Auto-quarantine (policy flag, off by default): a test newly marked flaky becomes muted, but
// only when it has a successful CI run on the default branch. A test nobody has ever trusted
// (a new test, e.g. one whose only failures came from the stress gate) is never muted by
// automation: that would turn "fix this before it lands" into "land it broken and forget". Nor is
// a test whose flaky evidence came only from runs that are not default-branch CI runs (a
// merge-request token's, stored as no CI run): a merge request could fake retries that mute it.
import type { Project } from '../accounts/projects.js';
import type { DomainDeps } from '../domain/deps.js';
import type { Identity } from '../identity/test-case-id.js';
import { idSet } from '../presence/presence.js';
import { sql, uuid } from '../sql/bind.js';
import type { Database } from '../storage/database.js';
import { effectiveState, quarantineOf } from './quarantine-store.js';
import { setQuarantine } from './set-quarantine.js';

/** The actor and owner recorded on automated quarantines. */
export const AUTO_QUARANTINE_ACTOR = 'auto-quarantine';

/** Which of `ids` have a successful CI run on the project's default branch. */
export async function idsWithSuccessfulDefaultBranchRun(db: Database, project: Project, ids: readonly string[]): Promise<Set<string>> {
  if (project.defaultBranch === null || ids.length === 0) return new Set();
  const rows = await db.engine.query<{ id: string }>(sql`
    SELECT DISTINCT toString(test_case_id) AS id FROM ${db.t('test_case_runs')}
    WHERE project_id = ${uuid(project.projectId)} AND git_branch = ${project.defaultBranch} AND is_ci = 1 AND status = 'success'
      AND toString(test_case_id) IN ${idSet(ids)}`);
  return new Set(rows.map((r) => r.id));
}

/** Mutes the newly marked tests the policy allows; returns the test_case_ids it quarantined. */
export async function autoQuarantine(
  deps: DomainDeps,
  project: Project,
  marked: readonly (Identity & { testCaseId: string; reason: string; trusted?: boolean; unrecordedOnly?: boolean })[],
  now: Date,
): Promise<string[]> {
  if (!project.flakyPolicy.autoQuarantine || marked.length === 0) return [];
  const trusted = await idsWithSuccessfulDefaultBranchRun(deps.db, project, marked.map((m) => m.testCaseId));
  const done: string[] = [];
  for (const m of marked) {
    if (m.trusted === false) {
      deps.log.info({ project: project.handle, testCaseId: m.testCaseId }, 'not auto-quarantined: its flaky evidence came only from runs that are not default-branch CI runs');
      continue;
    }
    if (!trusted.has(m.testCaseId)) {
      deps.log.info({ project: project.handle, testCaseId: m.testCaseId }, 'not auto-quarantined: no successful default-branch CI run');
      continue;
    }
    const record = await quarantineOf(deps.db, project.projectId, m.testCaseId);
    // A test marked earlier: only when nobody has quarantined or enabled it (a person's decision stands).
    if (m.unrecordedOnly && record !== null) continue;
    if (effectiveState(record, now) !== 'enabled') continue;
    await setQuarantine(
      deps,
      project,
      { ...m, state: 'muted', owner: AUTO_QUARANTINE_ACTOR, reason: `auto-quarantined: marked flaky (${m.reason})`, issueUrl: null, expiresAt: null },
      AUTO_QUARANTINE_ACTOR,
      now,
    );
    done.push(m.testCaseId);
  }
  return done;
}
