// The prose report on stdout, in the RFC's shape: a section line, the counts, one aligned line a
// candidate, then warnings and the takeaway. Empty string when there is nothing to say.
import { wrap } from './format.js';
import type { GateReport } from './gate-report.js';
import { reportDocument, SECTION } from './report-document.js';

export { candidateLabels, SECTION } from './report-document.js';

/** Renders the report for a terminal; '' for not entitled and no candidates. */
export function renderReport(r: GateReport, runPage: string | null = null): string {
  const doc = reportDocument(r, runPage);
  if (!doc) return '';
  const lines = [SECTION];
  for (const s of doc.lead) lines.push(...(s.warning ? warn(s.text) : [`  ${s.text}`]));
  if (doc.counts !== null) {
    lines.push(`  ${doc.counts}`);
    const width = Math.max(0, ...doc.rows.map((row) => row.label.length));
    for (const row of doc.rows) lines.push(`  ${row.label.padEnd(width)}   ${row.repetitions}, ${row.outcome}`);
    if (doc.pass) lines.push(`  ${doc.pass}`);
    if (doc.detection) lines.push(...wrap(doc.detection, '  ', '  '));
    if (doc.warnings.length) lines.push('', ...doc.warnings.flatMap(warn));
  }
  if (doc.runPage) lines.push('', `  Run page: ${doc.runPage}`);
  return `${lines.join('\n')}\n`;
}

function warn(text: string): string[] {
  return wrap(text, ' ! ', '   ');
}
