// Reads this run's JUnit XML of every Test task (files written at or after the run started).
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { TestTask } from '../gradle/manifest.js';
import { readJUnitXmlFile, type XmlTestCase } from './junit-xml.js';
import type { TaskResults } from './test-case-result.js';

/** What the XML of a set of Test tasks says. `errors` are broken files; `notes` are for the user. */
export interface ReadResults {
  tasks: TaskResults[];
  errors: string[];
  notes: string[];
}

/** Reads `dir/*.xml` modified at/after `sinceMs`; stale files are reported as a note, not read. */
export async function readTaskXml(dir: string, sinceMs: number): Promise<{ files: string[]; stale: number }> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.xml')).sort();
  } catch {
    return { files: [], stale: 0 };
  }
  // Some filesystems keep mtimes to the second: compare against the start's whole second.
  const since = Math.floor(sinceMs / 1000) * 1000;
  const files: string[] = [];
  let stale = 0;
  for (const n of names) {
    const file = path.join(dir, n);
    const s = await stat(file).catch(() => null);
    if (!s?.isFile()) continue;
    if (s.mtimeMs >= since) files.push(file);
    else stale++;
  }
  return { files, stale };
}

/**
 * Reads the results of every task of the manifest. `log` is the plugin's results log by task:
 * used for a task that ran tests but wrote no JUnit XML this run.
 */
export async function readResults(tasks: readonly TestTask[], sinceMs: number, log: ReadonlyMap<string, XmlTestCase[]> = new Map()): Promise<ReadResults> {
  const out: ReadResults = { tasks: [], errors: [], notes: [] };
  for (const task of tasks) {
    const { files, stale } = task.junitXmlDir ? await readTaskXml(task.junitXmlDir, sinceMs) : { files: [], stale: 0 };
    const logged = log.get(task.path) ?? [];
    if (files.length === 0 && logged.length > 0) {
      out.notes.push(`${task.path} wrote no JUnit XML; its ${logged.length} result(s) come from the plugin's test listener.`);
      out.tasks.push({ task: task.path, module: task.projectPath, cases: logged });
      continue;
    }
    if (files.length === 0 && stale > 0) {
      out.notes.push(`${task.path} ran no tests in this build (up to date, or not requested); its ${stale} older report file(s) are not this run's results.`);
    }
    const cases = [];
    for (const file of files) {
      const parsed = await readJUnitXmlFile(file);
      if (parsed.ok) cases.push(...parsed.cases);
      else out.errors.push(parsed.error);
    }
    if (files.length > 0) out.tasks.push({ task: task.path, module: task.projectPath, cases });
  }
  return out;
}
