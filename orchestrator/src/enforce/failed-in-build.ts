// A new test that failed the build, after its repetitions: flaky (it also passed in fresh JVMs) or
// broken (it failed every time). And the decision on a build that failed only on new tests: the
// build's exit code stands in every mode (the build already failed), and the gate only says what
// the failing tests are. Pure.
import type { Mode } from '../config/config.js';
import type { FiredGuard } from '../guard/apply-guards.js';
import { decideGate, type CandidateResult, type GateDecision } from './outcome.js';

/**
 * Marks a candidate that failed in the build: `flaky` when it passed a repetition (its outcome is
 * then `failed`: it disagreed with itself, the build's run being the failure), `broken` when it
 * failed every one. Unchanged when it did not fail in the build or ran no repetition.
 */
export function judgeFailedInBuild(r: CandidateResult): CandidateResult {
  if (r.firstPassStatus !== 'failure' || r.recorded.length === 0 || (r.outcome !== 'passed' && r.outcome !== 'failed')) return r;
  const passed = r.recorded.filter((rep) => rep.status === 'success').length;
  return passed > 0 ? { ...r, outcome: 'failed', failedInBuild: 'flaky' } : { ...r, outcome: 'failed', failedInBuild: 'broken' };
}

/**
 * The gate's decision on a build that failed only on new tests: never a changed exit code (the
 * build's failure stands and already stops the merge), "would have blocked" when a new test that is
 * not muted disagreed with itself (a flaky one; a broken one is just a failing test).
 */
export function decideFailedBuild(mode: Exclude<Mode, 'off'>, firstPassExitCode: number, results: readonly CandidateResult[], guard: FiredGuard | null, orderFindingsBlock = true, modifiedTestsBlock = true): GateDecision {
  const decided = decideGate(mode, firstPassExitCode, results, guard, orderFindingsBlock, modifiedTestsBlock);
  const disagreed = results.some((r) => !r.muted && (r.origin !== 'modified' || modifiedTestsBlock) && ((r.outcome === 'failed' && r.failedInBuild !== 'broken') || (r.outcome === 'order_dependent' && orderFindingsBlock)));
  return { ...decided, blocked: false, wouldHaveBlocked: guard === null && disagreed, exitCode: firstPassExitCode };
}
