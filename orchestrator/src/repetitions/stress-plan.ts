// The stress plan the plugin reads (-PstressGate.plan): per Test task, the candidates and their
// repetition counts. Pure: the caller writes it to plan.json.
import type { GateCandidate } from '../candidates/gate-candidate.js';

/** plan.json as the plugin reads it. */
export interface StressPlan {
  resultsDir: string;
  tasks: { id: string; path: string; candidates: { suite: string; name: string; repetitions: number }[] }[];
}

/** Builds the plan for the candidates that have a source; tasks get ids t0, t1, … by path. */
export function buildStressPlan(stress: readonly GateCandidate[], resultsDir: string): StressPlan {
  const byTask = new Map<string, Map<string, { suite: string; name: string; repetitions: number }>>();
  for (const c of stress) {
    if (!c.source || !c.repetitions) continue;
    const entries = byTask.get(c.source.task) ?? new Map();
    byTask.set(c.source.task, entries);
    // Two identities with one XML name (a repeated Parameterized name) are one filter entry:
    // the filter selects both and the reader tells them apart by occurrence.
    const key = JSON.stringify([c.suite, c.source.xmlName]);
    const prior = entries.get(key);
    entries.set(key, { suite: c.suite, name: c.source.xmlName, repetitions: Math.max(prior?.repetitions ?? 0, c.repetitions) });
  }
  const paths = [...byTask.keys()].sort();
  return {
    resultsDir,
    tasks: paths.map((p, i) => ({ id: `t${i}`, path: p, candidates: [...byTask.get(p)!.values()] })),
  };
}
