// The plugin's per-test results log (<manifest>.results.jsonl), written by a TestListener. The
// JUnit XML is the primary source; the log stands in for a Test task that ran tests but left no
// XML (reports disabled), and is where JUnit 5 identities will come from on newer Gradle.
import type { XmlTestCase } from '../first-pass/junit-xml.js';
import { failureOf, type RunnerFailure } from '../jvm/runner-log.js';

const STATUS: Record<string, XmlTestCase['status']> = { SUCCESS: 'success', FAILURE: 'failure', SKIPPED: 'skipped' };

/** What the log says: finished tests and started tests, each by task path, in order. */
export interface ResultsLog {
  byTask: Map<string, XmlTestCase[]>;
  /** A repetition task's failures as the plugin caught them, by task path, then by JSON [suite, name] (in order). */
  failuresByTask: Map<string, Map<string, RunnerFailure[]>>;
  /** Every test that started; one that never finished was running when its JVM died. */
  startedByTask: Map<string, { suite: string; name: string }[]>;
  malformed: number;
}

/** Pure: the log's lines grouped by task path, in order; malformed lines are counted, not thrown. */
export function parseResultsLog(text: string): ResultsLog {
  const byTask = new Map<string, XmlTestCase[]>();
  const startedByTask = new Map<string, { suite: string; name: string }[]>();
  const failuresByTask = new Map<string, Map<string, RunnerFailure[]>>();
  let malformed = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let entry: { task?: unknown; event?: unknown; className?: unknown; name?: unknown; result?: unknown; durationMs?: unknown; failure?: unknown };
    try {
      entry = JSON.parse(line);
    } catch {
      malformed++;
      continue;
    }
    if (entry.event === 'started' && typeof entry.task === 'string' && typeof entry.className === 'string' && typeof entry.name === 'string') {
      const started = startedByTask.get(entry.task) ?? [];
      started.push({ suite: entry.className, name: entry.name });
      startedByTask.set(entry.task, started);
      continue;
    }
    const status = typeof entry.result === 'string' ? STATUS[entry.result] : undefined;
    if (typeof entry.task !== 'string' || typeof entry.className !== 'string' || typeof entry.name !== 'string' || !status) {
      malformed++;
      continue;
    }
    const durationMs = typeof entry.durationMs === 'number' && entry.durationMs >= 0 ? entry.durationMs : 0;
    const list = byTask.get(entry.task) ?? [];
    list.push({ suite: entry.className, name: entry.name, status, durationMs });
    byTask.set(entry.task, list);
    const failure = failureOf(entry.failure);
    if (failure) {
      const ofTask = failuresByTask.get(entry.task) ?? failuresByTask.set(entry.task, new Map()).get(entry.task)!;
      const key = JSON.stringify([entry.className, entry.name]);
      ofTask.set(key, [...(ofTask.get(key) ?? []), failure]);
    }
  }
  return { byTask, startedByTask, failuresByTask, malformed };
}

/** `/x/manifest.json` → `/x/manifest.results.jsonl`, as the plugin names it. */
export function resultsLogPath(manifest: string): string {
  return `${manifest.endsWith('.json') ? manifest.slice(0, -5) : manifest}.results.jsonl`;
}
