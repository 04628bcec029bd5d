// The rows of what a gated observation says of the merge request's diff (migration 0044): each
// candidate's origin when it is not new, the diff analysis, and the renamed tests not stressed;
// and the checks that refuse an upload whose diff contradicts itself. Pure; record-gate inserts the rows.
import { BadRequestError } from '../errors/errors.js';
import { rememberedTestCaseId } from '../identity/remembered-ids.js';
import type { ParsedGateUpload } from '../validation/parse-body.js';

type RunKey = { project_id: string; run_id: string; shard_index: number };
type GateCase = ParsedGateUpload['testCases'][number];

const refuse = (field: string, message: string): never => {
  throw new BadRequestError(`${field}: ${message}`, field);
};
const key = (t: { module: string; suite: string; name: string }) => JSON.stringify([t.module, t.suite, t.name]);

/**
 * Refuses the first contradiction, naming its field: `diff.why` (a skipped analysis says why),
 * `testCases[2].origin` (modified or from the diff without a diff analysed), `renamed[1]` (a
 * renamed test also among the candidates, or renamed twice) and `renamed[1].from` (renamed from itself).
 */
export function rejectInconsistentDiff(gate: Pick<ParsedGateUpload, 'diff' | 'renamed' | 'testCases'>): void {
  const { diff } = gate;
  if (diff?.status === 'skipped' && diff.why === null) refuse('diff.why', 'a skipped diff analysis says why');
  gate.testCases.forEach((t, i) => {
    if (t.origin !== 'new' && diff?.status !== 'analysed') refuse(`testCases[${i}].origin`, `a ${t.origin} test case comes from a diff analysed (diff.status analysed); this upload has ${diff ? 'its analysis skipped' : 'no diff'}`);
  });
  const candidates = new Set(gate.testCases.map(key));
  const renamed = new Set<string>();
  gate.renamed.forEach((r, i) => {
    const k = key(r);
    if (candidates.has(k)) refuse(`renamed[${i}]`, 'a renamed test is not stressed, so it is not among testCases as well');
    if (renamed.has(k)) refuse(`renamed[${i}]`, `${r.suite}.${r.name} is renamed twice`);
    renamed.add(k);
    if (k === key(r.from)) refuse(`renamed[${i}].from`, 'must be another identity than the renamed test itself');
  });
}

/** The gate_candidate_origins row of a candidate, or null when it is new (no row: new). */
export function originRow(k: RunKey, id: string, t: GateCase, recordedAt: string): Record<string, unknown> | null {
  return t.origin === 'new' ? null : { ...k, test_case_id: id, origin: t.origin, recorded_at: recordedAt };
}

/** The gate_diffs row of the upload, or null when it carries no diff analysis. `blocks`: the project's modifiedTestsBlock now. */
export function diffRow(k: RunKey, gate: Pick<ParsedGateUpload, 'diff'>, blocks: boolean, recordedAt: string): Record<string, unknown> | null {
  const d = gate.diff;
  if (!d) return null;
  return {
    ...k,
    status: d.status,
    has_why: d.why === null ? 0 : 1,
    why: d.why ?? '',
    has_base: d.base === null ? 0 : 1,
    base: d.base ?? '',
    added: d.added,
    modified: d.modified,
    modified_tests_block: blocks ? 1 : 0,
    recorded_at: recordedAt,
  };
}

/** The gate_renamed rows of the upload, each with both test case ids. */
export function renamedRows(k: RunKey, gate: Pick<ParsedGateUpload, 'renamed'>, recordedAt: string): Record<string, unknown>[] {
  return gate.renamed.map((r) => ({
    ...k,
    test_case_id: rememberedTestCaseId(k.project_id, r),
    module: r.module,
    suite: r.suite,
    name: r.name,
    from_test_case_id: rememberedTestCaseId(k.project_id, r.from),
    from_module: r.from.module,
    from_suite: r.from.suite,
    from_name: r.from.name,
    recorded_at: recordedAt,
  }));
}
