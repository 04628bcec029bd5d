// Where a Gradle build ran a first-pass case, as the Gradle adapter finds it again: its Test task,
// which occurrence of its XML name in that task's reports, and (for a JUnit Platform test) the
// task's test JVM configuration as the listener reported it. The core hands it back untouched
// (first-pass/test-case-result.ts: CaseSource).
import type { CaseSource, UnitResults } from '../first-pass/test-case-result.js';
import { occurrences, ownLocator } from '../first-pass/test-case-result.js';
import type { TaskResults } from '../first-pass/read-results.js';
import type { ForkConfig } from '../jvm/runner-log.js';

/** A Gradle case's locator. */
export class GradleLocator {
  constructor(
    /** The Test task that ran it, e.g. ":app:test". */
    readonly task: string,
    /** 1-based index among the task's results with the same suite and XML name (document order). */
    readonly occurrence: number,
    /** The task's test JVM configuration, for a JUnit Platform test the listener saw. */
    readonly platform?: ForkConfig,
  ) {}

  /** What the JSON report and the log say of it: never the test JVM's configuration (its environment holds a CI job's secrets). */
  toJSON(): { task: string; occurrence: number } {
    return { task: this.task, occurrence: this.occurrence };
  }
}

/** The Gradle locator of a case's source (a Gradle first pass's, never another adapter's). */
export function gradleLocator(source: CaseSource): GradleLocator {
  return ownLocator(source, GradleLocator, 'Gradle');
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

/** Pure: each Test task's results as a unit of the first pass (named by its path), every case with its locator. */
export function gradleUnits(tasks: readonly TaskResults[], platformConfig: ReadonlyMap<string, ForkConfig>): UnitResults[] {
  return tasks.map((t) => {
    const platform = platformConfig.get(t.task);
    const nth = occurrences(t.cases);
    return {
      unit: t.task,
      module: identityModule(t.task, t.module),
      cases: t.cases,
      locators: t.cases.map((c, i) => new GradleLocator(t.task, nth[i]!, c.uniqueId ? platform : undefined)),
    };
  });
}
