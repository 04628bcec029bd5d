// Project settings: the default branch, the flaky-test policy and the stress parameters beside
// it. A write merges a partial patch, validates the whole, stores a new version and audits the
// change (who, when, before and after).
import * as v from 'valibot';
import { type Project, writeProject } from '../accounts/projects.js';
import { ProjectSettings } from '../contract.js';
import type { ParsedSettingsPatch } from '../validation/parse-body.js';
import { parseBody } from '../validation/parse-body.js';
import { formatDateTime, sql, uuid } from '../sql/bind.js';
import type { Database } from '../storage/database.js';
import { nextVersion } from '../storage/version.js';

/** The settings part of a project. */
export function settingsOf(p: Project): v.InferOutput<typeof ProjectSettings> {
  return { defaultBranch: p.defaultBranch, flakyPolicy: p.flakyPolicy, stress: p.stress };
}

/** One audited settings change. */
export interface SettingsAuditEntry {
  actor: string;
  changedAt: string;
  before: v.InferOutput<typeof ProjectSettings>;
  after: v.InferOutput<typeof ProjectSettings>;
}

/** Merges and validates `patch`, stores it, audits it as `actor`; returns the project. */
export async function writeSettings(db: Database, project: Project, patch: ParsedSettingsPatch, actor = 'unknown', now = new Date()): Promise<Project> {
  const merged = parseBody(ProjectSettings, {
    defaultBranch: patch.defaultBranch === undefined ? project.defaultBranch : patch.defaultBranch,
    flakyPolicy: { ...project.flakyPolicy, ...stripUndefined(patch.flakyPolicy) },
    stress: { ...project.stress, ...stripUndefined(patch.stress) },
  });
  const next: Project = { ...project, ...merged };
  await writeProject(db, next);
  await db.engine.insert(db.t('settings_audit'), [
    {
      project_id: project.projectId,
      actor,
      changed_at: formatDateTime(now),
      before: JSON.stringify(settingsOf(project)),
      after: JSON.stringify(settingsOf(next)),
      seq: nextVersion(),
    },
  ]);
  return next;
}

/** The project's settings changes, newest first (up to `limit`). */
export async function settingsAudit(db: Database, projectId: string, limit = 100): Promise<SettingsAuditEntry[]> {
  const rows = await db.engine.query<{ actor: string; changed: string; before: string; after: string }>(
    sql`SELECT actor, toString(changed_at) AS changed, before, after FROM ${db.t('settings_audit')} WHERE project_id = ${uuid(projectId)} ORDER BY seq DESC LIMIT ${limit}`,
  );
  return rows.map((r) => ({ actor: r.actor, changedAt: r.changed, before: JSON.parse(r.before), after: JSON.parse(r.after) }));
}

function stripUndefined<T extends object>(o: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(o ?? {}).filter(([, value]) => value !== undefined)) as Partial<T>;
}
