// One test case of the first pass, with its identity and where its build ran it.
import type { TestCaseIdentity } from '#contract';
import type { XmlExecution, XmlTestCase } from './junit-xml.js';


/**
 * Where the build ran a case. The core reads `unit`, `xmlName` and `uniqueId`; `locator` is the
 * build adapter's own, opaque to the core: all its stress pass needs to find the case again (a
 * Gradle task and occurrence, a Maven fork), handed back with the candidate, never looked into.
 */
export interface CaseSource {
  /**
   * The run of the build that ran it, as its adapter names it (Gradle: the Test task's path;
   * Maven: the module's test or integration-test phase). The core only compares units: tests of
   * one unit share its JVM settings and class path (the order probe's partners, the new
   * invocations of one parameterised method).
   */
  unit: string;
  /** The name as the build reported it: what says which parameterised method an invocation belongs to. */
  xmlName: string;
  /** Its JUnit Platform unique ID, when the platform ran it and the listener saw it. */
  uniqueId?: string | undefined;
  /**
   * The adapter's: opaque to the core. It may hold what must never be written out (a fork's
   * environment), so each adapter's locator says what JSON may carry of it (`toJSON`).
   */
  locator: unknown;
}

/** A test case that ran in the first pass. `name` is the (possibly disambiguated) identity name. */
export interface TestCaseResult extends TestCaseIdentity {
  status: 'success' | 'failure' | 'skipped';
  durationMs: number;
  /** The build's own retries of it (organic repetitions), in order; absent when it ran once. */
  executions?: XmlExecution[];
  source: CaseSource;
}

/**
 * A case as an adapter read it. `identityName`: the name the JUnit Platform gives a case whose
 * XML name differs (a display name); `uniqueId`: its JUnit Platform unique ID, when known.
 */
export type UnitCase = XmlTestCase & { identityName?: string; uniqueId?: string };

/** The source's locator when it is of `kind` (its adapter's own); an error naming `adapter` when another adapter made it. */
export function ownLocator<T>(source: CaseSource, kind: new (...args: never[]) => T, adapter: string): T {
  if (source.locator instanceof kind) return source.locator;
  throw new Error(`the test of ${source.unit} was not found by the ${adapter} adapter's first pass`);
}

/** The cases of one unit of the build, in the order its reports were read. */
export interface UnitResults {
  unit: string;
  /** The identity module of its cases, as its adapter names it (never from which units ran). */
  module: string;
  cases: readonly UnitCase[];
  /** The adapter's locator of each case, index for index (no copy of 50,000 cases to attach them). */
  locators: readonly unknown[];
}

/** Pure: each case's 1-based occurrence among the cases before it with its suite and name (a repeated Parameterized name), in order. */
export function occurrences(cases: readonly { suite: string; name: string }[]): number[] {
  const seen = new Map<string, Map<string, number>>();
  return cases.map((c) => {
    const names = seen.get(c.suite) ?? seen.set(c.suite, new Map()).get(c.suite)!;
    const n = (names.get(c.name) ?? 0) + 1;
    names.set(c.name, n);
    return n;
  });
}

/**
 * Gives every result a unique identity, never merging two results. Its module is its unit's; the
 * n-th occurrence (n > 1, in document order) of a name within one unit's reports gets the suffix
 * " [#n]" (a Parameterized name repeated). Retries are not occurrences: the reader already folded
 * them into one case. Units are taken by name, so the rare clash of two units on one identity
 * module (a Gradle root task ":x" and the `test` task of a project ":x") is also settled by
 * " [#n]", in unit order.
 */
export function assignIdentities(units: readonly UnitResults[]): TestCaseResult[] {
  const ordered = [...units].sort((a, b) => (a.unit < b.unit ? -1 : a.unit > b.unit ? 1 : 0));
  // Per identity module, per suite: how many times each base name was given (for " [#n]"), and
  // every name given. Nested by part rather than keyed by a joined string: 50,000 results cost
  // about 3x less. A unit's reports hold a class's cases together, so the last suite is kept at hand.
  const modules = new Map<string, Map<string, { seen: Map<string, number>; used: Set<string> }>>();
  const results: TestCaseResult[] = [];
  for (const t of ordered) {
    const { module } = t;
    const suites = modules.get(module) ?? modules.set(module, new Map()).get(module)!;
    let lastSuite: string | undefined;
    let names: { seen: Map<string, number>; used: Set<string> } | undefined;
    for (let i = 0; i < t.cases.length; i++) {
      const c = t.cases[i]!;
      if (c.suite !== lastSuite || !names) {
        lastSuite = c.suite;
        names = suites.get(c.suite) ?? suites.set(c.suite, { seen: new Map(), used: new Set() }).get(c.suite)!;
      }
      const base = c.identityName ?? c.name;
      let n = (names.seen.get(base) ?? 0) + 1;
      let name = n === 1 ? base : `${base} [#${n}]`;
      // A real test may already be called "x [#2]": skip suffixes that are taken.
      while (names.used.has(name)) {
        n++;
        name = `${base} [#${n}]`;
      }
      names.seen.set(base, n);
      names.used.add(name);
      results.push({
        module,
        suite: c.suite,
        name,
        status: c.status,
        durationMs: c.durationMs,
        ...(c.executions ? { executions: c.executions } : {}),
        // One shape for every source (uniqueId present, undefined when unknown): 50,000 of them in a few ms.
        source: { unit: t.unit, xmlName: c.name, uniqueId: c.uniqueId, locator: t.locators[i] },
      });
    }
  }
  return results;
}
