// Builders of core values for unit tests.
import { DEFAULT_STRESS_PARAMETERS, type Repetition, type VerdictResponse } from '@stress-gate/verdict-api/contract';
import type { GateCandidate } from '../../src/candidates/gate-candidate.js';
import type { CaseSource } from '../../src/first-pass/test-case-result.js';
import { GradleLocator } from '../../src/gradle/gradle-locator.js';
import { classifyCandidate, decideGate, type CandidateResult } from '../../src/enforce/outcome.js';
import type { FiredGuard } from '../../src/guard/apply-guards.js';
import { countCandidates, type GateReport } from '../../src/report/gate-report.js';

/** A stress candidate of :app's CheckoutTest run by :app:test. */
export function candidate(name: string, over: Partial<GateCandidate> = {}): GateCandidate {
  return {
    module: ':app',
    suite: 'com.shop.CheckoutTest',
    name,
    testCaseId: `id-${name}`,
    durationMs: 5,
    repetitions: 10,
    excluded: null,
    muted: false,
    source: gradleSource(':app:test', name),
    ...over,
  };
}

/** Where a Gradle first pass ran a test: its Test task (the unit), its XML name, its occurrence there. */
export function gradleSource(task: string, xmlName: string, occurrence = 1, uniqueId?: string): CaseSource {
  return { unit: task, xmlName, ...(uniqueId ? { uniqueId } : {}), locator: new GradleLocator(task, occurrence) };
}

/** `n` repetitions, failing at the given 1-based indexes. */
export function reps(n: number, failAt: number[] = []): Repetition[] {
  return Array.from({ length: n }, (_, i) => ({ repetition: i + 1, status: failAt.includes(i + 1) ? 'failure' : 'success', durationMs: 5 }));
}

/** A report as decide-on-verdict builds it. */
export function gateReport(
  mode: 'report' | 'enforce',
  results: CandidateResult[],
  guard: FiredGuard | null = null,
  over: Partial<GateReport> = {},
): GateReport {
  const d = decideGate(mode, 0, results, guard);
  return {
    mode,
    runId: 'run-1',
    outcome: d.outcome,
    stop: null,
    firstPass: { exitCode: 0, passed: true, testCases: 10, failures: 0, maskedFailures: 0 },
    slowLimitMs: 300_000,
    ceilingSeconds: 600,
    guard,
    candidates: results,
    counts: countCandidates(results),
    stressPass: null,
    problems: [],
    notes: [],
    blocked: d.blocked,
    wouldHaveBlocked: d.wouldHaveBlocked,
    exitCode: d.exitCode,
    ...over,
  };
}

export { classifyCandidate };

/** A verdict with no guard fired. */
export function verdict(over: Partial<VerdictResponse> = {}): VerdictResponse {
  return {
    projectId: 'p',
    entitled: true,
    defaultBranch: 'main',
    parameters: DEFAULT_STRESS_PARAMETERS,
    inventory: 200,
    posted: 210,
    candidates: [],
    renamed: [],
    guards: {
      premise: { fired: false, reason: null },
      bulkChange: { fired: false, newCount: 0, inventory: 200, ratio: 0.3, floor: 50 },
      candidateCap: { fired: false, count: 0, cap: 200 },
    },
    ...over,
  };
}
