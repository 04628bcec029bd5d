// The rows of a candidate's failure evidence (migration 0032): its failed repetitions, their groups
// by signature, how many the bound left out; for a timing-sensitive one, its side-by-side counts
// (0036); the parts of its reproduce command (0038). Pure; record-gate inserts them.
import type { FailureGroup, RepetitionFailure } from '../contract.js';
import { BadRequestError } from '../errors/errors.js';
import type { ParsedGateUpload } from '../validation/parse-body.js';

type RunKey = { project_id: string; run_id: string; shard_index: number };
type GateCase = ParsedGateUpload['testCases'][number];

/**
 * Two failures of one candidate with one repetition number would be merged silently by the
 * table's key: refuse them instead, naming the second (`testCases[2].failures[4].repetition`).
 */
export function rejectDuplicateFailures(cases: readonly GateCase[]): void {
  cases.forEach((t, i) => {
    const seen = new Map<number, number>();
    t.failures.forEach((f, j) => {
      const first = seen.get(f.repetition);
      const field = `testCases[${i}].failures[${j}].repetition`;
      if (first !== undefined) throw new BadRequestError(`${field}: repetition ${f.repetition} already has its failure at testCases[${i}].failures[${first}]`, field);
      seen.set(f.repetition, j);
    });
  });
}

/**
 * A timing-sensitive candidate passed every repetition run alone (its strip) and its evidence is of
 * its side-by-side repetitions: refuse a failed repetition in its strip (`testCases[2].timingSensitive`)
 * and a failure numbered past its side-by-side repetitions (`testCases[2].failures[1].repetition`).
 */
export function rejectInconsistentTimingSensitive(cases: readonly GateCase[]): void {
  cases.forEach((t, i) => {
    const ts = t.timingSensitive;
    if (!ts) return;
    const failed = t.repetitions.findIndex((r) => r.status === 'failure');
    if (failed >= 0) {
      const field = `testCases[${i}].timingSensitive`;
      throw new BadRequestError(`${field}: a timing-sensitive test case passed every repetition run alone, but repetitions[${failed}] failed`, field);
    }
    t.failures.forEach((f, j) => {
      const field = `testCases[${i}].failures[${j}].repetition`;
      if (f.repetition > ts.repetitions) throw new BadRequestError(`${field}: must be at most timingSensitive.repetitions (${ts.repetitions}): a timing-sensitive test case's failures are its side-by-side repetitions`, field);
    });
  });
}

/** The gate_failures row of one failed repetition; an absent text is '' with its has_* flag at 0. */
export function failureRow(key: RunKey, testCaseId: string, f: RepetitionFailure, recordedAt: string): Record<string, unknown> {
  return {
    ...key,
    test_case_id: testCaseId,
    repetition: f.repetition,
    kind: f.kind,
    type: f.type ?? '',
    has_message: f.message === null ? 0 : 1,
    message: f.message ?? '',
    has_stack_trace: f.stackTrace === null ? 0 : 1,
    stack_trace: f.stackTrace ?? '',
    frames_omitted: f.framesOmitted,
    has_stdout_tail: f.stdoutTail === null ? 0 : 1,
    stdout_tail: f.stdoutTail ?? '',
    has_stderr_tail: f.stderrTail === null ? 0 : 1,
    stderr_tail: f.stderrTail ?? '',
    duration_ms: f.durationMs,
    has_exit_code: f.exitCode === null ? 0 : 1,
    exit_code: f.exitCode ?? 0,
    signal: f.signal ?? '',
    hs_err_file: f.hsErrFile ?? '',
    truncated: f.truncated ? 1 : 0,
    recorded_at: recordedAt,
  };
}

/** The gate_failure_groups row of one group, at its position in the upload. */
export function groupRow(key: RunKey, testCaseId: string, g: FailureGroup, position: number, recordedAt: string): Record<string, unknown> {
  return {
    ...key,
    test_case_id: testCaseId,
    position,
    signature: g.signature,
    type: g.type ?? '',
    location: g.location ?? '',
    failures: g.count,
    // The TabSeparated text of an Array(UInt32): the numbers are checked integers, nothing to escape.
    repetitions: `[${g.repetitions.join(',')}]`,
    recorded_at: recordedAt,
  };
}

/**
 * The gate_candidate_evidence row of a candidate, or null when it left nothing out. An older
 * client's reproduceCommand text is not stored: the command shown is built from the parts (0038).
 */
export function candidateEvidenceRow(key: RunKey, testCaseId: string, t: GateCase, recordedAt: string): Record<string, unknown> | null {
  if (t.failuresOmitted === 0) return null;
  return { ...key, test_case_id: testCaseId, failures_omitted: t.failuresOmitted, reproduce_command: '', recorded_at: recordedAt };
}

/** The gate_candidate_reproduce row of a candidate (migration 0038): its validated parts as JSON, or null when it has none. */
export function candidateReproduceRow(key: RunKey, testCaseId: string, t: GateCase, recordedAt: string): Record<string, unknown> | null {
  if (!t.reproduce) return null;
  return { ...key, test_case_id: testCaseId, parts: JSON.stringify(t.reproduce), recorded_at: recordedAt };
}

/** The gate_timing_sensitive row of a candidate (migration 0036), or null when it is not timing-sensitive. */
export function timingSensitiveRow(key: RunKey, testCaseId: string, t: GateCase, recordedAt: string): Record<string, unknown> | null {
  if (!t.timingSensitive) return null;
  return { ...key, test_case_id: testCaseId, side_by_side_failures: t.timingSensitive.failures, side_by_side_repetitions: t.timingSensitive.repetitions, recorded_at: recordedAt };
}
