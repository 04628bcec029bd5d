// The order probe inside the gate: which candidates it probes (those that passed every repetition,
// not muted), beside which tests (every test the build ran and passed), within what budget, and
// what it changes: a candidate with a confirmed finding is `order_dependent`. Each finding gets the
// command that replays exactly its pair's order.
import { orderReproduceCommand } from '#reproduce';
import { identityKey } from '../identity/identity-key.js';
import type { CandidateResult } from '../enforce/outcome.js';
import { failureEvidence } from '../evidence/failure-evidence.js';
import type { FirstPass } from '../first-pass/first-pass.js';
import type { TestCaseResult } from '../first-pass/test-case-result.js';
import type { Logger } from '../base/log.js';
import { reproduction } from '../reproduce/reproduce-command.js';
import type { ProbeTest } from './plan-probe.js';
import type { ProbeSettings } from '../config/probe-settings.js';
import type { InOrderRunner } from '../repetitions/sequence-run.js';
import { runOrderProbe, type CandidateProbe, type ProbeSummary } from './run-probe.js';

/** What the gate's probe step needs. */
export interface OrderStep {
  settings: ProbeSettings;
  /** What the ceiling left after the repetitions (ms); null: no ceiling. */
  ceilingLeftMs: number | null;
  concurrency: number;
  jvmStartMs: number;
  tool: readonly string[];
  buildArgs: readonly string[];
  signal?: AbortSignal | undefined;
}

/**
 * The tests the build ran and passed, as the probe runs them, but the new tests the repetitions
 * found flaky (`flaky`, by identity key): a partner that fails by itself would only make noise.
 */
export function probePool(first: FirstPass, flaky: ReadonlySet<string> = new Set()): ProbeTest[] {
  return first.cases
    .filter((c) => c.status === 'success' && !c.muted && !flaky.has(identityKey(c)))
    .map(probeTest);
}

/** A first-pass case as the probe (and `--run-order`) runs it. */
export function probeTest(c: TestCaseResult): ProbeTest {
  return { module: c.module, suite: c.suite, name: c.name, durationMs: c.durationMs, testCaseId: identityKey(c), source: c.source };
}

/**
 * Candidates the probe takes: passed every repetition, not muted, passed in the build; of the new
 * invocations of one method (candidate.group), the first only: they share its code and its state.
 */
export function probedCandidates(results: readonly CandidateResult[]): CandidateResult[] {
  const groups = new Set<string>();
  return results.filter((r) => {
    if (r.outcome !== 'passed' || r.muted || r.source === null || r.firstPassStatus === 'failure') return false;
    if (r.group === undefined) return true;
    if (groups.has(r.group)) return false;
    groups.add(r.group);
    return true;
  });
}

/** Runs the probe for `results` and returns them with its findings; the summary is null when nothing was probed. */
export async function probeOrder(results: CandidateResult[], first: FirstPass, step: OrderStep, deps: { build: { runInOrder: InOrderRunner }; logger: Logger; err: (t: string) => void; now: () => number }): Promise<{ results: CandidateResult[]; summary: ProbeSummary | null }> {
  const probed = probedCandidates(results);
  if (!step.settings.enabled || probed.length === 0) return { results, summary: null };
  const budgetMs = Math.min(step.settings.budgetSeconds * 1000, step.ceilingLeftMs ?? Number.MAX_SAFE_INTEGER);
  if (budgetMs <= 0) {
    const why = 'the repetitions used the whole ceiling: no time was left for the order probe';
    const summary: ProbeSummary = { seed: step.settings.seed, candidates: probed.length, pairs: 0, jvms: 0, predictedMs: 0, budgetMs: 0, wallClockMs: 0, cut: true, cancelled: false, why };
    return { results: results.map((r) => (probed.includes(r) ? { ...r, orderProbe: notRun(step.settings.seed, why, 'cut') } : r)), summary };
  }
  const candidates: ProbeTest[] = probed.map((r) => ({ module: r.module, suite: r.suite, name: r.name, durationMs: r.durationMs, testCaseId: identityKey(r), source: r.source! }));
  let probe: Awaited<ReturnType<typeof runOrderProbe>>;
  try {
    probe = await runOrderProbe(
      { candidates, pool: probePool(first, new Set(results.filter((r) => r.outcome === 'failed' && r.source).map(identityKey))), seed: step.settings.seed, budgetMs, concurrency: step.concurrency, jvmStartMs: step.jvmStartMs, signal: step.signal },
      deps,
    );
  } catch (e) {
    // The probe's own trouble: said, never a finding, and the repetitions' verdicts stand.
    deps.logger.warn({ err: e }, 'the order probe failed');
    const why = `it failed: ${(e as Error).message}`;
    const summary: ProbeSummary = { seed: step.settings.seed, candidates: probed.length, pairs: 0, jvms: 0, predictedMs: 0, budgetMs, wallClockMs: 0, cut: false, cancelled: false, why };
    return { results: results.map((r) => (probed.includes(r) ? { ...r, orderProbe: notRun(step.settings.seed, why, 'not_run') } : r)), summary };
  }
  const { perCandidate, summary } = probe;
  return {
    results: results.map((r) => {
      if (!probed.includes(r)) return r;
      const probe = perCandidate.get(identityKey(r));
      if (!probe) return r;
      if (!probe.findings.length) return { ...r, orderProbe: probe };
      const repro = reproduction(step.tool, step.buildArgs, r);
      const parts = repro.reproduceParts;
      const findings = probe.findings.map((f) => {
        const order = f.role === 'victim' ? [f.other, r] : [r, f.other];
        // The failing test's evidence, bounded and trimmed to its own frames as a failed repetition's.
        const failing = f.role === 'victim' ? r.suite : f.other.suite;
        const { failure, ...rest } = f;
        const evidence = failure ? failureEvidence(failing, [{ repetition: f.replays, status: 'failure', durationMs: 0, failure }])?.failures[0] : undefined;
        return { ...rest, reproduce: orderReproduceCommand(parts, order), ...(evidence ? { evidence } : {}) };
      });
      return { ...r, outcome: 'order_dependent' as const, orderProbe: { ...probe, findings }, ...repro };
    }),
    summary,
  };
}

function notRun(seed: number, why: string, status: 'cut' | 'not_run'): CandidateProbe {
  return { status, why, seed, partners: 0, partnersRun: 0, classPartnersLeftOut: 0, sampledClasses: 0, moduleClasses: 0, findings: [], notes: [] };
}
