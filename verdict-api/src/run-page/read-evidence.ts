// Reads the failure evidence of a run's gate candidates (migrations 0032, 0036 and 0038) back into
// the contract's shapes, per test case: what the run page and the run report show of why a candidate
// disagreed, for a timing-sensitive one how often it did side by side, and the command that reruns
// it, built here from the stored parts and the stored identity (never text a client uploaded).
import * as v from 'valibot';
import { type FailureGroup, type RepetitionFailure, ReproduceParts, type TimingSensitive } from '../contract.js';
import { reproduceCommand } from '../reproduce-command.js';
import { type Sql, sql } from '../sql/bind.js';
import { type Database, num } from '../storage/database.js';

/** Why one candidate disagreed with itself, as uploaded by the CLI (empty for older clients). */
export interface CandidateEvidence {
  /** Failed repetitions with their evidence, by repetition number. */
  failures: RepetitionFailure[];
  /** The same failures grouped by signature, in the CLI's order. */
  failureGroups: FailureGroup[];
  /** Failed repetitions whose evidence the bound left out. */
  failuresOmitted: number;
  /** The one command that reruns this candidate as the gate did, quoted by the server (null: no parts uploaded). */
  reproduceCommand: string | null;
  /**
   * It failed while its repetitions ran side by side and passed every repetition run again alone:
   * its side-by-side failures of its side-by-side repetitions (then `failures` and `failureGroups`
   * are those, numbered as the side-by-side repetitions were). Null when it is not timing-sensitive.
   */
  timingSensitive: TimingSensitive | null;
}

/** No evidence: a candidate that passed, or one uploaded by a client that sends none. */
export const NO_EVIDENCE: CandidateEvidence = { failures: [], failureGroups: [], failuresOmitted: 0, reproduceCommand: null, timingSensitive: null };

type Row = Record<string, unknown>;
const orNull = (present: unknown, value: unknown): string | null => (num(present) === 1 ? String(value) : null);
const nonEmpty = (value: unknown): string | null => (value === '' ? null : String(value));

/** The evidence of every candidate in `scope` (a run's rows, all shards), keyed by test_case_id. */
export async function readEvidence(db: Database, scope: Sql): Promise<Map<string, CandidateEvidence>> {
  const failures = await db.engine.query<Row>(sql`
    SELECT toString(test_case_id) AS id, repetition, toString(kind) AS kind, type, has_message, message, has_stack_trace, stack_trace,
      frames_omitted, has_stdout_tail, stdout_tail, has_stderr_tail, stderr_tail, duration_ms, has_exit_code, exit_code, signal, hs_err_file, truncated
    FROM ${db.t('gate_failures')} FINAL WHERE ${scope} ORDER BY id, repetition`);
  const groups = await db.engine.query<Row>(sql`
    SELECT toString(test_case_id) AS id, signature, type, location, failures, repetitions
    FROM ${db.t('gate_failure_groups')} FINAL WHERE ${scope} ORDER BY id, shard_index, position`);
  const candidates = await db.engine.query<Row>(sql`
    SELECT toString(test_case_id) AS id, failures_omitted FROM ${db.t('gate_candidate_evidence')} FINAL WHERE ${scope} ORDER BY id, shard_index`);
  const reproduce = await db.engine.query<Row>(sql`
    SELECT toString(test_case_id) AS id, parts FROM ${db.t('gate_candidate_reproduce')} FINAL WHERE ${scope} ORDER BY id, shard_index`);
  const identities = reproduce.length === 0 ? [] : await db.engine.query<Row>(sql`
    SELECT toString(test_case_id) AS id, module, suite, name FROM ${db.t('gate_candidates')} FINAL WHERE ${scope} ORDER BY id, shard_index`);
  const timing = await db.engine.query<Row>(sql`
    SELECT toString(test_case_id) AS id, side_by_side_failures, side_by_side_repetitions FROM ${db.t('gate_timing_sensitive')} FINAL WHERE ${scope} ORDER BY id, shard_index`);

  const byId = new Map<string, CandidateEvidence>();
  const of = (id: unknown): CandidateEvidence => {
    let e = byId.get(String(id));
    if (!e) byId.set(String(id), (e = { ...NO_EVIDENCE, failures: [], failureGroups: [] }));
    return e;
  };
  for (const f of failures) {
    of(f['id']).failures.push({
      repetition: num(f['repetition']),
      kind: f['kind'] === 'crash' ? 'crash' : 'failure',
      type: nonEmpty(f['type']),
      message: orNull(f['has_message'], f['message']),
      stackTrace: orNull(f['has_stack_trace'], f['stack_trace']),
      framesOmitted: num(f['frames_omitted']),
      stdoutTail: orNull(f['has_stdout_tail'], f['stdout_tail']),
      stderrTail: orNull(f['has_stderr_tail'], f['stderr_tail']),
      durationMs: num(f['duration_ms']),
      exitCode: num(f['has_exit_code']) === 1 ? num(f['exit_code']) : null,
      signal: nonEmpty(f['signal']),
      hsErrFile: nonEmpty(f['hs_err_file']),
      truncated: num(f['truncated']) === 1,
    });
  }
  for (const g of groups) {
    of(g['id']).failureGroups.push({
      signature: String(g['signature']),
      type: nonEmpty(g['type']),
      location: nonEmpty(g['location']),
      count: num(g['failures']),
      repetitions: (g['repetitions'] as unknown[]).map(num),
    });
  }
  for (const c of candidates) {
    const e = of(c['id']);
    // A candidate in two shards: its omissions add up, the first command stands.
    e.failuresOmitted += num(c['failures_omitted']);
  }
  const identityOf = new Map(identities.map((c) => [String(c['id']), { module: String(c['module']), suite: String(c['suite']), name: String(c['name']) }]));
  for (const r of reproduce) {
    const id = identityOf.get(String(r['id']));
    const parts = partsOf(r['parts']);
    // A candidate in two shards: the first shard's command stands.
    if (id && parts) of(r['id']).reproduceCommand ??= reproduceCommand(parts, id);
  }
  for (const t of timing) {
    const e = of(t['id']);
    // A candidate in two shards: the first shard's counts stand.
    e.timingSensitive ??= { failures: num(t['side_by_side_failures']), repetitions: num(t['side_by_side_repetitions']) };
  }
  return byId;
}

/** Stored parts, checked again as the contract's (a row that does not parse shows no command). */
function partsOf(json: unknown): ReproduceParts | null {
  try {
    const parsed = v.safeParse(ReproduceParts, JSON.parse(String(json)));
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}
