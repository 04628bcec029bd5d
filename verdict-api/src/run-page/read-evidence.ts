// Reads the failure evidence of a run's gate candidates (migrations 0032, 0036 and 0038) back into
// the contract's shapes, per test case: what the run page and the run report show of why a candidate
// disagreed, for a timing-sensitive one how often it did side by side, and the command that reruns
// it, built here from the stored parts and the stored identity (never text a client uploaded).
// Bounded in ClickHouse (evidence-bounds.ts): at most FAILURES_SHOWN failures and GROUPS_SHOWN
// signatures a candidate (LIMIT … BY), their text cut in SQL, so a 16 MiB gate upload is never
// read whole; what was left out is counted.
import * as v from 'valibot';
import { type FailureGroup, ReproduceParts, type TimingSensitive } from '../contract.js';
import { idSet } from '../presence/presence.js';
import { orderReproduceCommand, reproduceCommand } from '../reproduce-command.js';
import { type Sql, sql } from '../sql/bind.js';
import { type Database, num } from '../storage/database.js';
import { FAILURES_SHOWN, firstOfEachSignature, GROUPS_SHOWN } from './evidence-bounds.js';
import { FAILURE_COLUMNS, type ShownFailure, shownFailure } from './shown-failure.js';
import { findingOrder, readOrderProbes, type ShownOrderProbe } from './read-order-probes.js';

export type { ShownFailure };

/** Why one candidate disagreed with itself, as uploaded by the CLI (empty for older clients). */
export interface CandidateEvidence {
  /** Failed repetitions with their evidence, by repetition number: at most FAILURES_SHOWN (the first of each signature first). */
  failures: ShownFailure[];
  /** The same failures grouped by signature, in the CLI's order: at most GROUPS_SHOWN. */
  failureGroups: FailureGroup[];
  /** Failed repetitions whose evidence the CLI's bound left out. */
  failuresOmitted: number;
  /** Failures stored with evidence that the page's bound did not show (counted in their signatures). */
  failuresNotShown?: number;
  /** Signatures stored that the page's bound did not show. */
  failureGroupsNotShown?: number;
  /** The one command that reruns this candidate as the gate did, quoted by the server (null: no parts uploaded). */
  reproduceCommand: string | null;
  /**
   * It failed while its repetitions ran side by side and passed every repetition run again alone:
   * its side-by-side failures of its side-by-side repetitions (then `failures` and `failureGroups`
   * are those, numbered as the side-by-side repetitions were). Null when it is not timing-sensitive.
   */
  timingSensitive: TimingSensitive | null;
  /**
   * What the order probe did for it (it passed its repetitions), with its findings bounded
   * (read-order-probes.ts); null when no probe was uploaded for it.
   */
  orderProbe?: ShownOrderProbe | null;
}

/** No evidence: a candidate that passed, or one uploaded by a client that sends none. */
export const NO_EVIDENCE: CandidateEvidence = { failures: [], failureGroups: [], failuresOmitted: 0, failuresNotShown: 0, failureGroupsNotShown: 0, reproduceCommand: null, timingSensitive: null, orderProbe: null };

type Row = Record<string, unknown>;
const nonEmpty = (value: unknown): string | null => (value === '' ? null : String(value));

/**
 * The evidence of the candidates in `scope` (a run's rows, all shards), keyed by test_case_id:
 * of `ids` only when given (the candidates on the page). `orderProbes` false: the run has none, not read.
 */
export async function readEvidence(db: Database, runScope: Sql, ids?: readonly string[], orderProbes = true): Promise<Map<string, CandidateEvidence>> {
  const byId = new Map<string, CandidateEvidence>();
  if (ids !== undefined && ids.length === 0) return byId;
  const scope = ids === undefined ? runScope : sql`${runScope} AND toString(test_case_id) IN ${idSet(ids)}`;
  const groups = await db.engine.query<Row>(sql`
    SELECT toString(test_case_id) AS id, signature, type, location, failures, repetitions
    FROM ${db.t('gate_failure_groups')} FINAL WHERE ${scope} ORDER BY id, shard_index, position LIMIT ${GROUPS_SHOWN} BY id`);
  const firsts = new Map<string, { repetitions: number[] }[]>();
  for (const g of groups) firsts.set(String(g['id']), [...(firsts.get(String(g['id'])) ?? []), { repetitions: (g['repetitions'] as unknown[]).map(num) }]);
  const firstKeys = [...firsts].flatMap(([id, gs]) => firstOfEachSignature(gs).map((r) => `${id}:${r}`));
  // The first failure of each signature first, then the others by repetition; the text cut here, never read whole.
  const failures = await db.engine.query<Row>(sql`
    SELECT toString(test_case_id) AS id, ${FAILURE_COLUMNS}
    FROM ${db.t('gate_failures')} FINAL WHERE ${scope}
    ORDER BY id, concat(id, ':', toString(repetition)) IN ${firstKeys.length ? firstKeys : ['-']} DESC, repetition LIMIT ${FAILURES_SHOWN} BY id`);
  const counted = await db.engine.query<Row>(sql`
    SELECT toString(test_case_id) AS id, count() AS stored FROM ${db.t('gate_failures')} FINAL WHERE ${scope} GROUP BY id`);
  const groupsCounted = await db.engine.query<Row>(sql`
    SELECT toString(test_case_id) AS id, count() AS stored FROM ${db.t('gate_failure_groups')} FINAL WHERE ${scope} GROUP BY id`);
  const candidates = await db.engine.query<Row>(sql`
    SELECT toString(test_case_id) AS id, failures_omitted FROM ${db.t('gate_candidate_evidence')} FINAL WHERE ${scope} ORDER BY id, shard_index`);
  const reproduce = await db.engine.query<Row>(sql`
    SELECT toString(test_case_id) AS id, parts FROM ${db.t('gate_candidate_reproduce')} FINAL WHERE ${scope} ORDER BY id, shard_index`);
  const probes = orderProbes ? await readOrderProbes(db, scope) : new Map<string, ShownOrderProbe>();
  const identities = reproduce.length === 0 && probes.size === 0 ? [] : await db.engine.query<Row>(sql`
    SELECT toString(test_case_id) AS id, module, suite, name FROM ${db.t('gate_candidates')} FINAL WHERE ${scope} ORDER BY id, shard_index`);
  const timing = await db.engine.query<Row>(sql`
    SELECT toString(test_case_id) AS id, side_by_side_failures, side_by_side_repetitions FROM ${db.t('gate_timing_sensitive')} FINAL WHERE ${scope} ORDER BY id, shard_index`);

  const of = (id: unknown): CandidateEvidence => {
    let e = byId.get(String(id));
    if (!e) byId.set(String(id), (e = { ...NO_EVIDENCE, failures: [], failureGroups: [] }));
    return e;
  };
  for (const f of failures) of(f['id']).failures.push(shownFailure(f));
  for (const e of byId.values()) e.failures.sort((a, b) => a.repetition - b.repetition);
  for (const c of counted) {
    const e = of(c['id']);
    e.failuresNotShown = num(c['stored']) - e.failures.length;
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
  for (const c of groupsCounted) {
    const e = of(c['id']);
    e.failureGroupsNotShown = num(c['stored']) - e.failureGroups.length;
  }
  for (const c of candidates) {
    const e = of(c['id']);
    // A candidate in two shards: its omissions add up, the first command stands.
    e.failuresOmitted += num(c['failures_omitted']);
  }
  const identityOf = new Map(identities.map((c) => [String(c['id']), { module: String(c['module']), suite: String(c['suite']), name: String(c['name']) }]));
  const partsById = new Map<string, ReproduceParts>();
  for (const r of reproduce) {
    const id = identityOf.get(String(r['id']));
    const parts = partsOf(r['parts']);
    // A candidate in two shards: the first shard's command stands.
    if (id && parts && !partsById.has(String(r['id']))) {
      partsById.set(String(r['id']), parts);
      of(r['id']).reproduceCommand = reproduceCommand(parts, id);
    }
  }
  for (const [id, probe] of probes) {
    const candidate = identityOf.get(id);
    const parts = partsById.get(id);
    // Each finding's pair in the order it failed, and the command that runs that order once.
    for (const f of probe.findings) {
      if (!candidate) continue;
      f.order = findingOrder(f.role, candidate, f.other);
      f.reproduceCommand = parts ? orderReproduceCommand(parts, f.order) : null;
    }
    of(id).orderProbe = probe;
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
