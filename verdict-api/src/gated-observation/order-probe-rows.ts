// The rows of a candidate's order probe (migration 0041): what the probe did, and each order
// dependence it found with the failing test's evidence; and the checks that refuse an upload whose
// probe contradicts its outcome. Pure; record-gate inserts the rows.
import type { OrderFinding } from '../contract.js';
import { BadRequestError } from '../errors/errors.js';
import { rememberedTestCaseId } from '../identity/remembered-ids.js';
import type { ParsedGateUpload } from '../validation/parse-body.js';
import { failureRow } from './evidence-rows.js';

type RunKey = { project_id: string; run_id: string; shard_index: number };
type GateCase = ParsedGateUpload['testCases'][number];

const refuse = (field: string, message: string): never => {
  throw new BadRequestError(`${field}: ${message}`, field);
};

/**
 * An order-dependent candidate passed every repetition and its probe found a victim or a polluter;
 * any other candidate's probe found none (the probe runs for candidates that passed). Refuses the
 * first contradiction, naming its field: `testCases[2].orderProbe` (order_dependent without a
 * finding, uploaded or omitted, or findings on another outcome), `testCases[2].repetitions[4]` (a failed repetition of
 * an order-dependent one), `testCases[2].orderProbe.findings[1].replayFailures` (more than replays,
 * or none: a finding is confirmed by failed replays) and `…findings[1].other` (the candidate itself).
 */
export function rejectInconsistentOrderProbes(cases: readonly GateCase[]): void {
  cases.forEach((t, i) => {
    const probe = t.orderProbe;
    const field = `testCases[${i}].orderProbe`;
    if (t.outcome === 'order_dependent') {
      // Its findings may all be past the CLI's bound (findingsOmitted), but it has one.
      if (!probe || probe.findings.length + probe.findingsOmitted === 0) refuse(field, 'an order_dependent test case carries its order probe with at least one finding');
      const failed = t.repetitions.findIndex((r) => r.status === 'failure');
      if (failed >= 0) refuse(`testCases[${i}].repetitions[${failed}]`, 'an order_dependent test case passed every repetition; this one failed (its outcome is failed)');
    } else if (probe && probe.findings.length > 0) {
      refuse(field, `a test case whose order probe found a victim or a polluter has outcome order_dependent, not ${t.outcome}`);
    }
    probe?.findings.forEach((f, j) => {
      const at = `${field}.findings[${j}]`;
      if (f.replayFailures > f.replays) refuse(`${at}.replayFailures`, `must be at most replays (${f.replays})`);
      if (f.replayFailures === 0) refuse(`${at}.replayFailures`, 'must be >= 1: a finding is confirmed by a replay that failed');
      if (f.other.module === t.module && f.other.suite === t.suite && f.other.name === t.name) refuse(`${at}.other`, 'must be another test than the test case itself');
      if (f.role === 'victim' && f.otherPassesAlone !== null) refuse(`${at}.otherPassesAlone`, 'must be null for a victim (the test case itself passed alone)');
      if (f.role === 'polluter' && f.otherPassesAlone === null) refuse(`${at}.otherPassesAlone`, 'must be true or false for a polluter');
    });
  });
}

/** The gate_order_probes row of a candidate, or null when it carries no probe. `blocks`: the project's orderFindingsBlock now. */
export function orderProbeRow(key: RunKey, testCaseId: string, t: GateCase, blocks: boolean, recordedAt: string): Record<string, unknown> | null {
  const p = t.orderProbe;
  if (!p) return null;
  return {
    ...key,
    test_case_id: testCaseId,
    status: p.status,
    has_why: p.why === null ? 0 : 1,
    why: p.why ?? '',
    seed: p.seed,
    partners: p.partners,
    partners_run: p.partnersRun,
    sampled_classes: p.sampledClasses,
    module_classes: p.moduleClasses,
    order_dependent: t.outcome === 'order_dependent' ? 1 : 0,
    victims: p.findings.filter((f) => f.role === 'victim').length,
    polluters: p.findings.filter((f) => f.role === 'polluter').length,
    findings_omitted: p.findingsOmitted,
    order_findings_block: blocks ? 1 : 0,
    recorded_at: recordedAt,
  };
}

/** The gate_order_findings rows of a candidate, in upload order; the other test's id as the project knows it. */
export function orderFindingRows(key: RunKey, candidateId: string, t: GateCase, recordedAt: string): Record<string, unknown>[] {
  return (t.orderProbe?.findings ?? []).map((f: OrderFinding, position) => ({
    ...failureRow(key, candidateId, f.failure, recordedAt),
    position,
    role: f.role,
    other_test_case_id: rememberedTestCaseId(key.project_id, f.other),
    other_module: f.other.module,
    other_suite: f.other.suite,
    other_name: f.other.name,
    has_other_passes_alone: f.otherPassesAlone === null ? 0 : 1,
    other_passes_alone: f.otherPassesAlone ? 1 : 0,
    replays: f.replays,
    replay_failures: f.replayFailures,
  }));
}
