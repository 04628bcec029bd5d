// Where the merge-request comment goes, read from the CI provider's environment: GitHub Actions
// (GITHUB_TOKEN, GITHUB_REPOSITORY, the PR number from the event file or GITHUB_REF) or GitLab CI
// (CI_API_V4_URL, CI_PROJECT_ID, CI_MERGE_REQUEST_IID, GITLAB_TOKEN or CI_JOB_TOKEN). Pure but for
// reading the event file, which is passed in.

/** A pull request on GitHub. */
export interface GitHubTarget {
  kind: 'github';
  apiUrl: string;
  repository: string;
  number: number;
  token: string;
  /** Running in GitHub Actions: a token that cannot say who it is (GET /user) is the job token, which writes as github-actions[bot]. */
  inActions: boolean;
}

/** A merge request on GitLab; `header` is how the token is sent. */
export interface GitLabTarget {
  kind: 'gitlab';
  apiUrl: string;
  projectId: string;
  iid: number;
  token: string;
  header: 'PRIVATE-TOKEN' | 'JOB-TOKEN';
  /**
   * The user the pipeline runs as (GITLAB_USER_ID): what a job token, which cannot ask GET /user,
   * writes notes as. Null when unknown.
   */
  pipelineUserId: number | null;
}

/** The target, or why there is none. */
export type CommentTarget = { ok: true; target: GitHubTarget | GitLabTarget } | { ok: false; problem: string };

/** Finds the merge request this job runs for. */
export function commentTarget(env: NodeJS.ProcessEnv, readFile: (path: string) => string): CommentTarget {
  if (env['GITHUB_ACTIONS'] === 'true' || env['GITHUB_REPOSITORY']) {
    const token = env['GITHUB_TOKEN'];
    const repository = env['GITHUB_REPOSITORY'];
    if (!token) return { ok: false, problem: 'GITHUB_TOKEN is not set (pass it to the step: env: GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }})' };
    if (!repository || !/^[^/\s]+\/[^/\s]+$/.test(repository)) return { ok: false, problem: 'GITHUB_REPOSITORY is not owner/name' };
    const number = pullNumber(env, readFile);
    if (number === null) return { ok: false, problem: 'this GitHub Actions job is not for a pull request' };
    return { ok: true, target: { kind: 'github', apiUrl: (env['GITHUB_API_URL'] || 'https://api.github.com').replace(/\/+$/, ''), repository, number, token, inActions: env['GITHUB_ACTIONS'] === 'true' } };
  }
  if (env['GITLAB_CI'] === 'true' || env['CI_API_V4_URL']) {
    const iid = Number(env['CI_MERGE_REQUEST_IID']);
    if (!Number.isInteger(iid) || iid < 1) return { ok: false, problem: 'this GitLab CI job is not a merge request pipeline (CI_MERGE_REQUEST_IID is not set)' };
    const apiUrl = env['CI_API_V4_URL'];
    const projectId = env['CI_PROJECT_ID'];
    if (!apiUrl || !projectId) return { ok: false, problem: 'CI_API_V4_URL or CI_PROJECT_ID is not set' };
    const personal = env['GITLAB_TOKEN'];
    const job = env['CI_JOB_TOKEN'];
    if (!personal && !job) return { ok: false, problem: 'set GITLAB_TOKEN (a token with the api scope) or CI_JOB_TOKEN' };
    return {
      ok: true,
      target: {
        kind: 'gitlab',
        apiUrl: apiUrl.replace(/\/+$/, ''),
        projectId,
        iid,
        token: (personal || job)!,
        header: personal ? 'PRIVATE-TOKEN' : 'JOB-TOKEN',
        pipelineUserId: /^\d+$/.test(env['GITLAB_USER_ID'] ?? '') ? Number(env['GITLAB_USER_ID']) : null,
      },
    };
  }
  return { ok: false, problem: 'no merge request: --comment works on GitHub Actions pull requests and GitLab merge request pipelines' };
}

function pullNumber(env: NodeJS.ProcessEnv, readFile: (path: string) => string): number | null {
  const eventPath = env['GITHUB_EVENT_PATH'];
  if (eventPath) {
    try {
      const event = JSON.parse(readFile(eventPath)) as { pull_request?: { number?: unknown }; number?: unknown };
      const n = event.pull_request?.number ?? null;
      if (typeof n === 'number' && Number.isInteger(n) && n > 0) return n;
    } catch {
      // fall through to GITHUB_REF
    }
  }
  const ref = /^refs\/pull\/(\d+)\/(merge|head)$/.exec(env['GITHUB_REF'] ?? '');
  return ref ? Number(ref[1]) : null;
}
