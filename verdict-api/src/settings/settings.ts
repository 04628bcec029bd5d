// Project settings: the default branch, the flaky-test policy and the stress parameters beside
// it. A write merges a partial patch, validates the whole, and stores a new version.
import * as v from 'valibot';
import { type Project, writeProject } from '../accounts/projects.js';
import { ProjectSettings } from '../contract.js';
import type { ParsedSettingsPatch } from '../validation/parse-body.js';
import { parseBody } from '../validation/parse-body.js';
import type { Database } from '../storage/database.js';

export function settingsOf(p: Project): v.InferOutput<typeof ProjectSettings> {
  return { defaultBranch: p.defaultBranch, flakyPolicy: p.flakyPolicy, stress: p.stress };
}

export async function writeSettings(db: Database, project: Project, patch: ParsedSettingsPatch): Promise<Project> {
  const merged = parseBody(ProjectSettings, {
    defaultBranch: patch.defaultBranch === undefined ? project.defaultBranch : patch.defaultBranch,
    flakyPolicy: { ...project.flakyPolicy, ...stripUndefined(patch.flakyPolicy) },
    stress: { ...project.stress, ...stripUndefined(patch.stress) },
  });
  const next: Project = { ...project, ...merged };
  await writeProject(db, next);
  return next;
}

function stripUndefined<T extends object>(o: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(o ?? {}).filter(([, value]) => value !== undefined)) as Partial<T>;
}
