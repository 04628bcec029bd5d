// Pure: the report's candidate list, one line a candidate, except the new invocations of one
// method stressed together (candidate.group): one line for the method, with its invocation count
// and the invocations that failed. The JSON report keeps every invocation.
import type { CandidateResult } from '../enforce/outcome.js';
import { invocationMethod } from '../candidates/invocation-groups.js';
import { formatDuration, formatLimit, plural } from '../format/format.js';
import type { GateReport } from './gate-report.js';

/** One line of the list. */
export interface ReportRow {
  label: string;
  repetitions: string;
  outcome: string;
  /** The candidate (a group's first invocation). */
  candidate: CandidateResult;
  /** A group's invocations, in index order; absent for one candidate. */
  invocations?: CandidateResult[];
  /** Repetitions recorded and expected, and failed ones (a group's: summed over its invocations). */
  recorded: number;
  expected: number;
  failures: number;
}

/** The rows, in the candidates' order (a group where its first invocation is). */
export function reportRows(r: GateReport): ReportRow[] {
  const labels = candidateLabels(r.candidates);
  const groups = new Map<string, number[]>();
  r.candidates.forEach((c, i) => {
    if (c.group !== undefined) groups.set(c.group, [...(groups.get(c.group) ?? []), i]);
  });
  const rows: ReportRow[] = [];
  r.candidates.forEach((c, i) => {
    const members = c.group !== undefined ? groups.get(c.group)! : [i];
    if (members.length < 2) {
      rows.push({ label: labels[i]! + originWords(c), ...outcomeWords(c, r), candidate: c, recorded: c.recorded.length, expected: c.expected, failures: c.failures });
    } else if (members[0] === i) {
      const invocations = members.map((m) => r.candidates[m]!).sort((a, b) => byIndex(a.name, b.name));
      const method = invocationMethod(c.source?.xmlName ?? c.name) ?? c.name;
      const label = labels[i]!.slice(0, labels[i]!.length - c.name.length) + method + groupOriginWords(invocations);
      rows.push({ label, ...groupWords(invocations, r), candidate: c, invocations, ...sums(invocations) });
    }
  });
  return rows;
}

/** Why a candidate that is not simply new is one: " — modified", " — new (from the diff)". */
export function originWords(c: Pick<CandidateResult, 'origin'>): string {
  return c.origin === 'modified' ? ' — modified' : c.origin === 'diff' ? ' — new (from the diff)' : '';
}

/** A method's invocations' origins in one: " — modified" when all were, " — new and modified" for a mix (a row added to a modified parameter source). */
function groupOriginWords(invocations: readonly CandidateResult[]): string {
  const words = new Set(invocations.map((c) => originWords(c)));
  if (words.size === 1) return [...words][0]!;
  return words.has(' — modified') ? ' — new and modified' : originWords(invocations[0]!);
}

/** ":app CheckoutTest.appliesDiscount": the simple class name unless two candidates of a module share it. */
export function candidateLabels(candidates: readonly CandidateResult[]): string[] {
  const names = classAndName(candidates);
  return candidates.map((c, i) => (c.module === ':' ? names[i]! : `${c.module} ${names[i]}`));
}

/** "CheckoutTest.appliesDiscount", or "com.shop.CheckoutTest.appliesDiscount" when two classes of a module share the simple name. */
export function classAndName(candidates: readonly CandidateResult[]): string[] {
  const simple = (s: string) => s.slice(s.lastIndexOf('.') + 1);
  const owners = new Map<string, Set<string>>();
  for (const c of candidates) {
    const key = `${c.module} ${simple(c.suite)}`;
    owners.set(key, (owners.get(key) ?? new Set()).add(c.suite));
  }
  return candidates.map((c) => `${owners.get(`${c.module} ${simple(c.suite)}`)!.size > 1 ? c.suite : simple(c.suite)}.${c.name}`);
}

function outcomeWords(c: CandidateResult, r: GateReport): { repetitions: string; outcome: string } {
  const ran = c.recorded.length;
  const repetitions = c.outcome === 'excluded' ? formatDuration(c.durationMs) : ran < c.expected ? `${ran} of ${plural(c.expected, 'repetition')}` : plural(c.expected, 'repetition');
  switch (c.outcome) {
    case 'excluded':
      return { repetitions, outcome: `excluded (${r.slowLimitMs ? `slower than ${formatLimit(r.slowLimitMs)}` : 'too slow'})` };
    case 'passed':
      return { repetitions, outcome: `passed${c.timingSensitive ? ` alone, ${timingWords(c)}` : ''}${c.muted ? ' (muted)' : ''}` };
    case 'failed':
      if (c.failedInBuild === 'flaky') return { repetitions, outcome: `failed in the build, passed ${ran - c.failures} of ${ran}: flaky` };
      if (c.failedInBuild === 'broken') return { repetitions, outcome: 'failed in the build and every time: broken' };
      return { repetitions, outcome: `${c.failures} failed${c.timingSensitive ? ' side by side (passed alone: timing-sensitive)' : ''}${c.crashed ? ` (${crashWords(c.crashed)})` : ''}${c.muted ? ' (muted: cannot fail the gate)' : ''}` };
    case 'order_dependent':
      return { repetitions, outcome: `passed, but order-dependent: ${orderWords(c)}${c.muted ? ' (muted)' : ''}` };
    case 'not_stressed':
      return { repetitions, outcome: `not stressed (${c.why})` };
    case 'error':
      return { repetitions, outcome: `not stressed (gate error: ${c.why})` };
  }
}

/** "fails after OrderTest.leavesState; breaks LedgerTest.sums". */
export function orderWords(c: CandidateResult): string {
  const simple = (s: string) => s.slice(s.lastIndexOf('.') + 1);
  return (c.orderProbe?.findings ?? []).map((f) => `${f.role === 'victim' ? 'fails after' : 'breaks'} ${simple(f.other.suite)}.${f.other.name}`).join('; ');
}

/** "failed 2 of 10 side by side: timing-sensitive". */
export function timingWords(c: CandidateResult): string {
  const t = c.timingSensitive!;
  return `failed ${t.failures} of ${t.repetitions} side by side: timing-sensitive`;
}

/** A group's line: "100 invocations, 10 repetitions each", and what its invocations came to. */
function groupWords(invocations: readonly CandidateResult[], r: GateReport): { repetitions: string; outcome: string } {
  const expected = Math.max(...invocations.map((c) => c.expected));
  const repetitions = `${invocations.length} invocations, ${plural(expected, 'repetition')} each`;
  const index = (c: CandidateResult) => c.name.slice(c.name.indexOf('['));
  const of = (o: CandidateResult['outcome']) => invocations.filter((c) => c.outcome === o);
  const parts: string[] = [];
  const failed = of('failed');
  if (failed.length) parts.push(`${failed.length} failed: ${failed.map((c) => `${index(c)} ${c.failures} of ${c.recorded.length}`).join(', ')}${failed.some((c) => c.muted) ? ' (muted ones cannot fail the gate)' : ''}`);
  const timing = of('passed').filter((c) => c.timingSensitive);
  if (timing.length) parts.push(`${timing.length} timing-sensitive (failed side by side, passed alone): ${timing.map(index).join(', ')}`);
  const order = of('order_dependent');
  if (order.length) parts.push(`${order.length} order-dependent: ${order.map((c) => `${index(c)} ${orderWords(c)}`).join(', ')}`);
  const passed = of('passed').length;
  if (passed) parts.push(passed === invocations.length ? 'passed' : `${passed} passed`);
  for (const o of ['not_stressed', 'error'] as const) {
    const these = of(o);
    if (!these.length) continue;
    const whys = [...new Set(these.map((c) => c.why))];
    parts.push(`${these.length} not stressed (${o === 'error' ? 'gate error: ' : ''}${whys.length === 1 ? whys[0] : `${whys[0]}, and other reasons`})`);
  }
  if (of('excluded').length) parts.push(`${of('excluded').length} excluded (${r.slowLimitMs ? `slower than ${formatLimit(r.slowLimitMs)}` : 'too slow'})`);
  return { repetitions, outcome: parts.join('; ') };
}

function sums(invocations: readonly CandidateResult[]): Pick<ReportRow, 'recorded' | 'expected' | 'failures'> {
  return invocations.reduce((s, c) => ({ recorded: s.recorded + c.recorded.length, expected: s.expected + c.expected, failures: s.failures + c.failures }), { recorded: 0, expected: 0, failures: 0 });
}

/** Invocation names in index order: `adds[2]` before `adds[10]`. */
function byIndex(a: string, b: string): number {
  const n = (s: string) => (/\[(\d+)/.exec(s.slice(s.indexOf('[')))?.[1] ?? '');
  return Number(n(a)) - Number(n(b)) || (a < b ? -1 : a > b ? 1 : 0);
}

function crashWords(n: number): string {
  return n === 1 ? 'its JVM died once' : `its JVM died ${n} times`;
}
