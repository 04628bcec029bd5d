// Reads what the stress pass wrote: <resultsDir>/<id>/rep-<k>/*.xml, and assigns each
// repetition to its candidate. A repetition that is not there is simply absent: outcome
// classification (enforce/) decides what an absence means, never "passed".
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Repetition } from '#contract';
import type { GateCandidate } from '../candidates/gate-candidate.js';
import { parseJUnitXml, type XmlTestCase } from '../first-pass/junit-xml.js';
import type { StressPlan } from './stress-plan.js';

/** The XML cases of one repetition of one planned task. */
export interface RepetitionReport {
  taskPath: string;
  repetition: number;
  cases: XmlTestCase[];
}

/** Reads every repetition directory the plan could have produced; broken files go to `errors`. */
export async function readRepetitionReports(plan: StressPlan): Promise<{ reports: RepetitionReport[]; errors: string[] }> {
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
        const parsed = parseJUnitXml(await readFile(file, 'utf8'), file);
        if (parsed.ok) cases.push(...parsed.cases);
        else errors.push(parsed.error);
      }
      reports.push({ taskPath: task.path, repetition: k, cases });
    }
  }
  return { reports, errors };
}

/** Pure: the repetitions found for each candidate (by testCaseId), in repetition order. */
export function assignRepetitions(stress: readonly GateCandidate[], reports: readonly RepetitionReport[]): Map<string, Repetition[]> {
  const out = new Map<string, Repetition[]>(stress.map((c) => [c.testCaseId, []]));
  for (const report of reports) {
    const seen = new Map<string, XmlTestCase[]>();
    for (const c of report.cases) {
      const key = JSON.stringify([c.suite, c.name]);
      seen.set(key, [...(seen.get(key) ?? []), c]);
    }
    for (const cand of stress) {
      if (!cand.source || cand.source.task !== report.taskPath) continue;
      if (report.repetition > (cand.repetitions ?? 0)) continue;
      const found = seen.get(JSON.stringify([cand.suite, cand.source.xmlName]))?.[cand.source.occurrence - 1];
      // A skipped repetition did not run: it is absent, like a missing one.
      if (!found || found.status === 'skipped') continue;
      out.get(cand.testCaseId)!.push({ repetition: report.repetition, status: found.status, durationMs: found.durationMs });
    }
  }
  return out;
}
