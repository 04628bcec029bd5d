// What the direct executor runs in one repetition JVM, whatever build tool ran the first pass: the
// test JVM to start again (as the build started it) and how its runner selects exactly the
// candidates of that JVM: one, or every new invocation of one parameterised method, in order.
import type { GateCandidate } from '../candidates/gate-candidate.js';
import type { ForkConfig } from './runner-log.js';

/** How the build started its test JVM: everything a fresh one needs to be the same. */
export interface JvmSpec {
  java: string;
  /** Every JVM argument the build gave (heap, agents, -D properties…), no class path, no main class. */
  jvmArgs: string[];
  /** The test runtime class path (the runner jar is added at the end). */
  classpath: string[];
  workingDir: string;
  /** The whole environment (null: unset). */
  environment: Record<string, string | null>;
  /** System properties the runner sets before any test class loads (as Surefire's booter does). */
  systemProperties: Record<string, string>;
}

/** How the runner selects one test: the framework the build ran it with. */
export type Selection =
  | { kind: 'junit4'; className: string; name: string }
  | { kind: 'testng'; className: string; name: string; method: string; invocation: number }
  | { kind: 'platform'; uniqueId: string };

/** One candidate of a target: how the runner selects it, and which of the selection's results is its. */
export interface TargetMember {
  candidate: GateCandidate;
  selection: Selection;
  /** Which of the selection's results is the candidate's (a Parameterized name repeated: 2 for the second). */
  occurrence: number;
}

/** The candidates one repetition JVM runs, and how that JVM starts. */
export interface StressTarget {
  /** One candidate, or every new invocation of one method (candidate.group), in the build's order; one selection kind. */
  members: TargetMember[];
  jvm: JvmSpec;
  /** JVMs with the same key share one class archive and class path layout (a Test task, a Surefire fork). */
  jvmKey: string;
  /** The JUnit Platform's configuration parameters (platform selections only). */
  configurationParameters: Record<string, string>;
  /** The build's test JVM as seen from inside it in the first pass, when the gate saw it: what a repetition is compared with. */
  observed?: ForkConfig;
}

/** A target of one candidate. */
export function singleTarget(member: TargetMember, jvm: JvmSpec, jvmKey: string, extra: Pick<StressTarget, 'configurationParameters' | 'observed'>): StressTarget {
  return { members: [member], jvm, jvmKey, ...extra };
}

/** JVMs a target starts: its candidates' repetitions (a group's members share one price). */
export const targetRepetitions = (t: StressTarget): number => Math.max(0, ...t.members.map((m) => m.candidate.repetitions ?? 0));

/** Pure: whether a runner result is the selection's (JUnit 4, TestNG: class and name; platform: unique ID). */
export function selects(selection: Selection, r: { className: string; name: string; uniqueId: string | null }): boolean {
  return selection.kind === 'platform' ? r.uniqueId === selection.uniqueId : r.className === selection.className && r.name === selection.name;
}

/** The selector as the runner names it in an `unrunnable` line: the unique ID, or the request's `test` fields joined by tabs. */
export function selectorText(selection: Selection): string {
  switch (selection.kind) {
    case 'platform':
      return selection.uniqueId;
    case 'junit4':
      return `${selection.className}\t${selection.name}`;
    case 'testng':
      return [selection.className, selection.name, selection.method, String(selection.invocation)].join('\t');
  }
}

/**
 * Pure: single-candidate targets whose candidates share a group (every new invocation of one
 * method) and a JVM become one target, members in the order given. The first invocation runs
 * first in a fresh JVM, the others after it, as the build ran them.
 */
export function groupTargets(targets: readonly StressTarget[]): StressTarget[] {
  const out: StressTarget[] = [];
  const byGroup = new Map<string, StressTarget>();
  for (const t of targets) {
    const m = t.members[0];
    const group = t.members.length === 1 ? m?.candidate.group : undefined;
    if (!m || group === undefined) {
      out.push(t);
      continue;
    }
    const key = JSON.stringify([t.jvmKey, m.selection.kind, group]);
    const into = byGroup.get(key);
    if (into) into.members.push(m);
    else {
      const copy = { ...t, members: [m] };
      byGroup.set(key, copy);
      out.push(copy);
    }
  }
  return out;
}
