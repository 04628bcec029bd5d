// The run report's section on the merge request's diff, for the merge-request comment: the
// candidates chosen because the merge request modified them or added them on a project with no
// history yet (each with its label), the renamed tests not stressed ("X — renamed from Y, not
// stressed"), and, when the CLI could not analyse the diff, why. Bounded; the run page has the
// rest. Every text from the run goes through contract-markdown.ts. Pure.
import { code } from '../contract-markdown.js';
import { originLabel, skippedSentence } from '../run-page/read-diff.js';
import type { RunPage } from '../run-page/run-page.js';

/** Lines of labelled candidates and of renamed tests the report holds at most, each. */
export const MAX_DIFF_LINES = 50;

/** The section's lines (none when the gate says nothing of a diff). */
export function diffSection(page: RunPage): string[] {
  const g = page.gate;
  if (!g) return [];
  const labelled = g.candidates.filter((c) => originLabel(c.origin) !== null);
  const renamed = g.renamed ?? [];
  const renamedCount = Math.max(g.renamedCount ?? 0, renamed.length);
  const skipped = g.diff?.status === 'skipped';
  if (labelled.length === 0 && renamedCount === 0 && !skipped) return [];
  const lines = ['', '### Modified and renamed tests', ''];
  if (skipped) lines.push(skippedSentence(g.diff!), '');
  for (const c of labelled.slice(0, MAX_DIFF_LINES)) {
    const blocks = c.origin === 'modified' && g.diff !== null && g.diff !== undefined && !g.diff.modifiedTestsBlock ? " (reported only: the project's setting)" : '';
    lines.push(`- ${code(`${c.suite}.${c.name}`)} (${code(c.module)}): ${originLabel(c.origin)}, stressed${blocks}.`);
  }
  if (labelled.length > MAX_DIFF_LINES) lines.push(`- and ${labelled.length - MAX_DIFF_LINES} more (the run page lists them).`);
  for (const r of renamed.slice(0, MAX_DIFF_LINES)) {
    const module = r.from.module === r.module ? '' : ` (module ${code(r.from.module)})`;
    lines.push(`- ${code(`${r.suite}.${r.name}`)} — renamed from ${code(`${r.from.suite}.${r.from.name}`)}${module}, not stressed.`);
  }
  if (renamedCount > Math.min(renamed.length, MAX_DIFF_LINES)) lines.push(`- and ${renamedCount - Math.min(renamed.length, MAX_DIFF_LINES)} more renamed tests (the run page lists them).`);
  while (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
