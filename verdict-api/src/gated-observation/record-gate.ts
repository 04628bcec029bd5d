// Records a stress pass as one gated observation: repetitions with source 'stress', the
// per-candidate outcomes with their failure evidence (for a timing-sensitive one, its side-by-side
// failures; for one the order probe ran on, what it did and found; its origin when not new), the
// diff analysis and the renamed tests not stressed, and the gate's verdict on the run.
// Consumers that attribute flakiness filter source = 'organic', so nothing here marks a test
// flaky project-wide.
import type { Project } from '../accounts/projects.js';
import { rememberedTestCaseId } from '../identity/remembered-ids.js';
import { formatDateTime } from '../sql/bind.js';
import type { Database } from '../storage/database.js';
import type { ParsedGateUpload } from '../validation/parse-body.js';
import { rejectDuplicates } from '../ingest/duplicates.js';
import { candidateStatsRow, gateTimingRow } from '../telemetry/gate-telemetry.js';
import { candidateEvidenceRow, candidateReproduceRow, failureRow, groupRow, rejectDuplicateFailures, rejectInconsistentTimingSensitive, timingSensitiveRow } from './evidence-rows.js';
import { orderFindingRows, orderProbeRow, rejectInconsistentOrderProbes } from './order-probe-rows.js';
import { diffRow, originRow, rejectInconsistentDiff, renamedRows } from './diff-rows.js';

export async function recordGate(db: Database, project: Project, runId: string, gate: ParsedGateUpload, now = new Date()): Promise<{ repetitions: number }> {
  rejectDuplicates(gate.testCases, 'testCases');
  rejectDuplicateFailures(gate.testCases);
  rejectInconsistentTimingSensitive(gate.testCases);
  rejectInconsistentOrderProbes(gate.testCases);
  rejectInconsistentDiff(gate);
  const recordedAt = formatDateTime(now);
  const common = { project_id: project.projectId, run_id: runId, shard_index: gate.shard.index };
  const cases = gate.testCases.map((t) => ({ t, id: rememberedTestCaseId(project.projectId, t) }));
  const repetitions = cases.flatMap(({ t, id }) =>
    t.repetitions.map((r) => ({ ...common, test_case_id: id, source: 'stress', repetition: r.repetition, status: r.status, duration_ms: r.durationMs, ran_at: recordedAt })),
  );
  await db.engine.insert(db.t('test_case_run_repetitions'), repetitions);
  await db.engine.insert(
    db.t('gate_candidates'),
    // 0009's Enum8 has no order_dependent: such a candidate passed every repetition, and 0041 says the rest.
    cases.map(({ t, id }) => ({ ...common, test_case_id: id, module: t.module, suite: t.suite, name: t.name, muted: t.muted ? 1 : 0, outcome: t.outcome === 'order_dependent' ? 'passed' : t.outcome, recorded_at: recordedAt })),
  );
  await db.engine.insert(db.t('gate_candidate_stats'), cases.map(({ t, id }) => candidateStatsRow(common, id, t, recordedAt)));
  await db.engine.insert(db.t('gate_timings'), [gateTimingRow(common, gate.timing, recordedAt)]);
  // The evidence before the verdict: the run page shows a gate once its verdict row is there.
  await db.engine.insert(db.t('gate_failures'), cases.flatMap(({ t, id }) => t.failures.map((f) => failureRow(common, id, f, recordedAt))));
  await db.engine.insert(db.t('gate_failure_groups'), cases.flatMap(({ t, id }) => t.failureGroups.map((g, i) => groupRow(common, id, g, i, recordedAt))));
  await db.engine.insert(db.t('gate_candidate_evidence'), cases.flatMap<Record<string, unknown>>(({ t, id }) => candidateEvidenceRow(common, id, t, recordedAt) ?? []));
  await db.engine.insert(db.t('gate_candidate_reproduce'), cases.flatMap<Record<string, unknown>>(({ t, id }) => candidateReproduceRow(common, id, t, recordedAt) ?? []));
  await db.engine.insert(db.t('gate_timing_sensitive'), cases.flatMap<Record<string, unknown>>(({ t, id }) => timingSensitiveRow(common, id, t, recordedAt) ?? []));
  await db.engine.insert(db.t('gate_order_findings'), cases.flatMap(({ t, id }) => orderFindingRows(common, id, t, recordedAt)));
  await db.engine.insert(db.t('gate_order_probes'), cases.flatMap<Record<string, unknown>>(({ t, id }) => orderProbeRow(common, id, t, project.stress.orderFindingsBlock, recordedAt) ?? []));
  await db.engine.insert(db.t('gate_candidate_origins'), cases.flatMap<Record<string, unknown>>(({ t, id }) => originRow(common, id, t, recordedAt) ?? []));
  await db.engine.insert(db.t('gate_renamed'), renamedRows(common, gate, recordedAt));
  await db.engine.insert(db.t('gate_diffs'), [diffRow(common, gate, project.stress.modifiedTestsBlock, recordedAt)].flatMap<Record<string, unknown>>((r) => r ?? []));
  await db.engine.insert(db.t('gate_verdicts'), [
    {
      ...common,
      mode: gate.mode,
      outcome: gate.outcome,
      candidates_examined: gate.candidatesExamined,
      stressed: gate.stressed,
      excluded: gate.excluded,
      not_stressed: gate.notStressed,
      guard_name: gate.guard?.name ?? '',
      guard_count: gate.guard?.count ?? 0,
      guard_reason: gate.guard?.reason ?? '',
      blocked: gate.blocked ? 1 : 0,
      would_have_blocked: gate.wouldHaveBlocked ? 1 : 0,
      recorded_at: recordedAt,
    },
  ]);
  return { repetitions: repetitions.length };
}
