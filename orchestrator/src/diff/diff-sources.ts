// The diff analysis as the gate uses it: on or off (STRESS_GATE_DIFF), allowed to fetch history
// (STRESS_GATE_FETCH_MERGE_BASE), and the project's source index opened once per run.
import pLimit from 'p-limit';
import { diffSettings } from '../config/diff-settings.js';
import { identityKey } from '../identity/identity-key.js';
import { analyseDiff, openSourceIndex, type DiffAnalysis } from './diff-analysis.js';
import type { GitExec } from './merge-base.js';
import type { LocatableTest, SourceIndex } from './source-index.js';

/** The run's diff analysis and fingerprints. */
export interface DiffSources {
  /** The diff analysis against the merge base (null: turned off, or no git adapter). */
  analyse(tests: readonly LocatableTest[], ctx: { headBranch: string | null; defaultBranch: string | null }): Promise<DiffAnalysis | null>;
  /** Every locatable test's fingerprint, by identity key: what a default-branch CI run uploads. */
  fingerprints(tests: readonly LocatableTest[]): Promise<Map<string, string>>;
  /** Whether `branch` is the default branch as the checkout knows it without a verdict (GitLab's CI_DEFAULT_BRANCH, origin/HEAD). */
  isDefaultBranch(branch: string): Promise<boolean>;
}

/** The diff sources of a project; `git` null means no git (every analysis is skipped, no fingerprint). */
export function diffSources(git: GitExec | null, projectDir: string, env: NodeJS.ProcessEnv): DiffSources {
  const settings = diffSettings(env);
  let index: Promise<SourceIndex | null> | undefined;
  const opened = () => (index ??= git ? openSourceIndex(git, projectDir) : Promise.resolve(null));
  return {
    async analyse(tests, ctx) {
      if (!settings.enabled || !git) return null;
      return analyseDiff(tests, git, await opened(), env, { ...ctx, allowFetch: settings.allowFetch });
    },
    async fingerprints(tests) {
      const found = new Map<string, string>();
      const idx = settings.enabled ? await opened() : null;
      if (!idx) return found;
      // Read the files side by side first (one at a time, the reads were most of the time).
      const read = pLimit(16);
      await Promise.all([...new Set(tests.flatMap((t) => idx.filesFor(t)))].map((f) => read(() => idx.scan(f))));
      for (const t of tests) {
        const located = await idx.locate(t);
        if (located) found.set(identityKey(t), located.fingerprint);
      }
      return found;
    },
    async isDefaultBranch(branch) {
      const named = env['CI_DEFAULT_BRANCH']?.trim();
      if (named) return named === branch;
      const head = git ? await git(['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD']) : null;
      return head?.ok === true && head.stdout.trim() === `refs/remotes/origin/${branch}`;
    },
  };
}
