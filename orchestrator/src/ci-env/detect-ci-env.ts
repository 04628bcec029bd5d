// Branch, commit and is_ci for the run upload: from the CI provider's environment, else git.

/** Where this run happened, as the verdict API records it. */
export interface CiEnv {
  branch: string;
  commit: string;
  isCi: boolean;
  /** Which provider (or "git", or "unknown") the values came from. */
  source: string;
}

/** Runs `git <args>` in the project and returns trimmed stdout, or null when git fails. */
export type GitRunner = (args: string[]) => Promise<string | null>;

interface Provider {
  name: string;
  detect: (env: NodeJS.ProcessEnv) => boolean;
  branch: (env: NodeJS.ProcessEnv) => string | undefined;
  commit: (env: NodeJS.ProcessEnv) => string | undefined;
}

const nonEmpty = (...values: (string | undefined)[]) => values.find((s) => s !== undefined && s.trim() !== '');

// Order matters: providers also set CI=true, so the generic one comes last.
const PROVIDERS: Provider[] = [
  {
    name: 'github-actions',
    detect: (e) => e['GITHUB_ACTIONS'] === 'true',
    // GITHUB_HEAD_REF is the source branch on pull_request events; GITHUB_REF_NAME is "123/merge" there.
    branch: (e) => nonEmpty(e['GITHUB_HEAD_REF'], e['GITHUB_REF_NAME']),
    commit: (e) => e['GITHUB_SHA'],
  },
  {
    name: 'gitlab-ci',
    detect: (e) => e['GITLAB_CI'] === 'true',
    branch: (e) => nonEmpty(e['CI_MERGE_REQUEST_SOURCE_BRANCH_NAME'], e['CI_COMMIT_REF_NAME']),
    commit: (e) => e['CI_COMMIT_SHA'],
  },
  { name: 'buildkite', detect: (e) => e['BUILDKITE'] === 'true', branch: (e) => e['BUILDKITE_BRANCH'], commit: (e) => e['BUILDKITE_COMMIT'] },
  { name: 'circleci', detect: (e) => e['CIRCLECI'] === 'true', branch: (e) => e['CIRCLE_BRANCH'], commit: (e) => e['CIRCLE_SHA1'] },
  {
    name: 'jenkins',
    detect: (e) => nonEmpty(e['JENKINS_URL'], e['JENKINS_HOME']) !== undefined,
    // GIT_BRANCH is "origin/feature" with the Git plugin; BRANCH_NAME (multibranch) is bare.
    branch: (e) => nonEmpty(e['BRANCH_NAME'], e['GIT_BRANCH']?.replace(/^origin\//, '')),
    commit: (e) => e['GIT_COMMIT'],
  },
  { name: 'ci', detect: (e) => e['CI'] === 'true' || e['CI'] === '1', branch: () => undefined, commit: () => undefined },
];

/** Detects the CI provider, filling what it does not say from git. */
export async function detectCiEnv(env: NodeJS.ProcessEnv, git: GitRunner): Promise<CiEnv> {
  const provider = PROVIDERS.find((p) => p.detect(env));
  let branch = provider?.branch(env)?.trim() || undefined;
  let commit = provider?.commit(env)?.trim() || undefined;
  if (branch === undefined) {
    const head = await git(['rev-parse', '--abbrev-ref', 'HEAD']);
    // A detached HEAD says "HEAD", which is no branch.
    if (head && head !== 'HEAD') branch = head;
  }
  if (commit === undefined) commit = (await git(['rev-parse', 'HEAD'])) ?? undefined;
  return {
    branch: branch ?? 'unknown',
    commit: commit ?? '',
    isCi: provider !== undefined,
    source: provider?.name ?? (branch !== undefined ? 'git' : 'unknown'),
  };
}
