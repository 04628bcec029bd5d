// Branch, commit and is_ci for the run upload: the STRESS_GATE_* overrides, else the CI service
// as env-ci knows it (30+ services), else git.
import envCi from 'env-ci';
import { booleanEnv } from '../config/environment.js';

/** Where this run happened, as the verdict API records it. */
export interface CiEnv {
  branch: string;
  commit: string;
  isCi: boolean;
  /** Which service (env-ci's id, "override", "git" or "unknown") the branch came from. */
  source: string;
  /** Said on every run when set: e.g. a detached HEAD on CI, where history cannot accumulate. */
  warning?: string;
}

/** Runs `git <args>` in the project and returns trimmed stdout, or null when git fails. */
export type GitRunner = (args: string[]) => Promise<string | null>;

const nonEmpty = (...values: (string | undefined)[]) => values.map((s) => s?.trim()).find((s) => s !== undefined && s !== '');

// What env-ci gets wrong or leaves out for our purpose (the source branch of a merge request).
function serviceBranch(env: NodeJS.ProcessEnv, found: { service?: string; branch?: string; prBranch?: string; isPr?: boolean }): string | undefined {
  switch (found.service) {
    // env-ci's prBranch is "refs/pull/12/merge" there; GITHUB_HEAD_REF is the source branch.
    case 'github':
      return nonEmpty(env['GITHUB_HEAD_REF'], found.isPr ? undefined : found.branch, env['GITHUB_REF_NAME']);
    // The Git plugin says "origin/feature"; multibranch pipelines say BRANCH_NAME.
    case 'jenkins':
      return nonEmpty(found.isPr ? found.prBranch : undefined, env['BRANCH_NAME'], env['CHANGE_BRANCH'], found.branch)?.replace(/^origin\//, '');
    // env-ci asks git there; CodeBuild's webhook says refs/heads/feature.
    case 'codebuild':
      return nonEmpty(env['CODEBUILD_WEBHOOK_HEAD_REF']?.replace(/^refs\/heads\//, ''), found.branch);
    default:
      return nonEmpty(found.isPr ? found.prBranch : undefined, found.branch);
  }
}

/** STRESS_GATE_IS_CI as a boolean (1/true/yes, 0/false/no), or undefined when unset. */
function isCiOverride(env: NodeJS.ProcessEnv): boolean | undefined {
  return env['STRESS_GATE_IS_CI']?.trim() ? booleanEnv(env, 'STRESS_GATE_IS_CI') : undefined;
}

/**
 * Detects where this run happened. `cwd` is where env-ci may run git (the project directory).
 * Throws UsageError on an invalid STRESS_GATE_IS_CI.
 */
export async function detectCiEnv(env: NodeJS.ProcessEnv, git: GitRunner, cwd: string = process.cwd()): Promise<CiEnv> {
  const forcedCi = isCiOverride(env);
  const forcedBranch = nonEmpty(env['STRESS_GATE_BRANCH']);
  const forcedCommit = nonEmpty(env['STRESS_GATE_COMMIT']);
  const found = envCi({ env, cwd });
  const service = found.isCi ? found.service : undefined;
  // env-ci says "CI" for CI=false too; a generic CI variable counts only when it is truthy.
  const genericCi = !service && ['true', '1'].includes((env['CI'] ?? '').trim().toLowerCase());
  const isCi = forcedCi ?? (service !== undefined || genericCi);

  let branch = forcedBranch ?? (service ? serviceBranch(env, found) : undefined);
  let commit = forcedCommit ?? nonEmpty(service ? found.commit : undefined);
  let source = forcedBranch ? 'override' : branch ? service! : 'unknown';
  if (branch === undefined) {
    const head = await git(['rev-parse', '--abbrev-ref', 'HEAD']);
    // A detached HEAD says "HEAD", which is no branch.
    if (head && head !== 'HEAD') {
      branch = head;
      source = 'git';
    }
  }
  commit ??= (await git(['rev-parse', 'HEAD'])) ?? undefined;
  const result: CiEnv = { branch: branch ?? 'unknown', commit: commit ?? '', isCi, source };
  if (branch === undefined && isCi) {
    result.warning =
      'no branch found: this CI job runs on a detached HEAD and its CI service does not name the branch, so the run is recorded on branch "unknown" and history will not accumulate. ' +
      'Set STRESS_GATE_BRANCH to the branch (e.g. from your CI\'s variables), or check out with the branch (e.g. git checkout -B "$BRANCH").';
  }
  return result;
}
