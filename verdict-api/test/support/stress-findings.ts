// Builders of a run's gate candidates for the unit tests of the run report and the run page: the
// new invocations of one parameterised method, and a timing-sensitive test. Pages are built as
// runPage builds them (the method from the names, the flaky section from the strips).
import type { RepetitionFailure } from '../../src/contract.js';
import { invocationMethods } from '../../src/run-page/invocation-methods.js';
import type { FlakyFinding, GateCandidate, RunPage, TestCaseRow } from '../../src/run-page/run-page.js';

export const SUITE = 'com.shop.CheckoutTest';
export const id = (i: number): string => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

export const failure = (over: Partial<RepetitionFailure> = {}): RepetitionFailure => ({
  repetition: 1, kind: 'failure', type: 'java.lang.AssertionError', message: 'expected 2 but was 3',
  stackTrace: 'java.lang.AssertionError: expected 2 but was 3\n\tat com.shop.CheckoutTest.adds(CheckoutTest.java:42)',
  framesOmitted: 20, stdoutTail: null, stderrTail: null, durationMs: 30, exitCode: null, signal: null, hsErrFile: null, truncated: false, ...over,
});

/** A candidate whose strip of `n` repetitions failed at `fails` (with their evidence). */
export function candidate(i: number, name: string, fails: number[] = [], over: Partial<GateCandidate> = {}, n = 10): GateCandidate {
  return {
    testCaseId: id(i), module: ':app', suite: SUITE, name, muted: false, outcome: fails.length ? 'failed' : 'passed', method: null,
    repetitions: Array.from({ length: n }, (_, k) => ({ repetition: k + 1, status: fails.includes(k + 1) ? 'failure' : 'success', durationMs: 30 })),
    failures: fails.map((r) => failure({ repetition: r })),
    failureGroups: fails.length ? [{ signature: 'java.lang.AssertionError at com.shop.CheckoutTest.adds(CheckoutTest.java:42)', type: 'java.lang.AssertionError', location: 'CheckoutTest.java:42', count: fails.length, repetitions: fails }] : [],
    failuresOmitted: 0,
    reproduceCommand: fails.length ? `./gradlew :app:test --tests '${SUITE}.adds' -PstressGate.repetitions=10 # ${i}` : null,
    timingSensitive: null,
    ...over,
  };
}

/** The `count` invocations `adds(int)[1]`… of one method; `failing` maps an invocation's index to its failed repetitions. */
export function invocations(count: number, failing: Record<number, number[]> = {}): GateCandidate[] {
  return Array.from({ length: count }, (_, k) => candidate(k + 1, `adds(int)[${k + 1}]`, failing[k + 1] ?? []));
}

/** A timing-sensitive candidate: failed `failed` of 10 side by side (repetitions 3 and 7…), passed its 10 alone. */
export function timingSensitive(i: number, name: string, outcome: 'passed' | 'failed' = 'passed', failed = [3, 7]): GateCandidate {
  const timeout = (r: number) => failure({ repetition: r, type: 'java.util.concurrent.TimeoutException', message: 'waited 5 s', stackTrace: `java.util.concurrent.TimeoutException: waited 5 s\n\tat com.shop.CheckoutTest.${name}(CheckoutTest.java:9)`, durationMs: 5000 });
  return candidate(i, name, [], {
    outcome,
    timingSensitive: { failures: failed.length, repetitions: 10 },
    failures: failed.map(timeout),
    failureGroups: [{ signature: `java.util.concurrent.TimeoutException at com.shop.CheckoutTest.${name}(CheckoutTest.java:9)`, type: 'java.util.concurrent.TimeoutException', location: 'CheckoutTest.java:9', count: failed.length, repetitions: failed }],
    reproduceCommand: `./gradlew :app:test --tests '${SUITE}.${name}'`,
  });
}

/** A run page's test-case fields for a run whose test cases are all of `rows` (one page). */
export function testCasesOf(rows: TestCaseRow[]): Pick<RunPage, 'counts' | 'failedTestCases' | 'testCases' | 'nextTestCases'> {
  const failed = rows.filter((t) => t.status === 'failure');
  return {
    counts: {
      testCases: rows.length,
      passed: rows.filter((t) => t.status === 'success').length,
      failed: failed.length,
      failedUnmuted: failed.filter((t) => !t.muted).length,
      skipped: rows.filter((t) => t.status === 'skipped').length,
      new: rows.filter((t) => t.isNew).length,
    },
    failedTestCases: failed,
    testCases: rows,
    nextTestCases: null,
  };
}

/** `page` with `rows` as all of its test cases. */
export const withTestCases = (page: RunPage, rows: TestCaseRow[]): RunPage => ({ ...page, ...testCasesOf(rows) });

/** The run page of a gate on `candidates`, as runPage reads it back. */
export function pageOf(candidates: GateCandidate[], mode: 'report' | 'enforce' = 'enforce'): RunPage {
  invocationMethods(candidates).forEach((m, i) => (candidates[i]!.method = m));
  const flaky: FlakyFinding[] = candidates.flatMap((c): FlakyFinding[] => {
    const failed = c.repetitions.filter((r) => r.status === 'failure').length;
    const base = { module: c.module, suite: c.suite, name: c.name, caughtBy: 'stress_gate' as const };
    if (failed > 0) return [{ ...base, failed, repetitions: c.repetitions.length }];
    if (c.timingSensitive) return [{ ...base, failed: c.timingSensitive.failures, repetitions: c.timingSensitive.repetitions, timingSensitive: { passedAlone: c.repetitions.length, blocking: c.outcome === 'failed' && !c.muted, muted: c.muted } }];
    return [];
  });
  const blocking = candidates.some((c) => c.outcome === 'failed' && !c.muted);
  return {
    runId: 'mr-1', branch: 'feature/adds', commit: '0123456789abcdef', isCi: true, status: 'success', shards: 1, durationMs: 1000, startedAt: '2026-12-01 10:00:00',
    ...testCasesOf([]),
    flaky,
    flakyNotShown: 0,
    gate: {
      mode, outcome: blocking ? 'failed' : 'passed', candidatesExamined: candidates.length, stressed: candidates.length, excluded: 0, notStressed: 0, guard: null,
      blocked: mode === 'enforce' && blocking, wouldHaveBlocked: blocking, shards: 1, stressPassMs: 1000, detection: null, candidates,
    },
  };
}

/**
 * An order-dependent candidate: passed its 10 repetitions alone; a victim of `com.shop.CartTest.clears`
 * (or, as a polluter, `com.shop.LedgerTest.sums` failed right after it). `blocks`: the project's setting.
 */
export function orderDependent(i: number, name: string, role: 'victim' | 'polluter' = 'victim', blocks = true): GateCandidate {
  const other = role === 'victim' ? { module: ':app', suite: 'com.shop.CartTest', name: 'clears' } : { module: ':ledger', suite: 'com.shop.LedgerTest', name: 'sums' };
  const self = { module: ':app', suite: SUITE, name };
  return candidate(i, name, [], {
    outcome: 'order_dependent',
    reproduceCommand: `stress-orchestrator gradle --stress-tests ${name}`,
    orderProbe: {
      status: 'probed', why: null, seed: '7', partners: 8, partnersRun: 8, sampledClasses: 2, moduleClasses: 5, orderDependent: true, findingsBlock: blocks,
      findings: [{
        role, other: { ...other, testCaseId: id(900 + i) }, order: role === 'victim' ? [other, self] : [self, other], otherPassesAlone: role === 'victim' ? null : true,
        replays: 3, replayFailures: 2, failure: failure({ message: role === 'victim' ? 'cart not empty' : 'ledger not empty' }),
        reproduceCommand: `stress-orchestrator gradle --run-order ${role === 'victim' ? `${other.name} --run-order ${name}` : `${name} --run-order ${other.name}`}`,
      }],
      findingsOmitted: 0, findingsNotShown: 0, victims: role === 'victim' ? 1 : 0, polluters: role === 'polluter' ? 1 : 0,
    },
  });
}

/** `page` with its gate blocked (enforce) or would have (report), as the CLI sends when an order finding blocks. */
export const blockedByOrder = (page: RunPage): RunPage => ({ ...page, gate: { ...page.gate!, outcome: 'failed', blocked: page.gate!.mode === 'enforce', wouldHaveBlocked: true } });
