// The stress pass as one gated observation (POST …/runs/:runId/gate): every candidate that was not
// excluded, its repetitions and why it failed; a timing-sensitive one (failed side by side, passed
// alone) with its side-by-side counts and their evidence, and the parts of its reproduce command. Pure.
import * as v from 'valibot';
import { DIFF_BOUNDS, ORDER_BOUNDS, ReproduceParts, type DiffAnalysis, type GateUpload, type OrderProbe } from '#contract';
import type { CandidateProbe } from '../repetitions/order-probe-result.js';
import type { GateReport } from '../report/gate-report.js';

/** The upload body, or null when the gate reached no verdict worth recording (off, not entitled, server down). */
export function buildGateUpload(r: GateReport, shard: { index: number; total: number } = { index: 0, total: 1 }): GateUpload | null {
  // `--stress-tests` runs locally: nothing of it is uploaded.
  if (r.mode === 'local') return null;
  let outcome: GateUpload['outcome'];
  switch (r.outcome) {
    case 'server_unavailable':
    case 'not_configured':
    case 'not_entitled':
      return null;
    case 'broken_results':
      outcome = 'incomplete';
      break;
    case 'cancelled':
      return null;
    default:
      outcome = r.outcome;
  }
  const guarded = r.guard !== null;
  return {
    shard,
    mode: r.mode,
    outcome,
    candidatesExamined: r.counts.examined,
    stressed: r.counts.stressed,
    excluded: r.counts.excluded,
    // Under a guard every candidate that is not excluded counts as not stressed.
    notStressed: r.counts.notStressed,
    guard: r.guard ? { name: r.guard.name, count: r.guard.count, reason: r.guard.reason } : null,
    blocked: r.blocked,
    wouldHaveBlocked: r.wouldHaveBlocked,
    diff: diffUpload(r.diff),
    renamed: (r.renamed ?? []).slice(0, DIFF_BOUNDS.renamed).map((t) => ({ module: t.module, suite: t.suite, name: t.name, from: { module: t.from.module, suite: t.from.suite, name: t.from.name } })),
    timing: r.timing ? { wallClockMs: r.stressPass?.wallClockMs ?? null, predictedMs: r.timing.predictedMs, jvmStartMs: r.timing.jvmStartMs, cut: r.stressPass?.cut ?? false } : null,
    testCases: guarded
      ? []
      : r.candidates
          .filter((c) => c.outcome !== 'excluded')
          .map((c) => {
            // A timing-sensitive candidate passed every repetition alone: its evidence is of the side-by-side ones.
            const evidence = c.evidence ?? c.timingSensitive?.evidence ?? null;
            return {
              module: c.module,
              suite: c.suite,
              name: c.name,
              muted: c.muted,
              origin: c.origin ?? 'new',
              durationMs: c.durationMs,
              plannedRepetitions: c.expected,
              outcome: c.outcome as 'passed' | 'failed' | 'not_stressed' | 'error' | 'order_dependent',
              repetitions: c.recorded.map((rep) => ({ repetition: rep.repetition, status: rep.status, durationMs: rep.durationMs })),
              failures: evidence?.failures ?? [],
              failureGroups: evidence?.groups ?? [],
              failuresOmitted: evidence?.failuresOmitted ?? 0,
              // The command's parts: the server quotes them with the identity it stores (it shows no text a client sent).
              // Parts past the contract's bounds (a build with hundreds of arguments) are left out, not the upload.
              reproduce: c.reproduceParts && v.is(ReproduceParts, c.reproduceParts) ? c.reproduceParts : null,
              // Sent only for a timing-sensitive candidate (an older server ignores the key).
              ...(c.timingSensitive ? { timingSensitive: { failures: c.timingSensitive.failures, repetitions: c.timingSensitive.repetitions } } : {}),
              ...(c.orderProbe ? { orderProbe: orderProbeUpload(c.orderProbe) } : {}),
            };
          }),
  };
}

/** The diff analysis as the contract has it (null: none was made). */
function diffUpload(d: GateReport['diff']): DiffAnalysis | null {
  if (!d) return null;
  return {
    status: d.status,
    why: d.why === null ? null : d.why.slice(0, DIFF_BOUNDS.why),
    base: d.base === null ? null : d.base.slice(0, DIFF_BOUNDS.base),
    added: d.added,
    modified: d.modified,
  };
}

/** The probe's result as the contract has it: at most ORDER_BOUNDS.findingsPerCase findings, the rest counted. */
function orderProbeUpload(p: CandidateProbe): OrderProbe {
  const kept = p.findings.filter((f) => f.evidence).slice(0, ORDER_BOUNDS.findingsPerCase);
  return {
    status: p.status,
    why: p.why === null ? null : p.why.slice(0, 1024),
    seed: String(p.seed),
    partners: p.partners,
    partnersRun: p.partnersRun,
    sampledClasses: p.sampledClasses,
    moduleClasses: p.moduleClasses,
    findings: kept.map((f) => ({ role: f.role, other: { module: f.other.module, suite: f.other.suite, name: f.other.name }, otherPassesAlone: f.otherPassesAlone, replays: f.replays, replayFailures: f.replayFailures, failure: f.evidence! })),
    findingsOmitted: p.findings.length - kept.length,
  };
}
