// Projects: handle, default branch, the flaky-test policy and the stress parameters beside it.
import { randomUUID } from 'node:crypto';
import { DEFAULT_FLAKY_POLICY, DEFAULT_STRESS_PARAMETERS, type FlakyPolicy, type ProjectSettings, type StressParameters } from '../contract.js';
import { VerdictApiError } from '../errors/errors.js';
import { formatDateTime, type Sql, sql, uuid } from '../sql/bind.js';
import { type Database, num } from '../storage/database.js';
import { nextVersion } from '../storage/version.js';
import { getAccount } from './accounts.js';

export interface Project extends ProjectSettings {
  projectId: string;
  accountId: string;
  handle: string;
}

/** What a project handle is: 1-64 lowercase letters, digits, ".", "_" or "-", starting with a letter or digit. */
export const HANDLE_RE = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** Projects an account may have: a tenant's rows stay bounded. */
export const MAX_PROJECTS_PER_ACCOUNT = 100;

/** Claims of one handle in flight in this process, one after another. */
const claiming = new WeakMap<Database['engine'], Map<string, Promise<unknown>>>();

/**
 * Creates a project under an account with default settings. Handles are unique: claimed one at a
 * time in this process, and the earliest claim in project_handle_claims owns a handle, so two
 * accounts asking for one at once cannot both get it. The 409 says no more than that the handle
 * is not available (not whose it is).
 */
export async function createProject(
  db: Database,
  input: { accountId: string; handle: string; defaultBranch?: string | null },
): Promise<Project> {
  if (!HANDLE_RE.test(input.handle)) {
    throw new VerdictApiError('BAD_REQUEST', 'handle: must be 1-64 lowercase letters, digits, ".", "_" or "-"', 'handle');
  }
  if (!(await getAccount(db, input.accountId))) throw new VerdictApiError('NOT_FOUND', `no account ${input.accountId}`, 'accountId');
  const owned = await db.engine.query<{ n: unknown }>(sql`SELECT count() AS n FROM ${db.t('projects')} FINAL WHERE account_id = ${uuid(input.accountId)}`);
  if (num(owned[0]?.n ?? 0) >= MAX_PROJECTS_PER_ACCOUNT) {
    throw new VerdictApiError('CONFLICT', `projects: this account has ${MAX_PROJECTS_PER_ACCOUNT} projects, the most an account may have`, 'projects');
  }
  const locks = claiming.get(db.engine) ?? claiming.set(db.engine, new Map()).get(db.engine)!;
  const key = `${db.name}\u0000${input.handle}`;
  for (let earlier = locks.get(key); earlier; earlier = locks.get(key)) await earlier.catch(() => undefined);
  const creating = claimAndCreate(db, input);
  locks.set(key, creating);
  try {
    return await creating;
  } finally {
    if (locks.get(key) === creating) locks.delete(key);
  }
}

async function claimAndCreate(db: Database, input: { accountId: string; handle: string; defaultBranch?: string | null }): Promise<Project> {
  const unavailable = () => new VerdictApiError('CONFLICT', `handle: "${input.handle}" is not available; choose another`, 'handle');
  // Read past the authentication cache: a handle just claimed elsewhere must be seen.
  const taken = await db.engine.query<{ n: unknown }>(sql`SELECT count() AS n FROM ${db.t('projects')} WHERE handle = ${input.handle}`);
  if (num(taken[0]?.n ?? 0) > 0) throw unavailable();
  const projectId = randomUUID();
  // On a cluster, API instances agree in ZooKeeper (coordinator.ts): the first to create the
  // handle's node owns it. Its claim row is still written, for the reads of one node below.
  if (db.coordinator) {
    const held = await db.coordinator.claimOnce(JSON.stringify(['handle', input.handle]), projectId);
    if (!held.created) throw unavailable();
  }
  await db.engine.insert(db.t('project_handle_claims'), [
    { handle: input.handle, project_id: projectId, account_id: input.accountId, claimed_at: formatDateTime(new Date()), seq: nextVersion() },
  ]);
  const owner = await db.engine.query<{ id: string }>(sql`
    SELECT toString(project_id) AS id FROM ${db.t('project_handle_claims')} WHERE handle = ${input.handle} ORDER BY seq, id LIMIT 1`);
  if (owner[0]?.id !== projectId) throw unavailable();
  const project: Project = {
    projectId,
    accountId: input.accountId,
    handle: input.handle,
    defaultBranch: input.defaultBranch ?? null,
    flakyPolicy: DEFAULT_FLAKY_POLICY,
    stress: DEFAULT_STRESS_PARAMETERS,
  };
  await writeProject(db, project);
  return project;
}

/** Writes a new version of the project's record (settings writes go through here). */
export async function writeProject(db: Database, p: Project): Promise<void> {
  // The flags first (migration 0035: a table beside projects, 18.16 cannot add a column twice).
  await db.engine.insert(db.t('project_stress_flags'), [
    { project_id: p.projectId, timing_sensitive_blocks: p.stress.timingSensitiveBlocks ? 1 : 0, version: nextVersion() },
  ]);
  // 0040 stores the order setting inverted: no row (a project from before it) reads as its default, block.
  await db.engine.insert(db.t('project_order_flags'), [
    { project_id: p.projectId, order_findings_report_only: p.stress.orderFindingsBlock ? 0 : 1, version: nextVersion() },
  ]);
  // 0043 stores the modified-tests setting as it is: its default is off, which no row reads as.
  await db.engine.insert(db.t('project_modified_flags'), [
    { project_id: p.projectId, modified_tests_block: p.stress.modifiedTestsBlock ? 1 : 0, version: nextVersion() },
  ]);
  await db.engine.insert(db.t('projects'), [
    {
      project_id: p.projectId,
      account_id: p.accountId,
      handle: p.handle,
      default_branch: p.defaultBranch ?? '',
      flaky_auto_mark: p.flakyPolicy.autoMarkFlaky ? 1 : 0,
      flaky_auto_mark_threshold: p.flakyPolicy.autoMarkThreshold,
      flaky_cooldown_days: p.flakyPolicy.cooldownDays,
      flaky_auto_quarantine: p.flakyPolicy.autoQuarantine ? 1 : 0,
      stress_curve: JSON.stringify(p.stress.curve),
      stress_candidate_cap: p.stress.candidateCap,
      stress_ceiling_seconds: p.stress.ceilingSeconds,
      stress_bulk_change_ratio: p.stress.bulkChangeRatio,
      stress_bulk_change_floor: p.stress.bulkChangeFloor,
      created_at: formatDateTime(new Date()),
      version: nextVersion(),
    },
  ]);
}

interface ProjectRow {
  project_id: string;
  account_id: string;
  handle: string;
  default_branch: string;
  flaky_auto_mark: unknown;
  flaky_auto_mark_threshold: unknown;
  flaky_cooldown_days: unknown;
  flaky_auto_quarantine: unknown;
  stress_curve: string;
  stress_candidate_cap: unknown;
  stress_ceiling_seconds: unknown;
  stress_bulk_change_ratio: unknown;
  stress_bulk_change_floor: unknown;
  /** From project_stress_flags; 0 (the default) for a project with no row there. */
  timing_sensitive_blocks: unknown;
  /** From project_order_flags; 0 (order findings block, the default) for a project with no row there. */
  order_findings_report_only: unknown;
  /** From project_modified_flags; 0 (modified tests report only, the default) for a project with no row there. */
  modified_tests_block: unknown;
}

/**
 * The projects matching `where`, each with its stress flags beside it (0035, 0040, 0043). A project
 * created before 0035 has no flags row: the LEFT JOIN gives 0, the flags' defaults (0040's flag is
 * stored inverted so that 0 is its default too). The flag tables are joined inside nested
 * subqueries, one JOIN a SELECT, as 18.16 requires; every settings write writes all three, 0035's
 * first. The subqueries have aliases because chDB requires them; 18.16 takes them too.
 */
function selectProjects(db: Database, where: Sql, orderBy: Sql = sql``): Promise<ProjectRow[]> {
  return db.engine.query<ProjectRow>(sql`
    SELECT project_id, account_id, handle, default_branch, flaky_auto_mark, flaky_auto_mark_threshold, flaky_cooldown_days,
      flaky_auto_quarantine, stress_curve, stress_candidate_cap, stress_ceiling_seconds, stress_bulk_change_ratio,
      stress_bulk_change_floor, timing_sensitive_blocks, order_findings_report_only, modified_tests_block
    FROM ${db.t('projects')} FINAL
    ANY LEFT JOIN (
      SELECT project_id, timing_sensitive_blocks, order_findings_report_only, modified_tests_block
      FROM (
        SELECT project_id, timing_sensitive_blocks, order_findings_report_only
        FROM (SELECT project_id, timing_sensitive_blocks FROM ${db.t('project_stress_flags')} FINAL) AS timing
        ANY LEFT JOIN (SELECT project_id, order_findings_report_only FROM ${db.t('project_order_flags')} FINAL) AS ordering USING project_id
      ) AS older
      ANY LEFT JOIN (SELECT project_id, modified_tests_block FROM ${db.t('project_modified_flags')} FINAL) AS modified USING project_id
    ) AS flags USING project_id
    WHERE ${where} ${orderBy}`);
}

/** A project by id (read through the authentication cache: storage/read-cache.ts). */
export async function getProject(db: Database, projectId: string): Promise<Project | null> {
  return (await db.cache.auth.get(`project ${projectId}`, async () => {
    const rows = await selectProjects(db, sql`project_id = ${uuid(projectId)}`);
    return rows[0] ? toProject(rows[0]) : null;
  })) as Project | null;
}

/** A project by handle (read through the authentication cache). */
export async function getProjectByHandle(db: Database, handle: string): Promise<Project | null> {
  return (await db.cache.auth.get(`handle ${handle}`, async () => {
    const rows = await selectProjects(db, sql`handle = ${handle}`);
    return rows[0] ? toProject(rows[0]) : null;
  })) as Project | null;
}

/** Every project (the sweep walks them). */
export async function listProjects(db: Database): Promise<Project[]> {
  const rows = await selectProjects(db, sql`1`);
  return rows.map(toProject);
}

function toProject(r: ProjectRow): Project {
  const flakyPolicy: FlakyPolicy = {
    autoMarkFlaky: num(r.flaky_auto_mark) === 1,
    autoMarkThreshold: num(r.flaky_auto_mark_threshold),
    cooldownDays: num(r.flaky_cooldown_days),
    autoQuarantine: num(r.flaky_auto_quarantine) === 1,
  };
  const stress: StressParameters = {
    curve: JSON.parse(r.stress_curve) as StressParameters['curve'],
    candidateCap: num(r.stress_candidate_cap),
    ceilingSeconds: num(r.stress_ceiling_seconds),
    bulkChangeRatio: num(r.stress_bulk_change_ratio),
    bulkChangeFloor: num(r.stress_bulk_change_floor),
    timingSensitiveBlocks: num(r.timing_sensitive_blocks) === 1,
    orderFindingsBlock: num(r.order_findings_report_only) !== 1,
    modifiedTestsBlock: num(r.modified_tests_block) === 1,
  };
  return {
    projectId: r.project_id,
    accountId: r.account_id,
    handle: r.handle,
    defaultBranch: r.default_branch === '' ? null : r.default_branch,
    flakyPolicy,
    stress,
  };
}

/** The projects of one account, by handle. */
export async function listProjectsOfAccount(db: Database, accountId: string): Promise<Project[]> {
  const rows = await selectProjects(db, sql`account_id = ${uuid(accountId)}`, sql`ORDER BY handle`);
  return rows.map(toProject);
}
