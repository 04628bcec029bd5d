// The new invocations of one parameterised method (a JUnit 5 @ParameterizedTest, a JUnit 4
// Parameterized class, a TestNG data provider), when the gate stressed two or more of them in a
// run, are one line on the run page and in the run report, as in the CLI's own report: the method,
// its invocation count, the invocations that failed, the other outcomes counted. Each failing
// invocation keeps its own evidence. A merge request that adds 100 invocations gets one line, not
// 100. The method is read from the names (GateCandidate.method, set by run-page.ts). Pure.
import { cut } from '../contract-markdown.js';
import type { FlakyFinding, GateCandidate, RunPage } from './run-page.js';

/** Two or more invocations of one method in one run's gate. */
export interface InvocationGroup {
  module: string;
  suite: string;
  method: string;
  /** In index order: `adds[2]` before `adds[10]`. */
  invocations: GateCandidate[];
}

/** A line of the gate's candidates: one candidate, or one method's invocations. */
export type GateRow = { candidate: GateCandidate; group?: undefined } | { group: InvocationGroup; candidate?: undefined };
/** A line of the flaky section: one test, or the method whose invocations the gate caught. */
export type FlakyRow = { finding: FlakyFinding; group?: undefined } | { group: InvocationGroup; finding?: undefined };

/** Failing invocations a group's line names; the others are counted ("and 3 more"). */
export const MAX_INVOCATIONS_NAMED = 10;
/** Characters of an invocation's index (`[2: 1+1]`) a group's line shows. */
const INDEX_CHARS = 40;

const keyOf = (module: string, suite: string, method: string) => JSON.stringify([module, suite, method]);

/** The invocation groups of `candidates`, by module, suite and method. */
export function invocationGroups(candidates: readonly GateCandidate[]): Map<string, InvocationGroup> {
  const groups = new Map<string, InvocationGroup>();
  for (const c of candidates) {
    if (c.method === null) continue;
    const key = keyOf(c.module, c.suite, c.method);
    const g = groups.get(key) ?? { module: c.module, suite: c.suite, method: c.method, invocations: [] };
    g.invocations.push(c);
    groups.set(key, g);
  }
  for (const g of groups.values()) g.invocations.sort((a, b) => byIndex(a.name, b.name));
  return groups;
}

/** The gate's candidates as lines, in their order: a method's invocations are one line where its first one is. */
export function gateRows(candidates: readonly GateCandidate[]): GateRow[] {
  const groups = invocationGroups(candidates);
  const shown = new Set<string>();
  const rows: GateRow[] = [];
  for (const c of candidates) {
    const key = c.method === null ? null : keyOf(c.module, c.suite, c.method);
    const group = key === null ? undefined : groups.get(key);
    if (!group || group.invocations.length < 2) rows.push({ candidate: c });
    else if (!shown.has(key!)) {
      shown.add(key!);
      rows.push({ group });
    }
  }
  return rows;
}

/** The flaky section as lines, in its order: the gate's findings among a method's invocations are that method's one line. */
export function flakyRows(page: Pick<RunPage, 'flaky' | 'gate'>): FlakyRow[] {
  const candidates = page.gate?.candidates ?? [];
  const groups = invocationGroups(candidates);
  const methodOf = new Map(candidates.filter((c) => c.method !== null).map((c) => [JSON.stringify([c.module, c.suite, c.name]), c.method!]));
  const shown = new Set<string>();
  const rows: FlakyRow[] = [];
  for (const f of page.flaky) {
    const method = f.caughtBy === 'stress_gate' ? methodOf.get(JSON.stringify([f.module, f.suite, f.name])) : undefined;
    const key = method === undefined ? null : keyOf(f.module, f.suite, method);
    const group = key === null ? undefined : groups.get(key);
    if (!group) rows.push({ finding: f });
    else if (!shown.has(key!)) {
      shown.add(key!);
      rows.push({ group });
    }
  }
  return rows;
}

/** An invocation's index as a group's line shows it: `[37]` of `adds(int)[37]`, cut to 40 characters. */
export function invocationIndex(c: Pick<GateCandidate, 'name'>, method: string): string {
  return cut(c.name.slice(method.length), INDEX_CHARS);
}

/** Whether an invocation failed: a failed repetition in its strip, or counted failed (a timing-sensitive test under the blocking setting). */
export const invocationFailed = (c: GateCandidate): boolean => c.outcome === 'failed' || c.repetitions.some((r) => r.status === 'failure');

/**
 * A group's line after its method: "100 invocations, 10 repetitions each, 2 failed: [37] 3 of 10,
 * [81] 1 of 10; 98 passed". `index` formats an invocation's index (a code span in Markdown).
 */
export function groupLine(g: InvocationGroup, index: (text: string) => string): string {
  const inv = g.invocations;
  const most = Math.max(0, ...inv.map((c) => c.repetitions.length));
  const head = `${inv.length} invocations${most > 0 ? `, ${plural(most, 'repetition')} each` : ''}`;
  const parts: string[] = [];
  const failed = inv.filter(invocationFailed);
  if (failed.length > 0) {
    const named = failed.slice(0, MAX_INVOCATIONS_NAMED).map((c) => `${index(invocationIndex(c, g.method))} ${failedWords(c)}`);
    const more = failed.length - named.length;
    const muted = failed.some((c) => c.muted) ? ' (muted ones cannot fail the gate)' : '';
    parts.push(`${failed.length} failed: ${named.join(', ')}${more > 0 ? `, and ${more} more` : ''}${muted}`);
  }
  const rest = inv.filter((c) => !invocationFailed(c));
  const timing = rest.filter((c) => c.timingSensitive !== null);
  if (timing.length > 0) {
    const named = timing.slice(0, MAX_INVOCATIONS_NAMED).map((c) => index(invocationIndex(c, g.method)));
    const more = timing.length - named.length;
    parts.push(`${timing.length} timing-sensitive (failed side by side, passed alone; not blocking): ${named.join(', ')}${more > 0 ? `, and ${more} more` : ''}`);
  }
  const ordered = rest.filter((c) => c.outcome === 'order_dependent');
  if (ordered.length > 0) {
    const named = ordered.slice(0, MAX_INVOCATIONS_NAMED).map((c) => index(invocationIndex(c, g.method)));
    const more = ordered.length - named.length;
    parts.push(`${ordered.length} order-dependent (passed alone, failed or made another test fail in a shared JVM): ${named.join(', ')}${more > 0 ? `, and ${more} more` : ''}`);
  }
  const passed = rest.filter((c) => c.outcome === 'passed' && c.timingSensitive === null).length;
  if (passed > 0) parts.push(passed === inv.length ? 'passed' : `${passed} passed`);
  const notStressed = rest.filter((c) => c.outcome === 'not_stressed').length;
  if (notStressed > 0) parts.push(`${notStressed} not stressed`);
  const errors = rest.filter((c) => c.outcome === 'error').length;
  if (errors > 0) parts.push(`${errors} not stressed (gate error)`);
  return `${head}${parts.length ? `, ${parts.join('; ')}` : ''}`;
}

/** "3 of 10", or for a timing-sensitive invocation "2 of 10 side by side". */
function failedWords(c: GateCandidate): string {
  const stripFailed = c.repetitions.filter((r) => r.status === 'failure').length;
  if (stripFailed === 0 && c.timingSensitive !== null) return `${c.timingSensitive.failures} of ${c.timingSensitive.repetitions} side by side`;
  return `${stripFailed} of ${c.repetitions.length}`;
}

/** "1 repetition", "10 repetitions". */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Invocation names in index order: `adds[2]` before `adds[10]`, then by name. */
function byIndex(a: string, b: string): number {
  const n = (s: string) => Number(/\[(\d+)/.exec(s.slice(s.indexOf('[')))?.[1] ?? Number.NaN);
  const d = n(a) - n(b);
  return Number.isNaN(d) || d === 0 ? (a < b ? -1 : a > b ? 1 : 0) : d;
}
