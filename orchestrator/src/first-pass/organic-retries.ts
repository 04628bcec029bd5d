// Organic repetitions: the retries a build makes by itself (Gradle's test-retry plugin,
// Surefire's rerunFailingTestsCount), read as several executions of ONE test case. Pure.
//
// Shapes (see orchestrator/test/fixtures/junit-xml/):
// - test-retry, Gradle's default report: the same testcase written again, in execution order,
//   after a failed execution. We group exactly as Gradle's own JUnitXmlResultWriter does for
//   mergeReruns: an execution of a (classname, name) whose previous execution in this report
//   failed is a retry of it; the first execution that does not fail ends the group.
// - Surefire, and Gradle with `mergeReruns = true`: one testcase; <flakyFailure>/<flakyError>
//   children are failed executions of a test that then passed; <failure>/<error> followed by
//   <rerunFailure>/<rerunError> are the first and later executions of a test that failed on all.
import { MAX_REPETITIONS } from '#contract';
import type { XmlExecution, XmlTestCase } from './junit-xml-types.js';

/** One <testcase> element as read: its attributes and its result children in order. */
export interface RawTestCase {
  suite: string;
  name: string;
  durationMs: number;
  results: { kind: 'failure' | 'error' | 'skipped' | 'flakyFailure' | 'flakyError' | 'rerunFailure' | 'rerunError'; durationMs: number | null }[];
}

/** The executions one <testcase> element stands for, in order (one unless Surefire-style). */
export function elementExecutions(c: RawTestCase): XmlExecution[] {
  if (c.results.length === 0) return [{ status: 'success', durationMs: c.durationMs }];
  const kinds = new Set(c.results.map((r) => r.kind));
  // Surefire writes no time on rerun/flaky elements (neither does Gradle): the testcase's time
  // is the one measurement there is, so it stands in for each of them.
  const each = (r: RawTestCase['results'][number]): XmlExecution => ({ status: 'failure', durationMs: r.durationMs ?? c.durationMs });
  if (kinds.has('failure') || kinds.has('error')) {
    const reruns = c.results.filter((r) => r.kind === 'rerunFailure' || r.kind === 'rerunError');
    return [{ status: 'failure', durationMs: c.durationMs }, ...reruns.map(each)];
  }
  if (kinds.has('skipped')) return [{ status: 'skipped', durationMs: c.durationMs }];
  const flaky = c.results.filter((r) => r.kind === 'flakyFailure' || r.kind === 'flakyError');
  return [...flaky.map(each), { status: 'success', durationMs: c.durationMs }];
}

/**
 * Pure: the report's test cases with retries folded into one case each, in document order (a
 * retried case stands where its first execution was). A folded case has `executions`; its
 * status is the tool's verdict: passed on a retry is a success (flaky), failed on all is a
 * failure. Its duration is the last passing execution's, or the first failing one's (Surefire's
 * and Gradle's rule).
 */
export function groupExecutions(raw: readonly RawTestCase[]): XmlTestCase[] {
  const out: XmlTestCase[] = [];
  // The executions of the cases that did not simply pass, by their place in `out`.
  const executionsAt = new Map<number, XmlExecution[]>();
  const open = new Map<string, number>();
  for (const c of raw) {
    // The common case, a passing test with no retry open: its final form at once, with no key,
    // no lookup and no executions list (50,000 of them leave less for the garbage collector).
    if (c.results.length === 0 && open.size === 0) {
      out.push({ suite: c.suite, name: c.name, status: 'success', durationMs: c.durationMs });
      continue;
    }
    const key = `${c.suite}\u0000${c.name}`;
    const executions = elementExecutions(c);
    const at = open.get(key);
    const group = at === undefined ? undefined : executionsAt.get(at);
    if (group) group.push(...executions);
    else {
      out.push({ suite: c.suite, name: c.name, status: 'success', durationMs: c.durationMs }); // replaced below
      executionsAt.set(out.length - 1, [...executions]);
    }
    const last = executions[executions.length - 1]!;
    if (last.status === 'failure') open.set(key, at ?? out.length - 1);
    else open.delete(key);
  }
  for (const [i, executions] of executionsAt) out[i] = folded(out[i]!.suite, out[i]!.name, executions);
  return out;
}

/** One case from its executions in order (a retried one keeps them all; the list becomes its). */
function folded(suite: string, name: string, executions: XmlExecution[]): XmlTestCase {
  const last = executions[executions.length - 1]!;
  const failedBefore = executions.some((e) => e.status === 'failure');
  // A retry that was skipped never passed: the test failed.
  const status = last.status === 'skipped' && failedBefore ? 'failure' : last.status;
  const durationMs = status === 'success' ? last.durationMs : executions.find((e) => e.status === status)!.durationMs;
  return executions.length > 1 ? { suite, name, status, durationMs, executions } : { suite, name, status, durationMs };
}

/**
 * The executions of a retried case as the run upload's organic repetitions (skipped ones dropped),
 * the first MAX_REPETITIONS of them: the API refuses more, and a build retrying one test a
 * hundred times has said what it can.
 */
export function organicRepetitions(executions: readonly XmlExecution[]): { repetition: number; status: 'success' | 'failure'; durationMs: number }[] {
  return executions
    .filter((e): e is XmlExecution & { status: 'success' | 'failure' } => e.status !== 'skipped')
    .slice(0, MAX_REPETITIONS)
    .map((e, i) => ({ repetition: i + 1, status: e.status, durationMs: e.durationMs }));
}
