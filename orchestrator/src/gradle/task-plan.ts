// The task plan the plugin reads (-PstressGate.plan) for the Gradle executor: one planned task
// per candidate (its repetition k is one Test task, one fresh JVM, running that candidate alone).
// Pure: the caller writes it to plan.json.
import type { GateCandidate } from '../candidates/gate-candidate.js';
import { gradleLocator } from './gradle-locator.js';

/** plan.json as the plugin reads it. */
export interface TaskPlan {
  resultsDir: string;
  tasks: { id: string; path: string; candidates: { suite: string; name: string; repetitions: number }[] }[];
}

/** The plan, and the candidate (testCaseId) each planned task id runs. */
export interface PlannedTasks {
  plan: TaskPlan;
  owner: Map<string, string>;
}

/** Plans every candidate that has a source; tasks get ids t0, t1, … in candidate order. */
export function planTasks(stress: readonly GateCandidate[], resultsDir: string): PlannedTasks {
  const owner = new Map<string, string>();
  const tasks: TaskPlan['tasks'] = [];
  for (const c of stress) {
    if (!c.source || !c.repetitions) continue;
    const id = `t${tasks.length}`;
    owner.set(id, c.testCaseId);
    // The filter is the XML name: a repeated Parameterized name selects every invocation of that
    // name, and the reader takes the candidate's by occurrence.
    tasks.push({ id, path: gradleLocator(c.source).task, candidates: [{ suite: c.suite, name: c.source.xmlName, repetitions: c.repetitions }] });
  }
  return { plan: { resultsDir, tasks }, owner };
}
