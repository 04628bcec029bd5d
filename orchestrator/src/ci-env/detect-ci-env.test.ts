import { describe, expect, it } from '@jest/globals';
import { detectCiEnv, type GitRunner } from './detect-ci-env.js';

const git: GitRunner = async (args) => (args.includes('--abbrev-ref') ? 'local-branch' : 'abc123');
const noGit: GitRunner = async () => null;

describe('detectCiEnv', () => {
  it.each([
    [{ GITHUB_ACTIONS: 'true', CI: 'true', GITHUB_HEAD_REF: 'feat', GITHUB_REF_NAME: '12/merge', GITHUB_SHA: 's1' }, 'feat', 's1'],
    [{ GITHUB_ACTIONS: 'true', GITHUB_HEAD_REF: '', GITHUB_REF_NAME: 'main', GITHUB_SHA: 's1' }, 'main', 's1'],
    [{ GITLAB_CI: 'true', CI_COMMIT_REF_NAME: 'feat', CI_COMMIT_SHA: 's2' }, 'feat', 's2'],
    [{ BUILDKITE: 'true', BUILDKITE_BRANCH: 'feat', BUILDKITE_COMMIT: 's3' }, 'feat', 's3'],
    [{ CIRCLECI: 'true', CIRCLE_BRANCH: 'feat', CIRCLE_SHA1: 's4' }, 'feat', 's4'],
    [{ JENKINS_URL: 'http://j', BRANCH_NAME: 'feat', GIT_COMMIT: 's5' }, 'feat', 's5'],
    [{ JENKINS_URL: 'http://j', GIT_BRANCH: 'origin/feat', GIT_COMMIT: 's6' }, 'feat', 's6'],
  ])('reads the provider environment %#', async (env, branch, commit) => {
    expect(await detectCiEnv(env, noGit)).toMatchObject({ branch, commit, isCi: true });
  });

  it('falls back to git for what a generic CI does not say', async () => {
    expect(await detectCiEnv({ CI: 'true' }, git)).toEqual({ branch: 'local-branch', commit: 'abc123', isCi: true, source: 'ci' });
  });

  it('uses git and isCi false outside CI; a detached HEAD is no branch', async () => {
    expect(await detectCiEnv({}, git)).toEqual({ branch: 'local-branch', commit: 'abc123', isCi: false, source: 'git' });
    const detached: GitRunner = async (args) => (args.includes('--abbrev-ref') ? 'HEAD' : 'abc');
    expect(await detectCiEnv({}, detached)).toMatchObject({ branch: 'unknown', commit: 'abc', isCi: false });
  });
});
