// The sentence each guard prints when it fires. The report, the job summary and the gated
// observation's `guard.reason` all carry this one sentence.
import { formatDuration, formatLimit, plural } from '../format/format.js';

/** What a fired guard knows, by guard: the numbers that decided it. */
export type GuardFacts =
  | { name: 'premise'; reason: 'no_default_branch' | 'no_default_branch_history' | null; branch: string | null; total: number }
  | { name: 'bulk_change'; newCount: number; ratio: number; inventory: number; branch: string | null }
  | { name: 'candidate_cap'; count: number; cap: number }
  | { name: 'ceiling'; count: number; predictedMs: number; ceilingMs: number };

/** The guard's sentence, e.g. "Candidate cap: 250 new test cases exceed the cap of 200; not stressed." */
export function guardSentence(g: GuardFacts): string {
  const verb = (n: number) => (n === 1 ? 'exceeds' : 'exceed');
  switch (g.name) {
    case 'premise':
      return g.reason === 'no_default_branch'
        ? `Premise: the project has no default branch set, so no test can be told new (${plural(g.total, 'test case')} ran); not stressed.`
        : `Premise: no CI run of ${g.branch ?? 'the default branch'} is recorded yet, so no test can be told new (${plural(g.total, 'test case')} ran); not stressed.`;
    case 'bulk_change':
      return `Bulk change: ${plural(g.newCount, 'new test case')} ${verb(g.newCount)} ${Math.round(g.ratio * 100)}% of the ${g.inventory} known on ${g.branch ?? 'the default branch'}; not stressed.`;
    case 'candidate_cap':
      return `Candidate cap: ${plural(g.count, 'new test case')} ${verb(g.count)} the cap of ${g.cap}; not stressed.`;
    case 'ceiling':
      return `Ceiling: stressing ${plural(g.count, 'new test case')} would take about ${formatDuration(g.predictedMs)}, over the ${formatLimit(g.ceilingMs, true)} ceiling; not stressed.`;
  }
}
