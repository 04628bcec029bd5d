// One test case of the first pass, with its identity and where to find it again.
import type { TestCaseIdentity } from '#contract';
import type { XmlTestCase } from './junit-xml.js';

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
}

/** The XML cases of one Test task, in the order its reports were read. */
export interface TaskResults {
  task: string;
  module: string;
  cases: XmlTestCase[];
}

/** The key of an identity (module, suite, name), unambiguous for any strings. */
export function identityKey(id: TestCaseIdentity): string {
  return JSON.stringify([id.module, id.suite, id.name]);
}

/**
 * Gives every result a unique identity within its module, never merging two results: the first
 * occurrence of (module, suite, name), in task order (the module's `test` task first, then the
 * others by path) then document order, keeps the plain name; the n-th gets the suffix " [#n]". This covers a Parameterized name repeated within one
 * task and one class run by two Test tasks of one project (e.g. test and integrationTest).
 */
export function assignIdentities(tasks: readonly TaskResults[]): TestCaseResult[] {
  // A module's `test` task first, then the others by path: adding, say, integrationTest on a
  // branch must not rename the identities `test` already had (they would all look new).
  const rank = (t: TaskResults) => [t.module, t.task.endsWith(':test') || t.task === 'test' ? 0 : 1, t.task] as const;
  const ordered = [...tasks].sort((a, b) => {
    const [ma, ra, pa] = rank(a);
    const [mb, rb, pb] = rank(b);
    return ma < mb ? -1 : ma > mb ? 1 : ra - rb || (pa < pb ? -1 : pa > pb ? 1 : 0);
  });
  const seenInModule = new Map<string, number>();
  const used = new Set<string>();
  const results: TestCaseResult[] = [];
  for (const t of ordered) {
    const seenInTask = new Map<string, number>();
    for (const c of t.cases) {
      const plain = identityKey({ module: t.module, suite: c.suite, name: c.name });
      let n = seenInModule.get(plain) ?? 0;
      let name: string;
      // A real test may already be called "x [#2]": skip suffixes that are taken.
      do {
        n++;
        name = n === 1 ? c.name : `${c.name} [#${n}]`;
      } while (used.has(identityKey({ module: t.module, suite: c.suite, name })));
      seenInModule.set(plain, n);
      used.add(identityKey({ module: t.module, suite: c.suite, name }));
      const taskKey = JSON.stringify([c.suite, c.name]);
      const occurrence = (seenInTask.get(taskKey) ?? 0) + 1;
      seenInTask.set(taskKey, occurrence);
      results.push({
        module: t.module,
        suite: c.suite,
        name,
        status: c.status,
        durationMs: c.durationMs,
        task: t.task,
        xmlName: c.name,
        occurrence,
      });
    }
  }
  return results;
}
