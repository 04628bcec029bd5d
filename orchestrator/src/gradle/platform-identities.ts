// JUnit Platform identities under Gradle, named as under Maven. When a Test task runs the JUnit
// Platform, the plugin puts the stress gate's listener (the runner jar) into its test JVMs, which
// write `<manifest>.platform/<task>/*.jsonl` (jvm/runner-log.ts). A test's identity name then
// comes from its legacy reporting name (`adds`, `adds(int)[3]`, `greetsEach()[2]`) and its class,
// not from the display name Gradle's XML may carry; the XML name is kept as the name the Gradle
// executor filters on and finds results by, and the unique ID is what the direct executor selects.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { XmlTestCase } from '../first-pass/junit-xml.js';
import type { TaskResults } from '../first-pass/read-results.js';
import { identityName, parseRunnerLog, platformCases, platformResults, type ForkConfig, type PlatformResult } from '../jvm/runner-log.js';

/** `/x/manifest.json` → `/x/manifest.platform`, as the plugin names it. */
export function platformLogDir(manifest: string): string {
  return `${manifest.endsWith('.json') ? manifest.slice(0, -5) : manifest}.platform`;
}

/** A task's folder in it: ':app:test' → 'app_test', as the plugin names it. */
export function taskLogDirName(taskPath: string): string {
  return (taskPath.startsWith(':') ? taskPath.slice(1) : taskPath).replaceAll(':', '_');
}

/** What the platform logs say: results and a test JVM's configuration per task, and notes about malformed lines. */
export interface PlatformLogs {
  byTask: Map<string, PlatformResult[]>;
  /** The first test JVM's configuration of each task (its JUnit configuration parameters, its launcher). */
  configByTask: Map<string, ForkConfig>;
  notes: string[];
}

/** The platform results of each task that has a log folder. */
export async function readPlatformResults(manifest: string, taskPaths: readonly string[]): Promise<PlatformLogs> {
  const byTask = new Map<string, PlatformResult[]>();
  const configByTask = new Map<string, ForkConfig>();
  const notes: string[] = [];
  const root = platformLogDir(manifest);
  for (const task of taskPaths) {
    const dir = path.join(root, taskLogDirName(task));
    const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.jsonl')).sort();
    for (const n of names) {
      const log = parseRunnerLog(await readFile(path.join(dir, n), 'utf8'), path.join(dir, n));
      if (log.malformed) notes.push(`${log.file}: ${log.malformed} malformed line(s) ignored.`);
      byTask.set(task, [...(byTask.get(task) ?? []), ...platformResults(log.finished)]);
      if (log.config && !configByTask.has(task)) configByTask.set(task, log.config);
    }
  }
  return { byTask, configByTask, notes };
}

/**
 * Pure: names each XML case from the platform result of the same class whose display name, legacy
 * name or identity name is the XML's name, taken in order (a name repeated in the XML takes the
 * next such result). A case no result matches keeps its XML name and is counted as unmatched.
 */
export function namePlatformCases(cases: readonly XmlTestCase[], results: readonly PlatformResult[]): { cases: (XmlTestCase & { identityName?: string; uniqueId?: string })[]; unmatched: number } {
  const firstPerId = [...new Map(results.map((r) => [r.uniqueId, r])).values()];
  const used = new Set<PlatformResult>();
  let unmatched = 0;
  const named = cases.map((c) => {
    const r = firstPerId.find((p) => !used.has(p) && p.className === c.suite && [p.displayName, p.legacyName, identityName(p.legacyName)].includes(c.name));
    if (!r) {
      unmatched++;
      return c;
    }
    used.add(r);
    return { ...c, identityName: identityName(r.legacyName), uniqueId: r.uniqueId };
  });
  return { cases: named, unmatched };
}

/**
 * Pure: the tasks with platform names applied. When no XML case of a task matched and the task
 * ran exactly as many platform tests as it has XML cases, its XML does not speak the platform's
 * names at all (JUnit 4's `@RunWith(JUnitPlatform.class)` runner: Gradle then records mangled
 * classes such as "AdditionTest" or "int, int)"): the platform's results are the task's cases, as
 * under Maven. Otherwise unmatched cases keep their XML names, with a note.
 */
export function applyPlatformNames(tasks: readonly TaskResults[], byTask: ReadonlyMap<string, PlatformResult[]>): { tasks: TaskResults[]; notes: string[] } {
  const notes: string[] = [];
  const out = tasks.map((t) => {
    const results = byTask.get(t.task);
    if (!results?.length) return t;
    const { cases, unmatched } = namePlatformCases(t.cases, results);
    if (unmatched === 0) return { ...t, cases };
    const platform = platformCases(results);
    if (unmatched === t.cases.length && platform.length === t.cases.length) {
      notes.push(`${t.task}: its JUnit XML does not carry the JUnit Platform's class and test names (the JUnit 4 JUnitPlatform runner); its ${platform.length} test(s) are named from the platform.`);
      return { ...t, cases: platform };
    }
    notes.push(`${t.task}: ${unmatched} test result(s) not matched to a JUnit Platform test; they keep the name in the JUnit XML.`);
    return { ...t, cases };
  });
  return { tasks: out, notes };
}
