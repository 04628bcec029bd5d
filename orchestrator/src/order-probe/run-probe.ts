// The order probe: after the fresh-JVM repetitions, each new test that passed them runs beside
// other tests in shared JVMs (plan-probe.ts), and every pair that failed there is replayed in fresh
// JVMs before it is reported. A victim: the candidate failed right after another test, and fails
// again every time that test alone runs before it. A polluter: an existing test failed right after
// the candidate, fails again every time the candidate alone runs before it, and passes alone.
// Anything else that failed in a shared JVM is said, never reported as a finding.
import type { Logger } from '../base/log.js';
import { NO_PARTNERS, type CandidateProbe, type ProbeFinding, type ProbeSummary, type ProbeTest } from '../repetitions/order-probe-result.js';
import type { InOrderOutcome, InOrderRunner, SequenceRun, StepResult } from '../repetitions/sequence-run.js';
import { DEFAULT_PROBE_BOUNDS, planProbe, type CandidateProbePlan, type ProbeBounds } from './plan-probe.js';

export type { CandidateProbe, ProbeFinding, ProbeSummary };




export interface ProbeInput {
  candidates: readonly ProbeTest[];
  /** Every test the first pass ran and passed. */
  pool: readonly ProbeTest[];
  seed: number;
  /** The probe's deadline from its start (its budget, within what the ceiling left). */
  budgetMs: number;
  concurrency: number;
  /** A JVM's start, for the price (ms). */
  jvmStartMs: number;
  bounds?: ProbeBounds;
  signal?: AbortSignal | undefined;
}

export interface ProbeDeps {
  build: { runInOrder: InOrderRunner };
  logger: Logger;
  err: (text: string) => void;
  now: () => number;
}

/** The part of a candidate's budget share its shared JVMs are planned to take (the rest: replays, a slower machine). */
export const SHARE_MARGIN = 0.6;

/** A pair failed in a shared JVM: replayed before it is reported. */
interface Suspect {
  candidate: number;
  role: 'victim' | 'polluter';
  other: ProbeTest;
}

/** The probe's price before it runs: its JVMs and their predicted time (the candidate's and partners' durations, plus a start each). */
export function probePrice(plans: readonly CandidateProbePlan[], jvmStartMs: number, concurrency: number): { jvms: number; pairs: number; predictedMs: number } {
  let work = 0;
  let jvms = 0;
  for (const p of plans) {
    for (const s of p.sequences) {
      jvms++;
      work += jvmStartMs + s.reduce((n, t) => n + t.durationMs, 0);
    }
  }
  return { jvms, pairs: plans.reduce((n, p) => n + p.partners.length, 0), predictedMs: Math.round(work / Math.max(1, Math.min(concurrency, jvms))) };
}

/** Runs the probe; never throws for a JVM's trouble (a step that did not run is said, never a finding). */
export async function runOrderProbe(input: ProbeInput, deps: ProbeDeps): Promise<{ perCandidate: Map<string, CandidateProbe>; summary: ProbeSummary }> {
  const bounds = input.bounds ?? DEFAULT_PROBE_BOUNDS;
  const started = deps.now();
  // Each candidate's share of the budget, with a margin for what the durations of the first pass do not predict.
  const share = { shareMs: (input.budgetMs * SHARE_MARGIN * Math.max(1, input.concurrency)) / Math.max(1, input.candidates.length), jvmStartMs: input.jvmStartMs };
  const plans = planProbe(input.candidates, input.pool, input.seed, bounds, share);
  const price = probePrice(plans, input.jvmStartMs, input.concurrency);
  const summary: ProbeSummary = { seed: input.seed, candidates: plans.length, pairs: price.pairs, jvms: 0, predictedMs: price.predictedMs, budgetMs: input.budgetMs, wallClockMs: 0, cut: false, cancelled: false, why: null };
  const perCandidate = new Map<string, CandidateProbe>();
  const base = (p: CandidateProbePlan): CandidateProbe => ({
    status: 'probed',
    why: null,
    seed: input.seed,
    partners: p.partners.length,
    partnersRun: 0,
    classPartnersLeftOut: p.classPartnersLeftOut,
    sampledClasses: p.sampledClasses.length,
    moduleClasses: p.moduleClasses,
    findings: [],
    notes: p.budgetLeftOut ? [`${p.budgetLeftOut} of its ${p.partners.length + p.budgetLeftOut} partners were left out to fit its share of the probe's budget (it takes ${formatMs(p.candidate.durationMs)} a run, and runs once beside each)`] : [],
  });
  for (const p of plans) perCandidate.set(p.candidate.testCaseId, p.partners.length ? base(p) : { ...base(p), status: 'not_run', why: 'no other test passed in its test task: nothing to run it beside' });
  const withPartners = plans.filter((p) => p.partners.length > 0);
  if (!withPartners.length) return { perCandidate, summary: { ...summary, why: NO_PARTNERS } };
  deps.err(
    `stress-gate: order probe: ${plural(withPartners.length, 'new test')}, each beside its class's other tests and ${plural(bounds.sampledClasses, 'sampled class', 'sampled classes')} (seed ${input.seed}): ` +
      `${plural(price.pairs, 'pair')} in ${plural(price.jvms, 'JVM')}, about ${seconds(price.predictedMs)}, within its budget of ${seconds(input.budgetMs)}\n`,
  );
  // Round 1: the shared JVMs.
  const sequences = withPartners.flatMap((p) => p.sequences);
  const owner = withPartners.flatMap((p) => p.sequences.map(() => p));
  const first = await deps.build.runInOrder(sequences, { concurrency: input.concurrency, deadlineMs: input.budgetMs, round: 'order-probe/shared', clear: 'order-probe', signal: input.signal });
  if (!first.ok) {
    for (const p of withPartners) perCandidate.set(p.candidate.testCaseId, { ...base(p), status: 'not_run', why: first.why });
    return { perCandidate, summary: { ...summary, why: first.why, wallClockMs: deps.now() - started } };
  }
  summary.jvms += first.jvms;
  const suspects: Suspect[] = [];
  withPartners.forEach((p, index) => {
    const probe = perCandidate.get(p.candidate.testCaseId)!;
    const runs = first.runs.filter((_, i) => owner[i] === p);
    const found = readShared(p, runs, bounds.partnersPerJvm);
    probe.partnersRun = found.partnersRun;
    probe.notes.push(...found.notes);
    if (found.killed) {
      probe.status = 'cut';
      probe.why = `its budget or the ceiling stopped it: ${found.partnersRun} of ${p.partners.length} partners ran`;
    }
    const mine = found.suspects.slice(0, bounds.suspectsPerCandidate);
    if (found.suspects.length > mine.length) probe.notes.push(`${found.suspects.length - mine.length} more pairs failed in shared JVMs and were not replayed (at most ${bounds.suspectsPerCandidate} a new test)`);
    suspects.push(...mine.map((s) => ({ ...s, candidate: index })));
  });
  // Round 2: each suspected pair replayed in fresh JVMs, and a suspected polluter's victim alone.
  if (suspects.length && !first.cancelled) {
    const replays: ProbeTest[][] = [];
    for (const s of suspects) {
      const c = withPartners[s.candidate]!.candidate;
      for (let k = 0; k < bounds.replays; k++) replays.push(s.role === 'victim' ? [s.other, c] : [c, s.other]);
      if (s.role === 'polluter') for (let k = 0; k < bounds.replays; k++) replays.push([s.other]);
    }
    const left = Math.max(0, input.budgetMs - (deps.now() - started));
    deps.logger.info({ pairs: suspects.length, jvms: replays.length }, 'order probe: replaying the pairs that failed in shared JVMs');
    // One JVM at a time: a replay confirms a pair, so no other JVM may share the machine's ports,
    // files or temp dirs with it. Side by side, a polluter's replay holding a fixed port made the
    // other test fail "alone" (a missed finding), and could fail another candidate's replay of the
    // same test (a false one): bench:detection's leaked-port archetype was caught 17 of 20 times.
    const second = left > 0 ? await deps.build.runInOrder(replays, { concurrency: 1, deadlineMs: left, round: 'order-probe/replays', signal: input.signal }) : null;
    if (second?.ok) summary.jvms += second.jvms;
    judgeSuspects(suspects, withPartners, second, bounds.replays, perCandidate);
    summary.cut ||= second === null || (second.ok && second.cut);
    summary.cancelled ||= second?.ok === true && second.cancelled;
  }
  summary.cut ||= first.cut;
  summary.cancelled ||= first.cancelled;
  summary.wallClockMs = deps.now() - started;
  return { perCandidate, summary };
}

/** Reads one candidate's shared JVMs (`C, p1, C, …, pk, C` each): partners covered, suspected pairs, what else failed. */
export function readShared(p: CandidateProbePlan, runs: readonly SequenceRun[], perJvm: number): { partnersRun: number; suspects: Omit<Suspect, 'candidate'>[]; notes: string[]; killed: boolean } {
  const suspects: Omit<Suspect, 'candidate'>[] = [];
  const notes: string[] = [];
  const notRun = new Map<string, string[]>();
  let partnersRun = 0;
  let killed = false;
  const ran = (s: StepResult | undefined) => s?.status === 'success' || s?.status === 'failure';
  runs.forEach((run, chunk) => {
    const partners = p.partners.slice(chunk * perJvm, (chunk + 1) * perJvm);
    killed ||= run.steps.some((s) => s.status === 'not_run' && s.killed);
    if (run.steps[0]?.status === 'failure') notes.push(`it failed first in a fresh JVM, before any other test (${run.dir}): a failure of its own, not of an order`);
    partners.forEach((other, j) => {
      const before = run.steps[2 * j];
      const mid = run.steps[2 * j + 1];
      const after = run.steps[2 * j + 2];
      if (ran(before) && ran(mid) && ran(after)) partnersRun++;
      if (mid?.status === 'failure') suspects.push({ role: 'polluter', other });
      // A victim changes from passing to failing across one partner (once it fails, the state it needs stays broken).
      if (after?.status === 'failure' && before?.status === 'success' && ran(mid)) suspects.push({ role: 'victim', other });
      if (mid?.status === 'not_run' && !mid.killed) notRun.set(mid.why, [...(notRun.get(mid.why) ?? []), name(other)]);
    });
  });
  // One line a cause, whatever the number of partners it kept out.
  for (const [why, names] of notRun) notes.push(`${names.length === 1 ? `${names[0]} did` : `${names.length} partners did`} not run beside it: ${why}${names.length > 1 ? ` (${names.slice(0, 3).join(', ')}${names.length > 3 ? ', …' : ''})` : ''}`);
  return { partnersRun, suspects, notes: dedupe(notes), killed };
}

function judgeSuspects(suspects: readonly Suspect[], plans: readonly CandidateProbePlan[], second: InOrderOutcome | null, replays: number, perCandidate: Map<string, CandidateProbe>): void {
  let at = 0;
  // Pairs that failed in a shared JVM and not in every fresh one: said once per candidate.
  const unconfirmed = new Map<CandidateProbe, string[]>();
  for (const s of suspects) {
    const probe = perCandidate.get(plans[s.candidate]!.candidate.testCaseId)!;
    const pairRuns = second?.ok ? second.runs.slice(at, at + replays) : [];
    at += replays;
    const aloneRuns = s.role === 'polluter' && second?.ok ? second.runs.slice(at, at + replays) : [];
    if (s.role === 'polluter') at += replays;
    const failing = pairRuns.map((r) => r.steps[1]).filter((x): x is Extract<StepResult, { status: 'failure' }> => x?.status === 'failure');
    const replayed = pairRuns.filter((r) => r.steps[0]?.status !== 'not_run' && r.steps[1]?.status !== 'not_run').length;
    const order = s.role === 'victim' ? `${name(s.other)} then it` : `it then ${name(s.other)}`;
    if (replayed < replays) {
      probe.notes.push(`${order} failed in a shared JVM and could not be replayed in fresh JVMs (${second === null ? 'no budget was left' : 'they were stopped'})`);
      if (probe.status === 'probed') {
        probe.status = 'cut';
        probe.why = 'its budget or the ceiling stopped the replays of a pair that failed';
      }
      continue;
    }
    if (failing.length < replays) {
      unconfirmed.set(probe, [...(unconfirmed.get(probe) ?? []), order]);
      continue;
    }
    let otherPassesAlone: boolean | null = null;
    if (s.role === 'polluter') {
      const alone = aloneRuns.map((r) => r.steps[0]?.status);
      otherPassesAlone = alone.length === replays && alone.every((x) => x === 'success');
      if (!otherPassesAlone) {
        probe.notes.push(`${name(s.other)} failed after this test, and also ${alone.filter((x) => x === 'failure').length ? 'failed' : 'did not pass'} alone in a fresh JVM: not this test's doing`);
        continue;
      }
    }
    if (probe.findings.some((f) => f.role === s.role && f.other.testCaseId === s.other.testCaseId)) continue;
    const last = failing[failing.length - 1]!;
    const lastDir = pairRuns.filter((r) => r.steps[1]?.status === 'failure').at(-1)!.dir;
    probe.findings.push({ role: s.role, other: s.other, otherPassesAlone, replays, replayFailures: failing.length, failure: last.failure, dir: lastDir });
  }
  for (const [probe, orders] of unconfirmed) {
    const shown = orders.slice(0, 3).join('; ');
    probe.notes.push(
      `${orders.length === 1 ? 'a pair' : `${orders.length} pairs`} failed in a shared JVM but not in every one of ${replays} fresh JVMs that ran exactly that pair (${shown}${orders.length > 3 ? '; …' : ''}): not reported, as ${orders.length === 1 ? 'it needs' : 'they need'} more than one other test before ${orders.length === 1 ? 'it' : 'them'}, or ${orders.length === 1 ? 'is' : 'are'} flaky on ${orders.length === 1 ? 'its' : 'their'} own`,
    );
  }
}

function name(t: ProbeTest): string {
  return `${t.suite.slice(t.suite.lastIndexOf('.') + 1)}.${t.name}`;
}

function dedupe(xs: string[]): string[] {
  return [...new Set(xs)];
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function formatMs(ms: number): string {
  return ms >= 1000 ? seconds(ms) : `${Math.round(ms)} ms`;
}

function seconds(ms: number): string {
  return ms >= 10_000 ? `${Math.round(ms / 1000)} s` : `${(ms / 1000).toFixed(1)} s`;
}
