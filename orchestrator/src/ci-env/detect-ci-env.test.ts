import { describe, expect, it } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UsageError } from '../base/errors.js';
import { detectCiEnv, type GitRunner } from './detect-ci-env.js';

const git: GitRunner = async (args) => (args.includes('--abbrev-ref') ? 'local-branch' : 'abc123');
const noGit: GitRunner = async () => null;
const detached: GitRunner = async (args) => (args.includes('--abbrev-ref') ? 'HEAD' : 'abc');
// Not a git repository: env-ci's own git fallback finds nothing there either.
const cwd = mkdtempSync(path.join(os.tmpdir(), 'ci-env-'));

describe('detectCiEnv', () => {
  it.each([
    ['github push', { GITHUB_ACTIONS: 'true', CI: 'true', GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/heads/main', GITHUB_REF_NAME: 'main', GITHUB_SHA: 's1' }, 'main', 's1', 'github'],
    ['github pull request', { GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'pull_request', GITHUB_REF: 'refs/pull/12/merge', GITHUB_HEAD_REF: 'feat', GITHUB_SHA: 's1' }, 'feat', 's1', 'github'],
    ['gitlab branch', { GITLAB_CI: 'true', CI_COMMIT_REF_NAME: 'feat', CI_COMMIT_SHA: 's2' }, 'feat', 's2', 'gitlab'],
    ['gitlab merge request', { GITLAB_CI: 'true', CI_MERGE_REQUEST_ID: '7', CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: 'feat', CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main', CI_COMMIT_REF_NAME: 'feat', CI_COMMIT_SHA: 's2' }, 'feat', 's2', 'gitlab'],
    ['buildkite', { BUILDKITE: 'true', BUILDKITE_BRANCH: 'feat', BUILDKITE_COMMIT: 's3' }, 'feat', 's3', 'buildkite'],
    ['buildkite pull request', { BUILDKITE: 'true', BUILDKITE_BRANCH: 'feat', BUILDKITE_PULL_REQUEST: '5', BUILDKITE_PULL_REQUEST_BASE_BRANCH: 'main', BUILDKITE_COMMIT: 's3' }, 'feat', 's3', 'buildkite'],
    ['circleci', { CIRCLECI: 'true', CIRCLE_BRANCH: 'feat', CIRCLE_SHA1: 's4' }, 'feat', 's4', 'circleci'],
    ['jenkins multibranch', { JENKINS_URL: 'http://j', BRANCH_NAME: 'feat', GIT_COMMIT: 's5' }, 'feat', 's5', 'jenkins'],
    ['jenkins git plugin', { JENKINS_URL: 'http://j', GIT_BRANCH: 'origin/feat', GIT_COMMIT: 's6' }, 'feat', 's6', 'jenkins'],
    ['azure pipelines PR', { BUILD_BUILDURI: 'vstfs:///Build/Build/1', BUILD_SOURCEVERSION: 's7', BUILD_SOURCEBRANCH: 'refs/pull/3/merge', SYSTEM_PULLREQUEST_PULLREQUESTID: '3', SYSTEM_PULLREQUEST_SOURCEBRANCH: 'refs/heads/feat', SYSTEM_PULLREQUEST_TARGETBRANCH: 'refs/heads/main' }, 'feat', 's7', 'azurePipelines'],
    ['bitbucket pipelines', { BITBUCKET_BUILD_NUMBER: '9', BITBUCKET_BRANCH: 'feat', BITBUCKET_COMMIT: 's8' }, 'feat', 's8', 'bitbucket'],
    ['aws codebuild webhook', { CODEBUILD_BUILD_ID: 'b:1', CODEBUILD_WEBHOOK_HEAD_REF: 'refs/heads/feat' }, 'feat', 'abc123', 'codebuild'],
    ['drone PR', { DRONE: 'true', DRONE_BUILD_EVENT: 'pull_request', DRONE_SOURCE_BRANCH: 'feat', DRONE_TARGET_BRANCH: 'main', DRONE_COMMIT_SHA: 's9' }, 'feat', 's9', 'drone'],
    ['woodpecker', { CI: 'woodpecker', CI_PIPELINE_EVENT: 'push', CI_COMMIT_BRANCH: 'feat', CI_COMMIT_SHA: 's10' }, 'feat', 's10', 'woodpecker'],
  ])('reads %s', async (_label, env, branch, commit, source) => {
    expect(await detectCiEnv(env, git, cwd)).toEqual({ branch, commit, isCi: true, source });
  });

  it('reads TeamCity (its branch from the build properties, else git)', async () => {
    expect(await detectCiEnv({ TEAMCITY_VERSION: '2024.1', BUILD_VCS_NUMBER: 's11' }, git, cwd)).toEqual({ branch: 'local-branch', commit: 's11', isCi: true, source: 'git' });
  });

  it('falls back to git for what a generic CI does not say', async () => {
    expect(await detectCiEnv({ CI: 'true' }, git, cwd)).toEqual({ branch: 'local-branch', commit: 'abc123', isCi: true, source: 'git' });
  });

  it('uses git and isCi false outside CI (CI=false too); a detached HEAD outside CI is no branch, quietly', async () => {
    expect(await detectCiEnv({}, git, cwd)).toEqual({ branch: 'local-branch', commit: 'abc123', isCi: false, source: 'git' });
    expect(await detectCiEnv({ CI: 'false' }, git, cwd)).toMatchObject({ isCi: false });
    expect(await detectCiEnv({}, detached, cwd)).toEqual({ branch: 'unknown', commit: 'abc', isCi: false, source: 'unknown' });
  });

  it('warns on CI with a detached HEAD and no branch, saying how to fix it', async () => {
    const r = await detectCiEnv({ CI: 'true' }, detached, cwd);
    expect(r).toMatchObject({ branch: 'unknown', isCi: true });
    expect(r.warning).toMatch(/history will not accumulate.*STRESS_GATE_BRANCH/);
  });

  it('takes STRESS_GATE_BRANCH, STRESS_GATE_COMMIT and STRESS_GATE_IS_CI over everything', async () => {
    const env = { GITLAB_CI: 'true', CI_COMMIT_REF_NAME: 'feat', CI_COMMIT_SHA: 's2', STRESS_GATE_BRANCH: 'release/1', STRESS_GATE_COMMIT: 'c0ffee', STRESS_GATE_IS_CI: 'false' };
    expect(await detectCiEnv(env, noGit, cwd)).toEqual({ branch: 'release/1', commit: 'c0ffee', isCi: false, source: 'override' });
    expect(await detectCiEnv({ STRESS_GATE_IS_CI: '1' }, detached, cwd)).toMatchObject({ isCi: true, warning: expect.any(String) });
    expect(await detectCiEnv({ STRESS_GATE_IS_CI: 'TRUE', STRESS_GATE_BRANCH: 'b' }, detached, cwd)).toEqual({ branch: 'b', commit: 'abc', isCi: true, source: 'override' });
  });

  it('rejects an invalid STRESS_GATE_IS_CI as a usage error', async () => {
    await expect(detectCiEnv({ STRESS_GATE_IS_CI: 'sometimes' }, git, cwd)).rejects.toThrow(UsageError);
    await expect(detectCiEnv({ STRESS_GATE_IS_CI: 'sometimes' }, git, cwd)).rejects.toThrow('STRESS_GATE_IS_CI: expected 1, true, yes, 0, false or no; got "sometimes"');
  });
});
