// One test case of the first pass, with its identity and where to find it again.
import type { TestCaseIdentity } from '#contract';
import type { XmlExecution, XmlTestCase } from './junit-xml.js';


/** A test case that ran in the first pass. `name` is the (possibly disambiguated) identity name. */
export interface TestCaseResult extends TestCaseIdentity {
  status: 'success' | 'failure' | 'skipped';
  durationMs: number;
  /** The Test task that ran it, e.g. ":app:test". */
  task: string;
  /** The name as the XML says it: what the stress pass filters on. */
  xmlName: string;
  /** 1-based index among the task's results with the same suite and xmlName (document order). */
  occurrence: number;
  /** The build's own retries of it (organic repetitions), in order; absent when it ran once. */
  executions?: XmlExecution[];
  /** Its JUnit Platform unique ID, when the platform ran it and the listener saw it. */
  uniqueId?: string;
}

/** The XML cases of one Test task, in the order its reports were read. */
export interface TaskResults {
  task: string;
  module: string;
  /**
   * `identityName`: the name the JUnit Platform gives a case whose XML name differs (a display
   * name); `uniqueId`: its JUnit Platform unique ID, when known.
   */
  cases: (XmlTestCase & { identityName?: string; uniqueId?: string })[];
}

/**
 * The identity's module for a result of `task`: the project path for the module's `test` task,
 * the task path (e.g. ":app:integrationTest") for any other Test task. It depends on the task's
 * name only, never on which tasks ran, so adding a Test task renames nothing that existed.
 */
export function identityModule(task: string, module: string): string {
  const prefix = module === ':' ? ':' : `${module}:`;
  const name = task.startsWith(prefix) ? task.slice(prefix.length) : task;
  return name === 'test' ? module : task;
}

/**
 * Gives every result a unique identity, never merging two results. Its module is
 * `identityModule(task, module)`; the n-th occurrence (n > 1, in document order) of a name
 * within one task's reports gets the suffix " [#n]" (a Parameterized name repeated). Retries
 * are not occurrences: the reader already folded them into one case. Tasks are taken by path,
 * so the rare clash of two tasks on one identity module (a root task ":x" and the `test` task of
 * a project ":x") is also settled by " [#n]", in task-path order.
 */
export function assignIdentities(tasks: readonly TaskResults[]): TestCaseResult[] {
  const ordered = [...tasks].sort((a, b) => (a.task < b.task ? -1 : a.task > b.task ? 1 : 0));
  // Per identity module, per suite: how many times each base name was given (for " [#n]"), and
  // every name given. Nested by part rather than keyed by a joined string: 50,000 results cost
  // about 3x less. A task's reports hold a class's cases together, so the last suite is kept at hand.
  const modules = new Map<string, Map<string, { seen: Map<string, number>; used: Set<string> }>>();
  const results: TestCaseResult[] = [];
  for (const t of ordered) {
    const module = identityModule(t.task, t.module);
    const suites = modules.get(module) ?? modules.set(module, new Map()).get(module)!;
    // Per suite of this task: how many times each XML name occurred so far.
    const inTask = new Map<string, Map<string, number>>();
    let lastSuite: string | undefined;
    let names: { seen: Map<string, number>; used: Set<string> } | undefined;
    let occurrences: Map<string, number> | undefined;
    for (const c of t.cases) {
      if (c.suite !== lastSuite || !names || !occurrences) {
        lastSuite = c.suite;
        names = suites.get(c.suite) ?? suites.set(c.suite, { seen: new Map(), used: new Set() }).get(c.suite)!;
        occurrences = inTask.get(c.suite) ?? inTask.set(c.suite, new Map()).get(c.suite)!;
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
      const occurrence = (occurrences.get(c.name) ?? 0) + 1;
      occurrences.set(c.name, occurrence);
      results.push({
        module,
        suite: c.suite,
        name,
        status: c.status,
        durationMs: c.durationMs,
        ...(c.executions ? { executions: c.executions } : {}),
        ...(c.uniqueId ? { uniqueId: c.uniqueId } : {}),
        task: t.task,
        xmlName: c.name,
        occurrence,
      });
    }
  }
  return results;
}
