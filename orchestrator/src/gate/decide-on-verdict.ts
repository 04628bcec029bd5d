// From the verdict's first answer to a gate report: apply the guards, run the stress pass,
// classify every candidate and decide. (run-gate.ts asks the verdict first: ask-verdict.ts.)
import { joinCandidates, toStress, type GateCandidate } from '../candidates/gate-candidate.js';
import { groupInvocations } from '../candidates/invocation-groups.js';
import { classifyCandidate, decideGate, findingsOf, type CandidateResult } from '../enforce/outcome.js';
import { decideFailedBuild, judgeFailedInBuild } from '../enforce/failed-in-build.js';
import { failedOnlyOnNew } from '../first-pass/failed-on-new.js';
import type { FirstPass } from '../first-pass/first-pass.js';
import { applyGuards } from '../guard/apply-guards.js';
import { mutedCheck } from '../quarantine/quarantine-source.js';
import { countCandidates, type GateReport } from '../report/gate-report.js';
import { predictCeiling } from '../guard/predict-ceiling.js';
import { runnableCandidates } from '../repetitions/stress-plan.js';
import { detectionPower } from '../report/detection-power.js';
import { probeOrder } from '../order-probe/order-findings.js';
import { probeSettings } from '../config/probe-settings.js';
import type { ProbeSummary } from '../repetitions/order-probe-result.js';
import { reproduction } from '../reproduce/reproduce-command.js';
import type { BuildAdapter } from './build-adapter.js';
import { cancelled } from './cancellation.js';
import { firstPassSummary, stoppedReport } from './finish-gate.js';
import { stressPassSummary } from './stress-pass-summary.js';
import type { GateDeps } from './gate-deps.js';
import type { DiffAnalysis } from '../diff/diff-analysis.js';
import { widenVerdict, withoutModified, type WidenedVerdict } from '../diff/diff-candidates.js';
import { identityKey } from '../identity/identity-key.js';
import { analyseDiff, ranIn, requestVerdict, type AskedVerdict, type VerdictQuestion } from './ask-verdict.js';
import type { UploadedRun } from './upload-run.js';

/** What the decision needs from the run so far. */
export interface VerdictContext extends VerdictQuestion {
  /** The verdict's first answer (run-gate.ts asks it before the run's upload leaves). */
  asked: AskedVerdict;
  build: BuildAdapter;
  buildArgs: readonly string[];
  muted: ReadonlySet<string>;
  /**
   * The run's upload, started once the verdict was answered: resolves to where it was stored (null:
   * not stored, a warning), rejects when the upload itself broke (the gate's own trouble). The same
   * promise at every call, so one that has already failed is seen before the stress pass. Awaited
   * here only by a CI run of the default branch; run-gate.ts awaits it after the decision.
   */
  awaitUpload: () => Promise<UploadedRun | null>;
}

/** From the verdict's first answer: when there is something to stress and no guard fires, stresses it. */
export async function decideOnVerdict(ctx: VerdictContext, deps: GateDeps): Promise<GateReport> {
  const { mode, config, first } = ctx;
  const log = deps.logger.child({ module: 'decide-on-verdict' });
  const ran = ranIn(first);
  const headBranch = ctx.recordedOn?.branch ?? null;
  let { answer, analysis } = ctx.asked;
  // Fingerprints sent when no diff could be had: the server's new tests', asked again (below).
  let fingerprinted: Map<string, string> | null = null;
  const ask = () => requestVerdict(ctx, analysis, fingerprinted);
  // A CI run of the default branch is itself history: the verdict was asked before its upload
  // left, so it does not count it yet, and that (rare) run asks again once the upload is stored.
  // Any other run's upload goes on during the stress pass (nothing in it needs the run stored)
  // and is awaited by run-gate.ts before the gated observation refers to it.
  const on = ctx.recordedOn;
  if (answer.ok && on?.isCi && on.branch === answer.value.defaultBranch && (await ctx.awaitUpload())) answer = await ask();
  if (!answer.ok) return stoppedReport(mode, config, first, { kind: 'server_unavailable', problem: answer.problem });
  if (!answer.value.entitled) {
    log.debug({ projectId: answer.value.projectId }, 'the account is not entitled to the stress gate');
    return stoppedReport(mode, config, first, { kind: 'not_entitled' });
  }
  // Only the server knew the base branch (its default branch): analyse against it, and ask again
  // when a new test lies in a file the diff touched (its fingerprint may make it a rename).
  const server = answer.value;
  if (server.defaultBranch && analysis && (analysis.noBase || (analysis.from === 'origin/HEAD' && analysis.ref !== server.defaultBranch))) {
    analysis = await analyseDiff(ctx, server.defaultBranch, deps);
    const touched = analysis?.tests;
    if (touched && server.candidates.some((c) => touched.has(identityKey(c)))) {
      const again = await ask();
      if (!again.ok) return stoppedReport(mode, config, first, { kind: 'server_unavailable', problem: again.problem });
      answer = again;
    }
  }
  // A run of the default branch has no merge request: whatever kept the diff from it is not news.
  if (analysis?.status === 'skipped' && headBranch !== null && headBranch === server.defaultBranch) analysis = { ...analysis, quiet: true };
  // No diff (a shallow clone, no base): the new tests' fingerprints still tell the server's renames.
  if (ctx.diff && analysis?.status === 'skipped' && answer.value.candidates.length && !answer.value.guards.premise.fired) {
    const asked = new Set(answer.value.candidates.map((c) => identityKey(c)));
    fingerprinted = await ctx.diff.fingerprints(ran.filter((c) => asked.has(identityKey(c)))).catch(() => new Map<string, string>());
    if (fingerprinted.size) {
      const again = await ask();
      if (!again.ok) return stoppedReport(mode, config, first, { kind: 'server_unavailable', problem: again.problem });
      answer = again;
    }
  }
  const widened = widenVerdict(answer.value, ran, analysis);
  let verdict = widened.verdict;
  const diff = diffSummary(analysis, widened, verdict.parameters.modifiedTestsBlock ?? false);
  const withDiff = <T extends GateReport>(report: T): T => ({ ...report, diff, renamed: widened.renamed });
  // Checked again with the server's project id, so test_case_ids in the list match too.
  // The new invocations of one method share their JVMs and one price (candidates/invocation-groups.ts).
  const joined = joinCandidates(verdict.candidates, first.cases, mutedCheck(ctx.muted), verdict.projectId).map((c) => {
    const origin = widened.origins.get(c.testCaseId);
    return origin ? { ...c, origin } : c;
  });
  let candidates = groupInvocations(joined, verdict.parameters.curve);
  // A build that failed on a test that is not new: today's rule, nothing is stressed.
  if (!first.passed && !failedOnlyOnNew(first, candidates)) return withDiff(stoppedReport(mode, config, first, { kind: 'first_pass_failed' }));
  // The build adapter's plan of the pass (its targets, executor, JVMs at a time): the ceiling
  // guard, the report and telemetry all use this one prediction, and the pass runs this plan.
  const priced = async (these: readonly GateCandidate[], v: typeof verdict) => {
    const stress = toStress(these);
    const plan = stress.length ? await ctx.build.planStress(stress, { executor: config.executor, parallelJvms: config.parallelJvms }) : null;
    // Only what can run costs time: a candidate no JVM can select is reported unrunnable, not predicted.
    const ceiling = predictCeiling(plan ? runnableCandidates(plan) : [], config.jvmStartMs, v.parameters.ceilingSeconds, plan?.concurrency ?? 1);
    return { stress, plan, ceiling, guard: applyGuards(v, stress, ceiling) };
  };
  let { stress, plan, ceiling, guard } = await priced(candidates, verdict);
  // Modified tests never cost the gate its new ones: when with them a guard would refuse the whole
  // pass and without them none does, they are left out, each said as not stressed and why.
  let leftOut: GateCandidate[] = [];
  if (guard && guard.name !== 'premise' && candidates.some((c) => c.origin === 'modified')) {
    const fewer = withoutModified(widened);
    const kept = candidates.filter((c) => c.origin !== 'modified');
    const again = await priced(kept, fewer);
    if (again.guard === null) {
      const words = { premise: 'premise', bulk_change: 'bulk-change', candidate_cap: 'candidate-cap', ceiling: 'ceiling' }[guard.name];
      leftOut = candidates.filter((c) => c.origin === 'modified').map((c) => ({ ...c, leftOutBy: `with the modified tests, the ${words} guard would have refused the whole pass (${guard!.reason})` }));
      ({ stress, plan, ceiling, guard } = again);
      verdict = fewer;
      candidates = [...kept, ...leftOut];
    }
  }
  // The gate's own time after the build ended counts to the start of the stress pass (or to the decision without one).
  let stressedAt: number | null = null;
  const withOverhead = <T extends GateReport>(report: T): T => ({ ...report, overhead: overheadOf(first, stressedAt ?? deps.now(), deps) });
  if (candidates.length === 0 && guard === null) return withOverhead(withDiff(stoppedReport(mode, config, first, { kind: 'no_candidates' })));

  let results: CandidateResult[];
  let stressPass: GateReport['stressPass'] = null;
  let problems: string[] = [];
  let orderProbe: ProbeSummary | null = null;
  if (guard) {
    results = candidates.map((c) => refused(c, guard.name));
  } else if (stress.length === 0) {
    results = candidates.map((c) => classifyCandidate(c, [], false));
  } else {
    // An upload that has already failed (a bug in it) is the gate's own trouble: no stress pass is
    // started for nothing. Raced against a settled value, an upload still in flight is not waited for.
    await Promise.race([ctx.awaitUpload(), null]);
    stressedAt = deps.now();
    const pass = await ctx.build.stressPass(plan!, ctx.buildArgs, verdict.parameters.ceilingSeconds, deps.signal ? { signal: deps.signal } : {});
    stressPass = stressPassSummary(pass);
    const signal = cancelled(deps.signal);
    if (pass.cancelled || signal) {
      return withDiff({ ...stoppedReport(mode, config, first, { kind: 'cancelled', signal: signal ?? 'SIGINT' }), stressPass });
    }
    const blocks = verdict.parameters.timingSensitiveBlocks ?? false;
    results = candidates.map((c) => classifyCandidate(c, pass.repetitions.get(c.testCaseId) ?? [], findingsOf(pass, c.testCaseId, blocks)));
    // A new test that failed the build: flaky or broken (enforce/failed-in-build.ts), before its reproduce command is made.
    if (!first.passed) results = results.map(judgeFailedInBuild);
    for (const r of results) if (r.outcome === 'failed' || r.timingSensitive) Object.assign(r, reproduction(deps.build.tool, ctx.buildArgs, r));
    problems = pass.problems;
    // The order probe, for the candidates that passed every repetition: within its budget and what the ceiling left.
    const settings = probeSettings(deps.env, verdict.parameters.ceilingSeconds);
    const probed = await probeOrder(results, first, {
      settings,
      ceilingLeftMs: verdict.parameters.ceilingSeconds * 1000 - pass.wallClockMs,
      concurrency: plan!.concurrency,
      jvmStartMs: config.jvmStartMs,
      tool: deps.build.tool,
      buildArgs: ctx.buildArgs,
      signal: deps.signal,
    }, { build: ctx.build, logger: log, err: deps.err, now: deps.now });
    results = probed.results;
    orderProbe = probed.summary;
    const stopped = cancelled(deps.signal);
    if (orderProbe?.cancelled || stopped) return { ...stoppedReport(mode, config, first, { kind: 'cancelled', signal: stopped ?? 'SIGINT' }), stressPass };
  }
  // Left out by a guard's bound (above): not stressed, and said why, never passed.
  results = results.map((r) => (r.leftOutBy === undefined || r.outcome === 'excluded' ? r : { ...r, outcome: 'not_stressed', why: 'left out: a modified test, and with the modified tests a guard would have refused the whole pass' }));
  const orderBlocks = verdict.parameters.orderFindingsBlock ?? true;
  const decision = (first.passed ? decideGate : decideFailedBuild)(mode, first.exitCode, results, guard, orderBlocks, verdict.parameters.modifiedTestsBlock ?? false);
  const curve = verdict.parameters.curve;
  return withOverhead(withDiff({
    mode,
    runId: config.runId,
    outcome: decision.outcome,
    stop: null,
    firstPass: firstPassSummary(first),
    slowLimitMs: curve[curve.length - 1]?.maxDurationMs ?? null,
    ceilingSeconds: verdict.parameters.ceilingSeconds,
    guard,
    candidates: results,
    counts: countCandidates(results),
    stressPass,
    orderProbe: orderProbe ? { ...orderProbe, blocks: orderBlocks } : null,
    problems,
    notes: first.notes,
    blocked: decision.blocked,
    wouldHaveBlocked: decision.wouldHaveBlocked,
    exitCode: decision.exitCode,
    detection: detectionPower(results),
    timing: stress.length ? { predictedMs: ceiling.predictedMs, jvmStartMs: config.jvmStartMs, concurrency: ceiling.concurrency, jvms: ceiling.jvms } : null,
  }));
}

/** The gate's own time before the build started and between the build's end and `decidedAt` (ms). */
function overheadOf(first: FirstPass, decidedAt: number, deps: GateDeps): GateReport['overhead'] {
  const started = first.startedAt.getTime();
  return {
    beforeFirstPassMs: deps.processStartedAt === undefined ? 0 : Math.max(0, Math.round(started - deps.processStartedAt)),
    firstPassMs: Math.round(first.wallClockMs),
    afterFirstPassMs: Math.max(0, Math.round(decidedAt - (started + first.wallClockMs))),
  };
}

/** The report's account of the diff analysis (null: none was made). */
function diffSummary(analysis: DiffAnalysis | null, widened: WidenedVerdict, modifiedBlocks: boolean): GateReport['diff'] {
  if (!analysis) return null;
  let added = 0;
  let modified = 0;
  for (const t of analysis.tests.values()) {
    if (t.change.change === 'added') added++;
    else if (t.change.change === 'modified') modified++;
  }
  return { status: analysis.status, why: analysis.why, quiet: analysis.quiet, base: analysis.base, ref: analysis.ref, fetched: analysis.fetched, added, modified, dayOne: widened.dayOne, modifiedBlocks };
}

/** A candidate a guard kept from the pass: not stressed (excluded ones stay excluded). */
function refused(c: GateCandidate, guard: string): CandidateResult {
  const classified = classifyCandidate(c, [], true);
  return classified.outcome === 'excluded' ? classified : { ...classified, outcome: 'not_stressed', why: `refused by the ${guard} guard` };
}
