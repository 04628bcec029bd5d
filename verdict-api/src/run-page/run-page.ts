// The run page: a consumer that describes one run. It shows stress repetitions, in the flaky
// section, labelled as caught by the stress gate, beside organic flakiness, and the gate's
// verdict on the run. (Consumers that attribute flakiness across runs read only 'organic'.)
import type { Project } from '../accounts/projects.js';
import { BadRequestError, VerdictApiError } from '../errors/errors.js';
import { type Sql, sql, uuid } from '../sql/bind.js';
import { type Database, num } from '../storage/database.js';
import { ruledOutFailureRate } from '../contract.js';
import { invocationMethods } from './invocation-methods.js';
import { idSet } from '../presence/presence.js';
import { FairSlots } from '../limits/fair-slots.js';
import { type CandidateEvidence, NO_EVIDENCE, readEvidence } from './read-evidence.js';
import { type GateDiff, readGateDiff, type ShownDiff, type ShownRename } from './read-diff.js';
import type { CandidateOrigin } from '../contract.js';

export interface RunPage {
  runId: string;
  branch: string;
  commit: string;
  isCi: boolean;
  status: 'success' | 'failure';
  shards: number;
  /** The first pass's wall clock (the longest shard). */
  durationMs: number;
  /** When the first shard started, 'YYYY-MM-DD hh:mm:ss' UTC. */
  startedAt: string;
  /** The run's test cases counted by outcome: all of them, whatever the lists below hold. */
  counts: { testCases: number; passed: number; failed: number; failedUnmuted: number; skipped: number; new: number };
  /** The failed test cases by name, at most RUN_PAGE_FAILED (counts.failed says how many there are). */
  failedTestCases: TestCaseRow[];
  /**
   * One page of the run's test cases, at most `limit` (RUN_PAGE_TEST_CASES by default), in the
   * order they are stored (shard, then id): a run of 100,000 test cases is read a page at a time.
   */
  testCases: TestCaseRow[];
  /** The `after` of the next page of test cases; null on the last. */
  nextTestCases: string | null;
  /**
   * Tests that disagreed with themselves in this run. A timing-sensitive gate candidate is one too:
   * its `failed` of `repetitions` are its side-by-side ones, and `timingSensitive` says how it did alone.
   */
  flaky: FlakyFinding[];
  /** Findings past RUN_PAGE_FLAKY of a kind (stress, organic): counted, not listed. */
  flakyNotShown: number;
  gate: {
    mode: string;
    outcome: string;
    candidatesExamined: number;
    stressed: number;
    excluded: number;
    notStressed: number;
    guard: { name: string; count: number; reason: string } | null;
    blocked: boolean;
    wouldHaveBlocked: boolean;
    /** How many shards uploaded a verdict. */
    shards: number;
    /** The time the stress pass added (summed over shards); null when not recorded. */
    stressPassMs: number | null;
    /**
     * One page of the candidates (at most RUN_PAGE_CANDIDATES, by module, suite and name), each with
     * its strip (one pass or fail per repetition, with its duration) and its bounded evidence.
     */
    candidates: GateCandidate[];
    /** The gate's candidates in all, on every page. */
    candidateCount?: number;
    /** The `afterCandidate` of the next page of candidates; null on the last. */
    nextCandidates?: string | null;
    /** The candidates that failed (all pages), and of them the ones not muted. */
    failedCandidates?: { failed: number; unmuted: number };
    /**
     * The order probe over all pages: candidates found order-dependent (counted apart from failed
     * ones), of them the ones whose findings fail the gate (the project's setting, not muted), their
     * findings by role, and the candidates whose probe was cut or did not run.
     */
    orderProbes?: OrderProbeCounts;
    /** The merge request's diff as the CLI analysed it (null: no analysis uploaded, an older CLI). */
    diff?: ShownDiff | null;
    /** Tests not stressed because they are renames of known tests: the first RUN_PAGE_RENAMED by name. */
    renamed?: ShownRename[];
    /** Renamed tests in all. */
    renamedCount?: number;
    /** How strong the clean stress results are (null when no candidate passed its repetitions). */
    detection: { repetitions: number; confidence: number; ruledOutFailureRate: number; sentence: string } | null;
  } | null;
}

/** The order probe's figures over a run's candidates (run-page.ts reads them over every page). */
export interface OrderProbeCounts {
  orderDependent: number;
  blocking: number;
  victims: number;
  polluters: number;
  cut: number;
  notRun: number;
}

/** A test case of the run as its first pass ran it. */
export interface TestCaseRow {
  testCaseId: string;
  module: string;
  suite: string;
  name: string;
  status: string;
  durationMs: number;
  isNew: boolean;
  muted: boolean;
}

/** Test cases on a page of the run, by default and at most. */
export const RUN_PAGE_TEST_CASES = 500;
export const MAX_RUN_PAGE_TEST_CASES = 5_000;
/** Failed test cases listed (the rest counted). */
export const RUN_PAGE_FAILED = 200;
/** Organic flaky findings listed (the rest counted in the log): a run whose every test disagreed is not read whole. */
export const RUN_PAGE_FLAKY = 1_000;
/** What the flaky section says of the findings its bound left out. */
export function flakyNotShownLine(n: number): string {
  return `${n.toLocaleString('en-US')} more disagreed: the first ${RUN_PAGE_FLAKY.toLocaleString('en-US')} of each kind (the gate's, the build's own retries) are listed.`;
}

/** Gate candidates on a page, with their strips and evidence (the project's default cap is 200). */
export const RUN_PAGE_CANDIDATES = 25;

/** Which page of test cases to read: after the cursor of the previous one, at most `limit`. */
export interface TestCasePage {
  after?: string | undefined;
  limit?: number | undefined;
  /** The `nextCandidates` of the previous page of the gate's candidates. */
  afterCandidate?: string | undefined;
}

const CURSOR = /^(\d{1,9}):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

const CANDIDATE_CURSOR = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Checks a page request's `after`, `limit` and `afterCandidate` (a 400 naming the field). */
export function testCasePage(after: string | undefined, limit: string | undefined, afterCandidate?: string): TestCasePage {
  if (after !== undefined && !CURSOR.test(after)) throw new BadRequestError('after: must be the nextTestCases of a previous page', 'after');
  if (afterCandidate !== undefined && !CANDIDATE_CURSOR.test(afterCandidate)) throw new BadRequestError('afterCandidate: must be the nextCandidates of a previous page', 'afterCandidate');
  if (limit === undefined) return { after, afterCandidate };
  const n = Number(limit);
  if (!Number.isInteger(n) || n < 1 || n > MAX_RUN_PAGE_TEST_CASES) throw new BadRequestError(`limit: must be an integer from 1 to ${MAX_RUN_PAGE_TEST_CASES}`, 'limit');
  return { after, limit: n, afterCandidate };
}

/** One test of the flaky section. */
export interface FlakyFinding {
  module: string;
  suite: string;
  name: string;
  caughtBy: 'stress_gate' | 'organic';
  failed: number;
  repetitions: number;
  /** A timing-sensitive gate candidate: the repetitions it passed run again alone, and whether it blocked (or would have). */
  timingSensitive?: { passedAlone: number; blocking: boolean; muted: boolean };
}

/** One candidate of the gate on this run, its repetitions, and the evidence of its failed ones. */
export interface GateCandidate extends CandidateEvidence {
  testCaseId: string;
  module: string;
  suite: string;
  name: string;
  muted: boolean;
  outcome: string;
  /** Why it is a candidate: new (never ran in CI on the default branch), modified (the merge request changed its own lines), diff (added by the merge request, no history yet). */
  origin?: CandidateOrigin;
  /**
   * The parameterised method this candidate is an invocation of (`adds(int)` of `adds(int)[3]`),
   * when the run's gate has two or more invocations of it (same module and suite); otherwise null.
   * The run page and the run report show such a method as one line.
   */
  method: string | null;
  repetitions: { repetition: number; status: string; durationMs: number }[];
}

/**
 * One run as its page shows it. Its memory does not grow with the run: the test cases are counted,
 * and read a page at a time (`page`); the failed ones and the flaky findings are listed up to a
 * bound; the gate's candidates are counted and read RUN_PAGE_CANDIDATES at a time
 * (`page.afterCandidate`), each with its evidence bounded in ClickHouse (read-evidence.ts).
 */
export async function runPage(db: Database, project: Project, runId: string, page: TestCasePage = {}): Promise<RunPage> {
  let slots = readers.get(db);
  if (!slots) readers.set(db, (slots = new FairSlots(RUN_PAGE_READS, RUN_PAGE_READS_PER_ACCOUNT)));
  await slots.acquire(project.accountId);
  try {
    return await readRunPage(db, project, runId, page);
  } finally {
    slots.release(project.accountId);
  }
}

/**
 * Run pages read at once, and for one account: a run page's reads are the heaviest a caller can
 * ask for (counting a run of 100,000 test cases), so one tenant opening its largest run ten times
 * takes two places, and other tenants' pages and verdicts keep theirs.
 */
const RUN_PAGE_READS = 4;
const RUN_PAGE_READS_PER_ACCOUNT = 2;
const readers = new WeakMap<Database, FairSlots>();

async function readRunPage(db: Database, project: Project, runId: string, page: TestCasePage): Promise<RunPage> {
  const scope = sql`project_id = ${uuid(project.projectId)} AND run_id = ${runId}`;
  const runs = await db.engine.query<Record<string, unknown>>(sql`
    SELECT git_branch, git_commit, is_ci, status, shard_index, duration_ms, toString(started_at) AS started FROM ${db.t('test_runs')} FINAL WHERE ${scope} ORDER BY shard_index`);
  if (runs.length === 0) throw new VerdictApiError('NOT_FOUND', `no run "${runId}" in this project`, 'runId');
  const limit = page.limit ?? RUN_PAGE_TEST_CASES;
  const cursor = page.after === undefined ? null : CURSOR.exec(page.after);
  const after = cursor ? sql` AND (shard_index, test_case_id) > (${Number(cursor[1])}, ${uuid(cursor[2]!)})` : sql``;
  const columns = sql`toString(test_case_id) AS id, shard_index, module, suite, name, status, duration_ms, is_new, muted`;
  const [countRows, cases, failedCases] = await Promise.all([
    db.engine.query<Record<string, unknown>>(sql`
      SELECT count() AS total, countIf(status = 'success') AS passed, countIf(status = 'failure') AS failed, countIf(status = 'failure' AND muted = 0) AS failed_unmuted,
             countIf(status = 'skipped') AS skipped, countIf(is_new = 1) AS fresh
      FROM ${db.t('test_case_runs')} FINAL WHERE ${scope}`),
    db.engine.query<Record<string, unknown>>(sql`
      SELECT ${columns} FROM ${db.t('test_case_runs')} FINAL WHERE ${scope}${after} ORDER BY shard_index, test_case_id LIMIT ${limit + 1}`),
    db.engine.query<Record<string, unknown>>(sql`
      SELECT ${columns} FROM ${db.t('test_case_runs')} FINAL WHERE ${scope} AND status = 'failure' ORDER BY module, suite, name LIMIT ${RUN_PAGE_FAILED}`),
  ]);
  // Stress repetitions that failed (the gate's findings, bounded as the organic ones), and the
  // fewest repetitions of a clean candidate (a timing-sensitive or order-dependent one's clean strip is no clean result).
  const stressReps = await db.engine.query<Record<string, unknown>>(sql`
    SELECT toString(test_case_id) AS id, toString(source) AS kind, countIf(status = 'failure') AS failed, count() AS total
    FROM ${db.t('test_case_run_repetitions')} FINAL WHERE ${scope} AND source = 'stress' GROUP BY id, source
    HAVING failed > 0 ORDER BY id LIMIT ${RUN_PAGE_FLAKY}`);
  const clean = await db.engine.query<Record<string, unknown>>(sql`
    SELECT count() AS clean, min(total) AS fewest FROM (
      SELECT test_case_id, countIf(status = 'failure') AS failed, count() AS total FROM ${db.t('test_case_run_repetitions')} FINAL
      WHERE ${scope} AND source = 'stress' AND test_case_id NOT IN (SELECT test_case_id FROM ${db.t('gate_timing_sensitive')} FINAL WHERE ${scope})
        AND test_case_id NOT IN (SELECT test_case_id FROM ${db.t('gate_order_probes')} FINAL WHERE ${scope} AND order_dependent = 1)
      GROUP BY test_case_id HAVING failed = 0)`);
  // Organic repetitions that disagreed: grouped in ClickHouse, and only those come back.
  const organicReps = await db.engine.query<Record<string, unknown>>(sql`
    SELECT toString(test_case_id) AS id, toString(source) AS kind, countIf(status = 'failure') AS failed, count() AS total
    FROM ${db.t('test_case_run_repetitions')} FINAL WHERE ${scope} AND source = 'organic' GROUP BY id, source
    HAVING failed > 0 AND failed < total ORDER BY id LIMIT ${RUN_PAGE_FLAKY}`);
  // A bound that bites is said: the findings past it are counted (only then: the count reads them all again).
  const countPast = async (listed: readonly unknown[], source: 'stress' | 'organic', having: Sql): Promise<number> => {
    if (listed.length < RUN_PAGE_FLAKY) return 0;
    const [row] = await db.engine.query<Record<string, unknown>>(sql`
      SELECT count() AS n FROM (SELECT test_case_id, countIf(status = 'failure') AS failed, count() AS total
        FROM ${db.t('test_case_run_repetitions')} FINAL WHERE ${scope} AND source = ${source} GROUP BY test_case_id HAVING ${having})`);
    return num(row?.['n'] ?? 0) - listed.length;
  };
  const flakyNotShown = (await countPast(stressReps, 'stress', sql`failed > 0`)) + (await countPast(organicReps, 'organic', sql`failed > 0 AND failed < total`));
  // (No alias is named after a column: ClickHouse would read the alias in WHERE.)
  const reps: Record<string, unknown>[] = [...stressReps, ...organicReps].map((r) => ({ ...r, source: r['kind'] }));
  const gates = await db.engine.query<Record<string, unknown>>(sql`
    SELECT * FROM ${db.t('gate_verdicts')} FINAL WHERE ${scope} ORDER BY shard_index`);
  // The names of the findings (at most RUN_PAGE_FLAKY of each kind).
  const organicIds = organicReps.map((r) => String(r['id']));
  const named = organicIds.length === 0 ? [] : await db.engine.query<Record<string, unknown>>(sql`
    SELECT DISTINCT toString(test_case_id) AS id, module, suite, name FROM ${db.t('test_case_runs')} WHERE ${scope} AND toString(test_case_id) IN ${idSet(organicIds)}`);
  const stressIds = stressReps.map((r) => String(r['id']));
  const stressNamed = stressIds.length === 0 ? [] : await db.engine.query<Record<string, unknown>>(sql`
    SELECT DISTINCT toString(test_case_id) AS id, module, suite, name FROM ${db.t('gate_candidates')} WHERE ${scope} AND toString(test_case_id) IN ${idSet(stressIds)}`);

  const byId = new Map([...named, ...stressNamed].map((c) => [c['id'] as string, c]));
  // One page of the candidates, after the cursor's (a keyset: module, suite, name, id; the id as text,
  // since older servers have no UUID literal to compare a tuple with).
  const afterCandidate = page.afterCandidate === undefined ? sql`` : sql` AND (module, suite, name, toString(test_case_id)) > (
      SELECT module, suite, name, toString(test_case_id) FROM ${db.t('gate_candidates')} FINAL WHERE ${scope} AND test_case_id = ${uuid(page.afterCandidate)} LIMIT 1)`;
  const candidatePage = await db.engine.query<Record<string, unknown>>(sql`
    SELECT toString(test_case_id) AS id, module, suite, name, muted, toString(outcome) AS result FROM ${db.t('gate_candidates')} FINAL
    WHERE ${scope}${afterCandidate} ORDER BY module, suite, name, id LIMIT ${RUN_PAGE_CANDIDATES + 1}`);
  const candidates = candidatePage.slice(0, RUN_PAGE_CANDIDATES);
  const candidateIds = [...new Set(candidates.map((c) => String(c['id'])))];
  const [candidateCounts] = await db.engine.query<Record<string, unknown>>(sql`
    SELECT uniqExact(test_case_id) AS total, uniqExactIf(test_case_id, outcome = 'failed') AS failed, uniqExactIf(test_case_id, outcome = 'failed' AND muted = 0) AS unmuted
    FROM ${db.t('gate_candidates')} FINAL WHERE ${scope}`);
  const strips = candidateIds.length === 0 ? [] : await db.engine.query<Record<string, unknown>>(sql`
    SELECT toString(test_case_id) AS id, repetition, toString(status) AS result, duration_ms FROM ${db.t('test_case_run_repetitions')} FINAL
    WHERE ${scope} AND source = 'stress' AND toString(test_case_id) IN ${idSet(candidateIds)} ORDER BY id, repetition`);
  const timings = await db.engine.query<Record<string, unknown>>(sql`
    SELECT wall_clock_ms FROM ${db.t('gate_timings')} FINAL WHERE ${scope} AND has_pass = 1`);
  // Counted per candidate, not per shard: its first shard's setting stands (as its evidence's does).
  const [orderCounts] = await db.engine.query<Record<string, unknown>>(sql`
    SELECT uniqExactIf(test_case_id, order_dependent = 1) AS dependent,
      uniqExactIf(test_case_id, order_dependent = 1 AND order_findings_block = 1 AND test_case_id NOT IN (SELECT test_case_id FROM ${db.t('gate_candidates')} FINAL WHERE ${scope} AND muted = 1)) AS blocking,
      count() AS probes, sum(victims) AS victim_findings, sum(polluters) AS polluter_findings, uniqExactIf(test_case_id, status = 'cut') AS cut, uniqExactIf(test_case_id, status = 'not_run') AS not_run
    FROM ${db.t('gate_order_probes')} FINAL WHERE ${scope}`);
  // A run without order probes (most, and every older CLI's) skips reading them.
  const evidence = gates.length === 0 ? new Map<string, CandidateEvidence>() : await readEvidence(db, scope, candidateIds, num(orderCounts?.['probes'] ?? 0) > 0);
  const diff: GateDiff | null = gates.length === 0 ? null : await readGateDiff(db, scope, candidateIds);
  for (const c of candidates) if (!byId.has(c['id'] as string)) byId.set(c['id'] as string, c);
  const stripOf = new Map<string, GateCandidate['repetitions']>();
  for (const r of strips) {
    const strip = stripOf.get(String(r['id'])) ?? [];
    strip.push({ repetition: num(r['repetition']), status: String(r['result']), durationMs: num(r['duration_ms']) });
    stripOf.set(String(r['id']), strip);
  }

  const flaky: RunPage['flaky'] = reps
    .filter((r) => {
      const failed = num(r['failed']);
      // Every stress candidate passed its first pass, so one failed repetition is a disagreement;
      // organic repetitions must disagree among themselves.
      return r['source'] === 'stress' ? failed > 0 : failed > 0 && failed < num(r['total']);
    })
    .map((r) => {
      const c = byId.get(r['id'] as string);
      return {
        module: String(c?.['module'] ?? ''),
        suite: String(c?.['suite'] ?? ''),
        name: String(c?.['name'] ?? ''),
        caughtBy: r['source'] === 'stress' ? ('stress_gate' as const) : ('organic' as const),
        failed: num(r['failed']),
        repetitions: num(r['total']),
      };
    });

  const gateCandidates = candidates.map((c): GateCandidate => {
    const e = evidence.get(String(c['id'])) ?? NO_EVIDENCE;
    return {
      testCaseId: String(c['id']),
      module: String(c['module']),
      suite: String(c['suite']),
      name: String(c['name']),
      muted: num(c['muted']) === 1,
      // gate_candidates holds 'passed' for it (0009's enum has no order_dependent; 0041 has the rest).
      outcome: e.orderProbe?.orderDependent ? 'order_dependent' : String(c['result']),
      origin: diff?.origins.get(String(c['id'])) ?? 'new',
      method: null,
      repetitions: stripOf.get(String(c['id'])) ?? [],
      ...e,
    };
  });
  invocationMethods(gateCandidates).forEach((method, i) => (gateCandidates[i]!.method = method));
  flaky.push(...timingSensitiveFindings(gateCandidates, flaky));
  flaky.sort((a, b) => (a.module + a.suite + a.name < b.module + b.suite + b.name ? -1 : 1));

  const first = runs[0]!;
  return {
    runId,
    branch: String(first['git_branch']),
    commit: String(first['git_commit']),
    isCi: num(first['is_ci']) === 1,
    status: runs.some((r) => r['status'] === 'failure') ? 'failure' : 'success',
    shards: runs.length,
    durationMs: Math.max(...runs.map((r) => num(r['duration_ms']))),
    startedAt: String(first['started']),
    counts: {
      testCases: num(countRows[0]?.['total'] ?? 0),
      passed: num(countRows[0]?.['passed'] ?? 0),
      failed: num(countRows[0]?.['failed'] ?? 0),
      failedUnmuted: num(countRows[0]?.['failed_unmuted'] ?? 0),
      skipped: num(countRows[0]?.['skipped'] ?? 0),
      new: num(countRows[0]?.['fresh'] ?? 0),
    },
    failedTestCases: failedCases.map(testCaseRow),
    testCases: cases.slice(0, limit).map(testCaseRow),
    nextTestCases: cases.length > limit ? `${num(cases[limit - 1]!['shard_index'])}:${String(cases[limit - 1]!['id'])}` : null,
    flaky,
    flakyNotShown,
    gate:
      gates.length === 0
        ? null
        : {
            ...mergeGates(gates),
            detection: detection(num(clean[0]?.['clean'] ?? 0), num(clean[0]?.['fewest'] ?? 0)),
            stressPassMs: timings.length ? timings.reduce((n, t) => n + num(t['wall_clock_ms']), 0) : null,
            candidates: gateCandidates,
            candidateCount: num(candidateCounts?.['total'] ?? 0),
            nextCandidates: candidatePage.length > RUN_PAGE_CANDIDATES ? String(candidates[candidates.length - 1]!['id']) : null,
            failedCandidates: { failed: num(candidateCounts?.['failed'] ?? 0), unmuted: num(candidateCounts?.['unmuted'] ?? 0) },
            orderProbes: {
              orderDependent: num(orderCounts?.['dependent'] ?? 0),
              blocking: num(orderCounts?.['blocking'] ?? 0),
              victims: num(orderCounts?.['victim_findings'] ?? 0),
              polluters: num(orderCounts?.['polluter_findings'] ?? 0),
              cut: num(orderCounts?.['cut'] ?? 0),
              notRun: num(orderCounts?.['not_run'] ?? 0),
            },
            diff: diff?.diff ?? null,
            renamed: diff?.renamed ?? [],
            renamedCount: diff?.renamedCount ?? 0,
          },
  };
}

function testCaseRow(c: Record<string, unknown>): TestCaseRow {
  return {
    testCaseId: String(c['id']),
    module: String(c['module']),
    suite: String(c['suite']),
    name: String(c['name']),
    status: String(c['status']),
    durationMs: num(c['duration_ms']),
    isNew: num(c['is_new']) === 1,
    muted: num(c['muted']) === 1,
  };
}

/** The flaky section's rows of timing-sensitive candidates: their side-by-side failures (their strip, the alone run, passed). */
function timingSensitiveFindings(candidates: readonly GateCandidate[], already: readonly FlakyFinding[]): FlakyFinding[] {
  const listed = new Set(already.filter((f) => f.caughtBy === 'stress_gate').map((f) => JSON.stringify([f.module, f.suite, f.name])));
  return candidates
    .filter((c) => c.timingSensitive !== null && !listed.has(JSON.stringify([c.module, c.suite, c.name])))
    .map((c) => ({
      module: c.module,
      suite: c.suite,
      name: c.name,
      caughtBy: 'stress_gate' as const,
      failed: c.timingSensitive!.failures,
      repetitions: c.timingSensitive!.repetitions,
      timingSensitive: { passedAlone: c.repetitions.filter((r) => r.status === 'success').length, blocking: c.outcome === 'failed' && !c.muted, muted: c.muted },
    }));
}

/** The weakest clean stress result: the fewest repetitions (`fewest`) of a candidate none of which failed, when `clean` candidates had one. */
function detection(clean: number, fewest: number): NonNullable<RunPage['gate']>['detection'] {
  if (clean === 0) return null;
  const r = fewest;
  const rate = ruledOutFailureRate(r);
  const sentence = `${r} clean repetitions rule out a failure rate above ${Math.round(rate * 100)}% per run (95% confidence); rarer flakes can pass.`;
  return { repetitions: r, confidence: 0.95, ruledOutFailureRate: rate, sentence };
}

/** Shards of one run each carry a verdict; the run's is their sum (any shard blocking blocks). */
function mergeGates(gates: Record<string, unknown>[]): Omit<NonNullable<RunPage['gate']>, 'candidates' | 'stressPassMs' | 'detection' | 'candidateCount' | 'nextCandidates' | 'failedCandidates' | 'orderProbes' | 'diff' | 'renamed' | 'renamedCount'> {
  const sum = (k: string) => gates.reduce((n, g) => n + num(g[k]), 0);
  const guarded = gates.find((g) => g['guard_name'] !== '');
  const outcomes = gates.map((g) => String(g['outcome']));
  return {
    mode: String(gates[0]!['mode']),
    outcome: ['failed', 'gate_error', 'cancelled', 'incomplete', 'guarded', 'passed'].find((o) => outcomes.includes(o)) ?? outcomes[0]!,
    candidatesExamined: sum('candidates_examined'),
    stressed: sum('stressed'),
    excluded: sum('excluded'),
    notStressed: sum('not_stressed'),
    guard: guarded ? { name: String(guarded['guard_name']), count: num(guarded['guard_count']), reason: String(guarded['guard_reason']) } : null,
    blocked: gates.some((g) => num(g['blocked']) === 1),
    wouldHaveBlocked: gates.some((g) => num(g['would_have_blocked']) === 1),
    shards: gates.length,
  };
}
