// Reads this run's JUnit XML of every Test task (files written at or after the run started).
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
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
  const stats = await Promise.all(names.map((n) => stat(path.join(dir, n)).catch(() => null)));
  names.forEach((n, i) => {
    const s = stats[i];
    if (!s?.isFile()) return;
    if (s.mtimeMs >= since) files.push(path.join(dir, n));
    else stale++;
  });
  return { files, stale };
}

/** Report files read at the same time: their I/O overlaps, their parsing stays on this thread. */
const FILES_AT_ONCE = 8;

/** The plugin's results log by task, or a function that reads it when it is first needed. */
export type LoggedResults = ReadonlyMap<string, XmlTestCase[]> | (() => Promise<ReadonlyMap<string, XmlTestCase[]>>);

/**
 * Reads the results of every task of the manifest. `log` is the plugin's results log by task:
 * used for a task that ran tests but wrote no JUnit XML this run (read only then).
 */
export async function readResults(tasks: readonly TestTask[], sinceMs: number, log: LoggedResults = new Map()): Promise<ReadResults> {
  const out: ReadResults = { tasks: [], errors: [], notes: [] };
  for (const task of tasks) {
    const { files, stale } = task.junitXmlDir ? await readTaskXml(task.junitXmlDir, sinceMs) : { files: [], stale: 0 };
    if (files.length === 0) {
      const logged = (typeof log === 'function' ? await log() : log).get(task.path) ?? [];
      if (logged.length > 0) {
        out.notes.push(`${task.path} wrote no JUnit XML; its ${logged.length} result(s) come from the plugin's test listener.`);
        out.tasks.push({ task: task.path, module: task.projectPath, cases: logged });
        continue;
      }
    }
    if (files.length === 0 && stale > 0) {
      out.notes.push(`${task.path} ran no tests in this build (up to date, or not requested); its ${stale} older report file(s) are not this run's results.`);
    }
    const limit = pLimit(FILES_AT_ONCE);
    const parsed = await Promise.all(files.map((file) => limit(() => readJUnitXmlFile(file))));
    const cases = [];
    for (const p of parsed) {
      if (p.ok) for (const c of p.cases) cases.push(c);
      else out.errors.push(p.error);
    }
    if (files.length > 0) out.tasks.push({ task: task.path, module: task.projectPath, cases });
  }
  return out;
}
