// Reads what a run's gate said of the merge request's diff (migration 0044) back for the run page
// and the run report: each candidate's origin (new, modified, new from the diff), the diff analysis
// (analysed, or skipped and why) and the renamed tests that were not stressed, bounded.
import { CandidateOrigin } from '../contract.js';
import { idSet } from '../presence/presence.js';
import { type Sql, sql } from '../sql/bind.js';
import { type Database, num } from '../storage/database.js';

/** The diff analysis of a run's gate (of all shards: a skipped one's, else the first shard's). */
export interface ShownDiff {
  status: 'analysed' | 'skipped';
  why: string | null;
  base: string | null;
  /** Test methods the diff added and modified (summed over shards). */
  added: number;
  modified: number;
  /** The project's modifiedTestsBlock when the gate was recorded: a modified test that failed blocks (in enforce). */
  modifiedTestsBlock: boolean;
}

/** A renamed test the gate did not stress, and the known test it is a rename of. */
export interface ShownRename {
  testCaseId: string;
  module: string;
  suite: string;
  name: string;
  from: { testCaseId: string; module: string; suite: string; name: string };
}

/** Renamed tests a page lists at most (the rest are counted). */
export const RUN_PAGE_RENAMED = 200;

export interface GateDiff {
  diff: ShownDiff | null;
  renamed: ShownRename[];
  /** Renamed tests in all (renamed lists the first RUN_PAGE_RENAMED by name). */
  renamedCount: number;
  /** The origin of each candidate of `ids` that is not new. */
  origins: Map<string, CandidateOrigin>;
}

type Row = Record<string, unknown>;

/** The diff of the gate in `scope` (a run's rows), with the origins of the candidates `ids`. */
export async function readGateDiff(db: Database, scope: Sql, ids: readonly string[]): Promise<GateDiff> {
  const [diffs, renamed, counted, origins] = await Promise.all([
    db.engine.query<Row>(sql`
      SELECT toString(status) AS state, has_why, why, has_base, base, added, modified, modified_tests_block
      FROM ${db.t('gate_diffs')} FINAL WHERE ${scope} ORDER BY shard_index`),
    db.engine.query<Row>(sql`
      SELECT toString(test_case_id) AS id, module, suite, name, toString(from_test_case_id) AS from_id, from_module, from_suite, from_name
      FROM ${db.t('gate_renamed')} FINAL WHERE ${scope} ORDER BY module, suite, name, id LIMIT ${RUN_PAGE_RENAMED}`),
    db.engine.query<Row>(sql`SELECT uniqExact(test_case_id) AS n FROM ${db.t('gate_renamed')} FINAL WHERE ${scope}`),
    ids.length === 0
      ? Promise.resolve([] as Row[])
      : db.engine.query<Row>(sql`
          SELECT toString(test_case_id) AS id, toString(origin) AS kind FROM ${db.t('gate_candidate_origins')} FINAL
          WHERE ${scope} AND toString(test_case_id) IN ${idSet(ids)} ORDER BY id, shard_index`),
  ]);
  const shown = diffs.find((d) => d['state'] === 'skipped') ?? diffs[0];
  const byId = new Map<string, CandidateOrigin>();
  for (const o of origins) if (!byId.has(String(o['id']))) byId.set(String(o['id']), o['kind'] as CandidateOrigin);
  return {
    diff: shown
      ? {
          status: shown['state'] as ShownDiff['status'],
          why: num(shown['has_why']) === 1 ? String(shown['why']) : null,
          base: num(shown['has_base']) === 1 ? String(shown['base']) : null,
          added: diffs.reduce((n, d) => n + num(d['added']), 0),
          modified: diffs.reduce((n, d) => n + num(d['modified']), 0),
          modifiedTestsBlock: num(shown['modified_tests_block']) === 1,
        }
      : null,
    renamed: renamed.map((r) => ({
      testCaseId: String(r['id']),
      module: String(r['module']),
      suite: String(r['suite']),
      name: String(r['name']),
      from: { testCaseId: String(r['from_id']), module: String(r['from_module']), suite: String(r['from_suite']), name: String(r['from_name']) },
    })),
    renamedCount: num(counted[0]?.['n'] ?? 0),
    origins: byId,
  };
}

/** The words of a candidate's origin beside its name; none for a new test. */
export function originLabel(origin: CandidateOrigin | undefined): string | null {
  return origin === 'modified' ? 'modified' : origin === 'diff' ? 'new (from the diff)' : null;
}

/** The sentence of a skipped diff analysis. */
export function skippedSentence(diff: ShownDiff): string {
  return `Modified and renamed test detection was skipped: ${(diff.why ?? 'no reason given').replace(/[.\s]+$/, '')}.`;
}
