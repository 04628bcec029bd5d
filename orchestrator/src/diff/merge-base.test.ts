// findMergeBase against real git repositories in temp dirs: a branch, a shallow clone without
// its merge base (said, or fetched), the base branch itself (quiet) and no base at all.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { baseFromEnv, findMergeBase, type GitExec } from './merge-base.js';

let root: string;
let repo: string;
let mainSha: string;
const run = (cwd: string, ...args: string[]) => execa('git', ['-c', 'user.name=t', '-c', 'user.email=t@x', '-c', 'init.defaultBranch=main', ...args], { cwd, stdin: 'ignore' }).then((r) => String(r.stdout));
const gitIn = (cwd: string): GitExec => async (args) => {
  const r = await execa('git', args, { cwd, reject: false, stdin: 'ignore' });
  return { ok: r.exitCode === 0, stdout: String(r.stdout), stderr: String(r.stderr) };
};
const ctx = (over = {}) => ({ headBranch: 'feature', defaultBranch: null, allowFetch: true, ...over });

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'stress-gate-merge-base-'));
  repo = path.join(root, 'repo');
  await execa('mkdir', [repo]);
  await run(repo, 'init', '-q');
  for (let i = 0; i < 3; i++) {
    await writeFile(path.join(repo, 'a.txt'), `main ${i}\n`);
    await run(repo, 'commit', '-qam', `main ${i}`, ...(i === 0 ? ['--allow-empty'] : []));
    if (i === 0) {
      await run(repo, 'add', 'a.txt');
      await run(repo, 'commit', '-qm', 'add a');
    }
  }
  mainSha = (await run(repo, 'rev-parse', 'HEAD')).trim();
  await run(repo, 'checkout', '-qb', 'feature');
  for (let i = 0; i < 3; i++) {
    await writeFile(path.join(repo, 'b.txt'), `feature ${i}\n`);
    await run(repo, 'add', 'b.txt');
    await run(repo, 'commit', '-qm', `feature ${i}`);
  }
}, 60_000);
afterAll(() => rm(root, { recursive: true, force: true }));

describe('findMergeBase', () => {
  it('finds the merge base with the base branch a CI variable names', async () => {
    const r = await findMergeBase(gitIn(repo), { CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main' }, ctx());
    expect(r).toEqual({ ok: true, base: mainSha, ref: 'main', from: 'CI_MERGE_REQUEST_TARGET_BRANCH_NAME', fetched: false });
  });

  it('is quiet on the base branch itself, and says when no base is known', async () => {
    expect(await findMergeBase(gitIn(repo), {}, ctx({ headBranch: 'main', defaultBranch: 'main' }))).toMatchObject({ ok: false, quiet: true });
    expect(await findMergeBase(gitIn(repo), {}, ctx())).toMatchObject({ ok: false, noBase: true });
  });

  it('in a shallow clone, says why without fetching when fetching is not allowed, and fetches the merge base when it is', async () => {
    const shallow = path.join(root, 'shallow');
    await execa('git', ['clone', '-q', '--depth', '1', '--branch', 'feature', `file://${repo}`, shallow]);
    const refused = await findMergeBase(gitIn(shallow), { STRESS_GATE_BASE_REF: 'main' }, ctx({ allowFetch: false }));
    expect(refused).toMatchObject({ ok: false });
    expect((refused as { why: string }).why).toMatch(/shallow clone.*STRESS_GATE_FETCH_MERGE_BASE=1/);
    expect(await findMergeBase(gitIn(shallow), { STRESS_GATE_BASE_REF: 'main' }, ctx())).toEqual({ ok: true, base: mainSha, ref: 'main', from: 'STRESS_GATE_BASE_REF', fetched: true });
  }, 60_000);

  it('says what failed when the remote cannot be fetched', async () => {
    const shallow = path.join(root, 'shallow-gone');
    await execa('git', ['clone', '-q', '--depth', '1', '--branch', 'feature', `file://${repo}`, shallow]);
    await run(shallow, 'remote', 'set-url', 'origin', `file://${root}/no-such-repo`);
    const r = await findMergeBase(gitIn(shallow), { STRESS_GATE_BASE_REF: 'main' }, ctx());
    expect((r as { why: string }).why).toMatch(/fetching it from origin failed: .*no-such-repo/);
  }, 60_000);
});

describe('baseFromEnv', () => {
  it('prefers STRESS_GATE_BASE_REF, then the CI service: GitLab diff base, target branches, GitHub only on a pull request', () => {
    expect(baseFromEnv({ STRESS_GATE_BASE_REF: 'develop', GITHUB_BASE_REF: 'main' })).toMatchObject({ ref: 'develop' });
    expect(baseFromEnv({ CI_MERGE_REQUEST_DIFF_BASE_SHA: 'abc', CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main' })).toMatchObject({ ref: 'abc', isCommit: true });
    expect(baseFromEnv({ GITHUB_BASE_REF: 'main' })).toBeNull();
    expect(baseFromEnv({ GITHUB_BASE_REF: 'main', GITHUB_EVENT_NAME: 'pull_request' })).toMatchObject({ ref: 'main' });
    expect(baseFromEnv({ SYSTEM_PULLREQUEST_TARGETBRANCH: 'refs/heads/release' })).toMatchObject({ ref: 'release' });
  });
});
