// Reads this run's JUnit XML of every Test task (files written at or after the run started).
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { readJUnitXmlFile, type JUnitXmlResult, type XmlTestCase } from './junit-xml.js';
import type { UnitCase } from './test-case-result.js';


/** A test task (Gradle's Test task, Maven's Surefire or Failsafe run) and where its JUnit XML is. */
export interface TestTaskDir {
  path: string;
  projectPath: string;
  name: string;
  junitXmlDir: string | null;
}

/** The XML cases of one test task, in the order its reports were read (with platform names and IDs once known). */
export interface TaskResults {
  task: string;
  module: string;
  cases: UnitCase[];
}

/** What the XML of a set of Test tasks says. `errors` are broken files; `notes` are for the user. */
export interface ReadResults {
  tasks: TaskResults[];
  errors: string[];
  notes: string[];
}

/** A report file's size and modification time: what says it has not changed since it was parsed. */
export interface FileVersion {
  size: number;
  mtimeMs: number;
}

/** Lists `dir/*.xml` modified at/after `sinceMs`; stale files are counted (for a note), not listed. */
export async function readTaskXml(dir: string, sinceMs: number): Promise<{ files: string[]; stale: number; versions: Map<string, FileVersion> }> {
  let names: string[];
  const versions = new Map<string, FileVersion>();
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.xml')).sort();
  } catch {
    return { files: [], stale: 0, versions };
  }
  // Some filesystems keep mtimes to the second: compare against the start's whole second.
  const since = Math.floor(sinceMs / 1000) * 1000;
  const files: string[] = [];
  let stale = 0;
  const stats = await Promise.all(names.map((n) => stat(path.join(dir, n)).catch(() => null)));
  names.forEach((n, i) => {
    const s = stats[i];
    if (!s?.isFile()) return;
    if (s.mtimeMs < since) return void stale++;
    const file = path.join(dir, n);
    files.push(file);
    versions.set(file, { size: s.size, mtimeMs: s.mtimeMs });
  });
  return { files, stale, versions };
}

/**
 * Reports parsed before the final read (while Gradle was still finishing), each with the size and
 * modification time it had when listed. The final read takes a parsed report from here only when
 * the file still has that size and time, so a report rewritten after it was parsed is read again.
 * Only reports that parsed cleanly are kept: a broken one is always read again.
 */
export class ParsedReports {
  private readonly parsed = new Map<string, { version: FileVersion; result: JUnitXmlResult & { ok: true } }>();

  /** The parsed report of `file` if it was parsed at exactly `version`. */
  get(file: string, version: FileVersion | undefined): (JUnitXmlResult & { ok: true }) | undefined {
    const hit = this.parsed.get(file);
    return hit && version && hit.version.size === version.size && hit.version.mtimeMs === version.mtimeMs ? hit.result : undefined;
  }

  /** Keeps `result` for `file` as listed at `version` (broken results are not kept). */
  set(file: string, version: FileVersion, result: JUnitXmlResult): void {
    if (result.ok) this.parsed.set(file, { version, result });
  }

  get size(): number {
    return this.parsed.size;
  }
}

/** A report younger than this may still be being written: left for the next look. */
const SETTLE_MS = 30;

/**
 * Parses this run's reports of `tasks` that are already written into `into`: called while Gradle
 * is still running (its report files appear a few hundred milliseconds before it exits: the HTML
 * report and the build's end follow). Stops between files once `stopped()` says so. Never throws.
 */
export async function parseWrittenReports(tasks: readonly TestTaskDir[], sinceMs: number, into: ParsedReports, stopped: () => boolean, now: () => number = Date.now): Promise<void> {
  for (const task of tasks) {
    if (!task.junitXmlDir || stopped()) continue;
    const { files, versions } = await readTaskXml(task.junitXmlDir, sinceMs);
    for (const file of files) {
      if (stopped()) return;
      const version = versions.get(file)!;
      if (into.get(file, version) || now() - version.mtimeMs < SETTLE_MS) continue;
      into.set(file, version, await readJUnitXmlFile(file));
    }
  }
}

/** Report files read at the same time: their I/O overlaps, their parsing stays on this thread. */
const FILES_AT_ONCE = 8;

/** The plugin's results log by task, or a function that reads it when it is first needed. */
export type LoggedResults = ReadonlyMap<string, XmlTestCase[]> | (() => Promise<ReadonlyMap<string, XmlTestCase[]>>);

/**
 * Reads the results of every task of the manifest. `log` is the plugin's results log by task:
 * used for a task that ran tests but wrote no JUnit XML this run (read only then). A report in
 * `parsed` at the size and time it has now is taken from there instead of being read again.
 */
export async function readResults(tasks: readonly TestTaskDir[], sinceMs: number, log: LoggedResults = new Map(), parsed?: ParsedReports): Promise<ReadResults> {
  const out: ReadResults = { tasks: [], errors: [], notes: [] };
  for (const task of tasks) {
    const { files, stale, versions } = task.junitXmlDir ? await readTaskXml(task.junitXmlDir, sinceMs) : { files: [], stale: 0, versions: new Map<string, FileVersion>() };
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
    const reports = await Promise.all(files.map((file) => parsed?.get(file, versions.get(file)) ?? limit(() => readJUnitXmlFile(file))));
    const cases = [];
    for (const p of reports) {
      if (p.ok) for (const c of p.cases) cases.push(c);
      else out.errors.push(p.error);
    }
    if (files.length > 0) out.tasks.push({ task: task.path, module: task.projectPath, cases });
  }
  return out;
}
