// `--stress-tests`: the stress pass on demand, with no verdict API, no history and no CI. The
// user's build runs (the first pass), then exactly the named tests are stressed in fresh JVMs as
// the gate would (the same build adapter, executor and runner), the same report is printed, and
// the exit code is 1 when one disagreed with itself. What an author runs before pushing, and what
// the gate prints for a test that blocked.
import { DEFAULT_STRESS_PARAMETERS, price } from '#contract';
import { testCaseId } from '#identity';
import { toStress, type GateCandidate } from '../candidates/gate-candidate.js';
import type { ToolFlags } from '../args/parse-args.js';
import { checkEnvironment } from '../config/environment.js';
import { groupInvocations } from '../candidates/invocation-groups.js';
import { judgeFailedInBuild } from '../enforce/failed-in-build.js';
import { classifyCandidate, findingsOf, type CandidateResult } from '../enforce/outcome.js';
import { failingTests } from '../first-pass/failed-on-new.js';
import { UsageError } from '../base/errors.js';
import type { FirstPass } from '../first-pass/first-pass.js';
import { cancelled, exitCodeForSignal } from './cancellation.js';
import { NOT_STRESSED_EXIT_CODE, withLocalBuild } from './local-build.js';
import { firstPassSummary } from './finish-gate.js';
import { stressPassSummary } from './stress-pass-summary.js';
import type { GateDeps } from './gate-deps.js';
import { countCandidates, type GateReport } from '../report/gate-report.js';
import type { StressPassResult } from '../repetitions/stress-pass-result.js';
import { detectionPower } from '../report/detection-power.js';
import { renderReport } from '../report/render-report.js';
import { sectionFor } from '../report/report-document.js';
import { appendStepSummary, writeJsonReport } from '../report/write-reports.js';
import { reproduction } from '../reproduce/reproduce-command.js';
import { parseSelector, selected, type TestSelector } from '../reproduce/test-selector.js';
import { terminalSafe } from '../format/terminal-safe.js';

/** The most repetitions `--repetitions` takes. */
export const MAX_REPETITIONS = 1000;
export { NOT_STRESSED_EXIT_CODE };
/** Exit code when the build failed and no named test disagreed with itself (skipped, or every failing one broken). */
export const BUILD_FAILED_EXIT_CODE = 4;

/** Runs `--stress-tests`; returns the exit code. Throws UsageError for what was typed. */
export async function runStressTests(flags: ToolFlags, buildArgs: readonly string[], deps: GateDeps): Promise<number> {
  checkEnvironment(deps.env);
  if (flags.mode !== undefined) throw new UsageError('--stress-tests stresses the tests you name, with no gate and no server: leave out --stress-new-tests');
  const selectors = (flags.stressTests ?? []).map(parseSelector);
  const empty = selectors.find((s) => s.text.trim() === '');
  if (empty) throw new UsageError('--stress-tests needs a test, e.g. --stress-tests \':app shop.CheckoutTest.appliesDiscount\'');
  const repetitions = repetitionsFlag(flags.repetitions);
  return withLocalBuild(flags, buildArgs, deps, async (first, build, config) => {
    // A build that failed only on tests named here: they are stressed (flaky or broken); on any other test: skipped.
    const failing = failingTests(first);
    if (!first.passed && (failing.length === 0 || !failing.every((c) => selected(selectors, c)))) {
      deps.out(`${sectionFor('local')}\n  Skipped: the build failed${failing.length ? ' on a test not named here' : ''}, so nothing was stressed.\n`);
      return BUILD_FAILED_EXIT_CODE;
    }
    // With --repetitions every test gets that many; without, the new invocations of one method share JVMs as the gate's do.
    const picked = chosen(first, selectors, repetitions, deps);
    const stress = repetitions === null ? groupInvocations(picked, DEFAULT_STRESS_PARAMETERS.curve) : groupInvocations(picked, [{ maxDurationMs: Number.MAX_SAFE_INTEGER, bound: 'inclusive', repetitions }]);
    const plan = await build.planStress(toStress(stress), { executor: config.executor, parallelJvms: config.parallelJvms });
    // No ceiling: the author asked for these repetitions, and Ctrl-C stops them.
    const pass = await build.stressPass(plan, buildArgs, null, {
      ...(deps.signal ? { signal: deps.signal } : {}),
      ...(flags.untilFailure ? { untilFailure: true } : {}),
    });
    if (pass.cancelled || cancelled(deps.signal)) return exitCodeForSignal(cancelled(deps.signal) ?? 'SIGINT');
    const results = stress.map((c) => judgeFailedInBuild(stopped(classifyCandidate(c, pass.repetitions.get(c.testCaseId) ?? [], { ...findingsOf(pass, c.testCaseId), cut: pass.cut || pass.stoppedAtFailure === true }), pass.stoppedAtFailure === true)));
    for (const r of results) if (r.outcome === 'failed' || r.timingSensitive) Object.assign(r, reproduction(deps.build.tool, buildArgs, r, repetitions ?? undefined));
    const report = localReport(config.runId, first, results, pass, plan.concurrency);
    deps.out(renderReport(report));
    for (const problem of [await writeJsonReport(config.reportFile, report), await appendStepSummary(deps.env, report)]) if (problem) deps.err(`stress-gate: warning: ${terminalSafe(problem)}\n`);
    return report.exitCode;
  });
}

/** `--repetitions`: null when not given; a usage error unless a whole number from 1 to MAX_REPETITIONS. */
export function repetitionsFlag(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  if (!/^[1-9][0-9]*$/.test(raw.trim()) || Number(raw) > MAX_REPETITIONS) throw new UsageError(`--repetitions: expected a whole number from 1 to ${MAX_REPETITIONS}; got ${JSON.stringify(raw)}`);
  return Number(raw);
}

/** The first pass's tests the selectors name, priced; a selector that names none is a usage error. */
function chosen(first: FirstPass, selectors: readonly TestSelector[], repetitions: number | null, deps: GateDeps): GateCandidate[] {
  const ran = first.cases.filter((c) => c.status !== 'skipped');
  const unmatched = selectors.filter((s) => !ran.some((c) => selected([s], c)));
  if (ran.length === 0) {
    throw new UsageError('no test ran in this build, so none can be stressed (a test task that is up to date runs nothing: run it again, e.g. with cleanTest or --rerun-tasks, or clean test under Maven)');
  }
  if (unmatched.length) {
    throw new UsageError(`no test that ran matches ${unmatched.map((s) => JSON.stringify(s.text)).join(', ')}; a test is named "[<module> ]<class>.<test>" as the report prints it, e.g. ":app shop.CheckoutTest.appliesDiscount" (${ran.length} tests ran)`);
  }
  deps.logger.debug({ tests: ran.length }, 'selected the tests to stress');
  return ran
    .filter((c) => selected(selectors, c))
    .map((c) => {
      const priced = repetitions === null ? price(c.durationMs, DEFAULT_STRESS_PARAMETERS.curve) : { repetitions, excluded: null };
      return {
        module: c.module,
        suite: c.suite,
        name: c.name,
        testCaseId: testCaseId('local', c),
        durationMs: c.durationMs,
        repetitions: priced.repetitions,
        excluded: priced.excluded,
        muted: false,
        source: c.source,
        // Only a failure is said: a test that passed in the build is stressed as it always was.
        ...(c.status === 'failure' ? { firstPassStatus: 'failure' as const } : {}),
      };
    });
}

/** A test left unfinished by --until-failure is not stressed for that reason, not cut by a ceiling. */
function stopped(r: CandidateResult, atFailure: boolean): CandidateResult {
  return atFailure && r.outcome === 'not_stressed' ? { ...r, why: 'stopped at the first failure (--until-failure)' } : r;
}

function localReport(runId: string, first: FirstPass, results: CandidateResult[], pass: StressPassResult, concurrency: number): GateReport {
  const failed = results.some((r) => r.outcome === 'failed' && r.failedInBuild !== 'broken');
  const partial = results.some((r) => r.outcome === 'error' || (r.outcome === 'not_stressed' && !pass.stoppedAtFailure));
  return {
    mode: 'local',
    runId,
    outcome: results.some((r) => r.outcome === 'failed') ? 'failed' : partial ? 'incomplete' : 'passed',
    stop: null,
    firstPass: firstPassSummary(first),
    slowLimitMs: DEFAULT_STRESS_PARAMETERS.curve.at(-1)?.maxDurationMs ?? null,
    ceilingSeconds: null,
    guard: null,
    candidates: results,
    counts: countCandidates(results),
    stressPass: stressPassSummary(pass, concurrency),
    problems: pass.problems,
    notes: first.notes,
    blocked: failed,
    wouldHaveBlocked: failed,
    exitCode: failed ? 1 : !first.passed ? BUILD_FAILED_EXIT_CODE : partial ? NOT_STRESSED_EXIT_CODE : 0,
    detection: detectionPower(results),
  };
}
