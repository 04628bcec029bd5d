// The first pass as the gate's core sees it, whatever build tool ran it: the build's exit code,
// every test case with its identity and the quarantine mask, and what went wrong reading them.
import type { BlockSettings } from '../config/config.js';
import type { MutedCheck } from '../quarantine/quarantine-source.js';
import { assignIdentities, type TestCaseResult, type UnitResults } from './test-case-result.js';

/** How the build ended, as the first pass reports it. */
export interface BuildEnd {
  exitCode: number;
  wallClockMs: number;
}

/** What the first pass left behind. */
export interface FirstPass {
  /** The build tool's own exit code. */
  buildExitCode: number;
  /** The first pass's result after the mask: 0 when it passed (only muted tests failed, if any). */
  exitCode: number;
  passed: boolean;
  startedAt: Date;
  wallClockMs: number;
  /**
   * The build's own stress-gate settings (Gradle's `stressNewTests` block, Maven's
   * .mvn/stress-gate.properties); null when the build did not report at all (the stress gate's plugin did not run).
   */
  settings: BlockSettings | null;
  /** Why the build did not report, when it did not. */
  unreported: string | null;
  cases: (TestCaseResult & { muted: boolean })[];
  failures: number;
  maskedFailures: number;
  /** Broken XML files, named: the candidate set cannot be trusted. */
  errors: string[];
  /** Reading the results failed outright (a vanished or unreadable file, a bug): the gate cannot go on. */
  readProblem: string | null;
  notes: string[];
}

/** The first pass when reading its results failed outright: the build's exit code stands. */
export function unreadFirstPass(run: BuildEnd, started: number, problem: string): FirstPass {
  return {
    buildExitCode: run.exitCode,
    exitCode: run.exitCode,
    passed: run.exitCode === 0,
    startedAt: new Date(started),
    wallClockMs: run.wallClockMs,
    settings: null,
    unreported: null,
    cases: [],
    failures: 0,
    maskedFailures: 0,
    errors: [],
    readProblem: problem,
    notes: [],
  };
}

/** What an adapter read of the first pass: each unit's cases (with its locators), broken files, notes for the user. */
export interface UnitsRead {
  units: UnitResults[];
  errors: string[];
  notes: string[];
}

/** Pure: the first pass from its run and what was read, identities given and the quarantine applied. */
export function summarizeFirstPass(
  run: BuildEnd,
  started: number,
  read: { settings: BlockSettings | null; unreported: string | null; results: UnitsRead },
  deps: { isMuted: MutedCheck; isSkipped?: MutedCheck },
): FirstPass {
  const { settings, results } = read;
  // A skipped test that ran anyway (Gradle before 5.0 cannot exclude one test) counts as skipped:
  // its result is ignored and it is never a candidate.
  const cases = assignIdentities(results.units).map((c): TestCaseResult & { muted: boolean } =>
    deps.isSkipped?.(c) ? { ...c, status: 'skipped' as const, executions: undefined, muted: false } : Object.assign(c, { muted: deps.isMuted(c) }),
  );
  const failures = cases.filter((c) => c.status === 'failure' && !c.muted).length;
  const maskedFailures = cases.filter((c) => c.status === 'failure' && c.muted).length;
  // Muted failures are masked: a build that failed only because muted tests failed passes.
  // (The build cannot say whether something else failed too; Gradle with --continue would still run it.)
  const passed = failures === 0 && (run.exitCode === 0 || maskedFailures > 0);
  return {
    buildExitCode: run.exitCode,
    exitCode: passed ? 0 : run.exitCode || 1,
    passed,
    startedAt: new Date(started),
    wallClockMs: run.wallClockMs,
    settings,
    unreported: read.unreported,
    cases,
    failures,
    maskedFailures,
    errors: results.errors,
    readProblem: null,
    notes: results.notes,
  };
}

