// Reads the order probes of a run's gate candidates (migration 0041) back into what the run page,
// its JSON and the run report show: per candidate, what the probe did and, bounded, each order
// dependence it found with the failing test's evidence. Bounded in ClickHouse: at most
// ORDER_FINDINGS_SHOWN findings a candidate (LIMIT … BY), their text cut as a failed repetition's
// (shown-failure.ts); what was left out is counted. The pair's order and its command are added by
// read-evidence.ts, which knows the candidate's identity and reproduce parts.
import type { TestCaseIdentity } from '../contract.js';
import { type Sql, sql } from '../sql/bind.js';
import { type Database, num } from '../storage/database.js';
import { ORDER_FINDINGS_SHOWN } from './evidence-bounds.js';
import { FAILURE_COLUMNS, type ShownFailure, shownFailure } from './shown-failure.js';

/** One order dependence as shown. */
export interface ShownOrderFinding {
  /** victim: the candidate failed right after `other`; polluter: `other` failed right after the candidate. */
  role: 'victim' | 'polluter';
  other: TestCaseIdentity & { testCaseId: string };
  /** The pair in the order it failed: victim `[other, candidate]`, polluter `[candidate, other]`. */
  order: TestCaseIdentity[];
  /** Polluter: whether `other` passed alone in a fresh JVM; null for a victim. */
  otherPassesAlone: boolean | null;
  /** Fresh JVMs that replayed the pair's order, and how many failed. */
  replays: number;
  replayFailures: number;
  /** The failing test's evidence in the last replay, cut as a failed repetition's. */
  failure: ShownFailure;
  /** The command that runs the pair once in that order (null: no reproduce parts uploaded). */
  reproduceCommand: string | null;
}

/** What the order probe did for one candidate, and what it found. */
export interface ShownOrderProbe {
  /** probed: every planned pair ran; cut: its budget or the ceiling stopped it; not_run: `why` says. */
  status: 'probed' | 'cut' | 'not_run';
  why: string | null;
  seed: string;
  partners: number;
  partnersRun: number;
  sampledClasses: number;
  moduleClasses: number;
  /** The candidate's outcome was order_dependent. */
  orderDependent: boolean;
  /** The project's stress.orderFindingsBlock when the gate was recorded: its findings fail the gate. */
  findingsBlock: boolean;
  /** At most ORDER_FINDINGS_SHOWN, in upload order. */
  findings: ShownOrderFinding[];
  /** Findings the CLI's bound left out. */
  findingsOmitted: number;
  /** Findings stored that the page's bound did not show. */
  findingsNotShown: number;
  /** Findings uploaded by role (all of them, shown or not). */
  victims: number;
  polluters: number;
}

type Row = Record<string, unknown>;

/** The pair of a finding in the order it failed: the other test first for a victim, the candidate first for a polluter. */
export function findingOrder(role: 'victim' | 'polluter', candidate: TestCaseIdentity, other: TestCaseIdentity): TestCaseIdentity[] {
  const o = { module: other.module, suite: other.suite, name: other.name };
  return role === 'victim' ? [o, candidate] : [candidate, o];
}

/** The order probes of the candidates in `scope` (a run's rows, of some candidates), by test_case_id. */
export async function readOrderProbes(db: Database, scope: Sql): Promise<Map<string, ShownOrderProbe>> {
  const probes = await db.engine.query<Row>(sql`
    SELECT toString(test_case_id) AS id, toString(status) AS state, has_why, why, seed, partners, partners_run, sampled_classes, module_classes,
      order_dependent, victims, polluters, findings_omitted, order_findings_block
    FROM ${db.t('gate_order_probes')} FINAL WHERE ${scope} ORDER BY id, shard_index`);
  const byId = new Map<string, ShownOrderProbe>();
  if (probes.length === 0) return byId;
  for (const p of probes) {
    const id = String(p['id']);
    const seen = byId.get(id);
    // A candidate in two shards: the first shard's probe stands, the findings and omissions add up.
    if (seen) {
      seen.findingsOmitted += num(p['findings_omitted']);
      seen.victims += num(p['victims']);
      seen.polluters += num(p['polluters']);
      seen.orderDependent ||= num(p['order_dependent']) === 1;
      continue;
    }
    byId.set(id, {
      status: p['state'] === 'cut' ? 'cut' : p['state'] === 'not_run' ? 'not_run' : 'probed',
      why: num(p['has_why']) === 1 ? String(p['why']) : null,
      seed: String(p['seed']),
      partners: num(p['partners']),
      partnersRun: num(p['partners_run']),
      sampledClasses: num(p['sampled_classes']),
      moduleClasses: num(p['module_classes']),
      orderDependent: num(p['order_dependent']) === 1,
      findingsBlock: num(p['order_findings_block']) === 1,
      findings: [],
      findingsOmitted: num(p['findings_omitted']),
      findingsNotShown: 0,
      victims: num(p['victims']),
      polluters: num(p['polluters']),
    });
  }
  const findings = await db.engine.query<Row>(sql`
    SELECT toString(test_case_id) AS id, toString(role) AS part, toString(other_test_case_id) AS other_id, other_module, other_suite, other_name,
      has_other_passes_alone, other_passes_alone, replays, replay_failures, ${FAILURE_COLUMNS}
    FROM ${db.t('gate_order_findings')} FINAL WHERE ${scope}
    ORDER BY id, shard_index, position LIMIT ${ORDER_FINDINGS_SHOWN} BY id`);
  for (const f of findings) {
    const probe = byId.get(String(f['id']));
    if (!probe) continue;
    const other = { testCaseId: String(f['other_id']), module: String(f['other_module']), suite: String(f['other_suite']), name: String(f['other_name']) };
    probe.findings.push({
      role: f['part'] === 'polluter' ? 'polluter' : 'victim',
      other,
      order: [],
      otherPassesAlone: num(f['has_other_passes_alone']) === 1 ? num(f['other_passes_alone']) === 1 : null,
      replays: num(f['replays']),
      replayFailures: num(f['replay_failures']),
      failure: shownFailure(f),
      reproduceCommand: null,
    });
  }
  for (const p of byId.values()) p.findingsNotShown = Math.max(0, p.victims + p.polluters - p.findings.length);
  return byId;
}
