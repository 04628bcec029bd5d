// The verdict request: the tests that ran, with the fingerprints of the tests the merge request's
// diff added (the server tells renamed known tests by them). run-gate.ts asks it first, before the
// run's upload leaves; decide-on-verdict.ts asks again when the answer needs it.
import type { VerdictResponse } from '#contract';
import type { Config } from '../config/config.js';
import { skippedAnalysis, type DiffAnalysis } from '../diff/diff-analysis.js';
import type { DiffSources } from '../diff/diff-sources.js';
import type { FirstPass } from '../first-pass/first-pass.js';
import { identityKey } from '../identity/identity-key.js';
import type { ApiResult, VerdictClient } from '../verdict/verdict-client.js';
import type { GateDeps } from './gate-deps.js';
import type { UploadedRun } from './upload-run.js';

/** What asking the verdict needs from the run so far. */
export interface VerdictQuestion {
  mode: 'report' | 'enforce';
  config: Config;
  first: FirstPass;
  client: VerdictClient;
  /** Where the run's upload is recorded (known before it is stored); null: it is not (no CI environment). */
  recordedOn: UploadedRun | null;
  /** The merge request's diff: modified tests, renames, day one (absent: no diff analysis). */
  diff?: DiffSources;
}

/** The verdict's first answer, and the diff analysis its request carried. */
export interface AskedVerdict {
  answer: ApiResult<VerdictResponse>;
  analysis: DiffAnalysis | null;
}

/** Analyses the diff (against the base the checkout knows), then asks the verdict once. */
export async function askVerdict(q: VerdictQuestion, deps: Pick<GateDeps, 'logger'>): Promise<AskedVerdict> {
  // The diff goes first: the fingerprints of the tests in the files it touched go with the verdict
  // request, so the server can answer which are renames.
  const analysis = await analyseDiff(q, null, deps);
  return { answer: await requestVerdict(q, analysis, null), analysis };
}

/** The diff analysis against `defaultBranch` (null: the checkout's); its trouble is said and never stops the gate. */
export async function analyseDiff(q: VerdictQuestion, defaultBranch: string | null, deps: Pick<GateDeps, 'logger'>): Promise<DiffAnalysis | null> {
  if (!q.diff) return null;
  return q.diff.analyse(ranIn(q.first), { headBranch: q.recordedOn?.branch ?? null, defaultBranch }).catch((e: unknown) => {
    deps.logger.child({ module: 'ask-verdict' }).warn({ err: e }, 'the diff analysis failed');
    return skippedAnalysis(`the diff analysis failed: ${(e as Error).message ?? String(e)}`);
  });
}

/**
 * One verdict request. A test the diff added carries its fingerprint; with no diff, the ones in
 * `fingerprinted` (the server's new tests, fingerprinted from the checkout) carry theirs.
 */
export function requestVerdict(q: VerdictQuestion, analysis: DiffAnalysis | null, fingerprinted: ReadonlyMap<string, string> | null): Promise<ApiResult<VerdictResponse>> {
  return q.client.verdict({
    runId: q.config.runId,
    mode: q.mode,
    testCases: ranIn(q.first).map((c) => {
      // Only a test the diff added can be a rename (one it modified or left alone had its name at the merge base).
      const inDiff = analysis?.tests.get(identityKey(c));
      const fingerprint = (inDiff?.change.change === 'added' ? inDiff.located.fingerprint : undefined) ?? fingerprinted?.get(identityKey(c));
      return { module: c.module, suite: c.suite, name: c.name, durationMs: c.durationMs, ...(fingerprint ? { fingerprint } : {}) };
    }),
  });
}

/** The test cases that ran: a skipped one is never posted. */
export function ranIn(first: FirstPass): FirstPass['cases'] {
  return first.cases.filter((c) => c.status !== 'skipped');
}
