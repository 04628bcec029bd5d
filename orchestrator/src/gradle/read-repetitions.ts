// Reads what the Gradle executor's stress pass wrote: <resultsDir>/<id>/rep-<k>/*.xml, with the
// plugin's results log of the stress pass beside it, and assigns each repetition to its candidate. A repetition
// that left no result is simply absent: outcome classification (enforce/) decides what an absence
// means, never "passed". A candidate that started in a repetition and never finished was running
// when that JVM died (System.exit, OOM kill, native crash): that repetition is a failure.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { GateCandidate } from '../candidates/gate-candidate.js';
import { readJUnitXmlFile, type XmlTestCase } from '../first-pass/junit-xml.js';
import type { RunnerFailure } from '../jvm/runner-log.js';
import type { FailureDetail, RecordedRepetition } from '../repetitions/stress-pass-result.js';
import type { ResultsLog } from './results-log.js';
import type { PlannedTasks, TaskPlan } from './task-plan.js';
import { gradleLocator } from './gradle-locator.js';

/** The cases of one repetition of one planned task. */
export interface RepetitionReport {
  /** The planned task's id (t0, t1, …). */
  id: string;
  taskPath: string;
  repetition: number;
  cases: XmlTestCase[];
  /** Tests that started in this repetition's JVM and never finished: it died under them. */
  crashed: { suite: string; name: string }[];
  /** What the plugin caught of each failure, by JSON [suite, name] (in order). */
  failures?: Map<string, RunnerFailure[]>;
}

/** The path of repetition `k` of planned task `id` of `taskPath`, as the plugin names it. */
export function repetitionTaskPath(taskPath: string, id: string, k: number): string {
  const project = taskPath.slice(0, taskPath.lastIndexOf(':'));
  return `${project}:stressGate${id.charAt(0).toUpperCase()}${id.slice(1)}Rep${k}`;
}

/**
 * Reads every repetition directory the plan could have produced; broken files go to `errors`. A
 * repetition without XML falls back to the results log's finished tests (Gradle writes a class's
 * XML only when the class ends, so a JVM that died leaves none).
 */
export async function readRepetitionReports(plan: TaskPlan, log?: ResultsLog): Promise<{ reports: RepetitionReport[]; errors: string[] }> {
  const reports: RepetitionReport[] = [];
  const errors: string[] = [];
  for (const task of plan.tasks) {
    const max = Math.max(0, ...task.candidates.map((c) => c.repetitions));
    for (let k = 1; k <= max; k++) {
      const dir = path.join(plan.resultsDir, task.id, `rep-${k}`);
      const names = await readdir(dir).then((n) => n.filter((x) => x.endsWith('.xml')).sort(), () => [] as string[]);
      const cases: XmlTestCase[] = [];
      for (const name of names) {
        const file = path.join(dir, name);
        const parsed = await readJUnitXmlFile(file);
        if (parsed.ok) cases.push(...parsed.cases);
        else errors.push(parsed.error);
      }
      const repPath = repetitionTaskPath(task.path, task.id, k);
      const finished = log?.byTask.get(repPath) ?? [];
      if (names.length === 0) cases.push(...finished);
      const done = new Set([...cases, ...finished].map((c) => JSON.stringify([c.suite, c.name])));
      const crashed = (log?.startedByTask.get(repPath) ?? []).filter((s) => !done.has(JSON.stringify([s.suite, s.name])));
      reports.push({ id: task.id, taskPath: task.path, repetition: k, cases, crashed, failures: log?.failuresByTask.get(repPath) ?? new Map() });
    }
  }
  return { reports, errors };
}

/** A failure with nothing known beyond its kind (the Gradle executor keeps no JVM output). */
const NO_DETAIL: FailureDetail = { kind: 'failure', type: null, message: null, trace: null, stdoutTail: null, stderrTail: null, exitCode: null, signal: null, hsErrFile: null };

/** Pure: the repetitions found for each candidate (by testCaseId), in repetition order. */
export function assignRepetitions(stress: readonly GateCandidate[], reports: readonly RepetitionReport[], owner: PlannedTasks['owner']): Map<string, RecordedRepetition[]> {
  const out = new Map<string, RecordedRepetition[]>(stress.map((c) => [c.testCaseId, []]));
  const byId = new Map(stress.map((c) => [c.testCaseId, c]));
  for (const report of reports) {
    const cand = byId.get(owner.get(report.id) ?? '');
    if (!cand?.source || report.repetition > (cand.repetitions ?? 0)) continue;
    const key = JSON.stringify([cand.suite, cand.source.xmlName]);
    const { occurrence } = gradleLocator(cand.source);
    const found = report.cases.filter((c) => JSON.stringify([c.suite, c.name]) === key)[occurrence - 1];
    if (!found && report.crashed.some((c) => JSON.stringify([c.suite, c.name]) === key)) {
      // The JVM died while this candidate ran: the test ended that process, a failure.
      out.get(cand.testCaseId)!.push({ repetition: report.repetition, status: 'failure', durationMs: 0, crashed: true, failure: { ...NO_DETAIL, kind: 'crash' } });
      continue;
    }
    // A skipped repetition did not run: it is absent, like a missing one.
    if (!found || found.status === 'skipped') continue;
    // A repetition the build's own retry (test-retry) rescued still failed once: it disagreed.
    const status = found.executions?.some((e) => e.status === 'failure') ? 'failure' : found.status;
    const caught = status === 'failure' ? report.failures?.get(key)?.[occurrence - 1] : undefined;
    out.get(cand.testCaseId)!.push({ repetition: report.repetition, status, durationMs: found.durationMs, ...(caught ? { failure: { ...NO_DETAIL, ...caught } } : {}) });
  }
  for (const reps of out.values()) reps.sort((a, b) => a.repetition - b.repetition);
  return out;
}
