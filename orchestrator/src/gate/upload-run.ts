// The run's upload (test insights): every test case of the first pass, with its organic
// repetitions, and on a CI run of the default branch its body fingerprint.
import type { CiEnv } from '../ci-env/detect-ci-env.js';
import type { Config } from '../config/config.js';
import type { DiffSources } from '../diff/diff-sources.js';
import type { FirstPass } from '../first-pass/first-pass.js';
import { organicRepetitions } from '../first-pass/organic-retries.js';
import { terminalSafe } from '../format/terminal-safe.js';
import { identityKey } from '../identity/identity-key.js';
import type { VerdictClient } from '../verdict/verdict-client.js';
import type { GateDeps } from './gate-deps.js';

/** Where a stored upload was recorded. */
export interface UploadedRun {
  branch: string;
  isCi: boolean;
}

/**
 * Uploads the run; resolves to the branch it was recorded on (and whether on CI) when stored, to
 * null when the API refused or could not be reached (a warning). `defaultBranch` is the verdict's
 * (undefined: no verdict answered).
 */
export async function uploadRun(client: VerdictClient, config: Config, first: FirstPass, ci: CiEnv, deps: Pick<GateDeps, 'err'>, sources: DiffSources, defaultBranch: string | null | undefined): Promise<UploadedRun | null> {
  if (ci.warning) deps.err(`stress-gate: warning: ${terminalSafe(ci.warning)}\n`);
  // A CI run of the default branch records its tests' body fingerprints: the history a renamed
  // test is recognised by. Other runs send none. Without a verdict (the gate off), the checkout says
  // which branch is the default, when it knows.
  const fingerprints =
    ci.isCi && (defaultBranch === undefined ? await sources.isDefaultBranch(ci.branch) : defaultBranch === ci.branch)
      ? await sources.fingerprints(first.cases).catch((e: unknown) => {
          deps.err(`stress-gate: warning: the tests' fingerprints were not computed: ${terminalSafe((e as Error).message ?? String(e))}\n`);
          return new Map<string, string>();
        })
      : null;
  const result = await client.uploadRun({
    runId: config.runId,
    branch: ci.branch,
    commit: ci.commit,
    isCi: ci.isCi,
    status: first.passed ? 'success' : 'failure',
    durationMs: first.wallClockMs,
    startedAt: first.startedAt.toISOString(),
    shard: { index: config.shardIndex, total: config.shardTotal },
    testCases: first.cases.map((c) => ({
      module: c.module,
      suite: c.suite,
      name: c.name,
      status: c.status,
      durationMs: c.durationMs,
      muted: c.muted,
      ...(fingerprints?.get(identityKey(c)) ? { fingerprint: fingerprints.get(identityKey(c))! } : {}),
      ...(c.executions ? { repetitions: organicRepetitions(c.executions) } : {}),
    })),
  });
  if (!result.ok) deps.err(`stress-gate: warning: the run was not uploaded: ${terminalSafe(result.problem)}\n`);
  return result.ok ? { branch: ci.branch, isCi: ci.isCi } : null;
}
