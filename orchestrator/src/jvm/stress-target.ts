// One candidate as the direct executor runs it, whatever build tool ran the first pass: the
// test JVM to start again (as the build started it) and how its runner selects exactly this test.
import type { GateCandidate } from '../candidates/gate-candidate.js';

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

/** How the runner selects the test: the framework the build ran it with. */
export type Selection =
  | { kind: 'junit4'; className: string; name: string }
  | { kind: 'testng'; className: string; name: string; method: string; invocation: number }
  | { kind: 'platform'; uniqueId: string; configurationParameters: Record<string, string> };

/** A candidate the direct executor can run. */
export interface StressTarget {
  candidate: GateCandidate;
  jvm: JvmSpec;
  /** JVMs with the same key share one JDK class archive (a Test task, a Surefire fork). */
  jvmKey: string;
  selection: Selection;
  /** Which of the selection's results is the candidate's (a Parameterized name repeated: 2 for the second). */
  occurrence: number;
}

/** Pure: whether a runner result is the selection's (JUnit 4, TestNG: class and name; platform: unique ID). */
export function selects(selection: Selection, r: { className: string; name: string; uniqueId: string | null }): boolean {
  return selection.kind === 'platform' ? r.uniqueId === selection.uniqueId : r.className === selection.className && r.name === selection.name;
}
