// The prose report on stdout, in the RFC's shape: a section line, the counts, one aligned line a
// candidate, then each failed candidate with why it failed and the command that reruns it, the
// warnings and the takeaway. Empty string when there is nothing to say. Text from tests is shown
// with its control characters escaped (report/rich-text.ts).
import { plural, wrap } from '../format/format.js';
import type { GateReport } from './gate-report.js';
import { reportDocument, sectionFor, type Finding } from './report-document.js';
import { plain, terminalLines, terminalSafe, type Rich } from './rich-text.js';

export { candidateLabels, SECTION } from './report-document.js';

/** Renders the report for a terminal; '' for not entitled and no candidates. */
export function renderReport(r: GateReport, runPage: string | null = null): string {
  const doc = reportDocument(r, runPage);
  if (!doc) return '';
  const lines = [sectionFor(r.mode)];
  for (const s of doc.lead) lines.push(...(s.warning ? warn(s.text) : [`  ${plain(s.text)}`]));
  if (doc.counts !== null) {
    lines.push(`  ${doc.counts}`);
    const labels = doc.rows.map((row) => terminalSafe(row.label));
    const width = Math.max(0, ...labels.map((l) => l.length));
    doc.rows.forEach((row, i) => lines.push(`  ${labels[i]!.padEnd(width)}   ${row.repetitions}, ${terminalSafe(row.outcome)}`));
    if (doc.pass) lines.push(`  ${doc.pass}`);
    if (doc.jvmTime) lines.push(...wrap(doc.jvmTime, '  ', '  '));
    if (doc.probe) lines.push(...wrap(doc.probe, '  ', '  '));
    if (doc.detection) lines.push(...wrap(doc.detection, '  ', '  '));
    if (doc.findings.length || doc.warnings.length) lines.push('');
    for (const f of doc.findings) lines.push(...finding(f));
    for (const w of doc.warnings) lines.push(...warn(w));
  }
  if (doc.runPage) lines.push('', `  Run page: ${doc.runPage}`);
  return `${lines.join('\n')}\n`;
}

function finding(f: Finding): string[] {
  const lines = warn(f.sentence);
  if (f.groups) lines.push(...wrap(terminalSafe(f.groups), '   ', '     '));
  if (f.first) {
    lines.push(`   ${f.firstLabel ? terminalSafe(f.firstLabel) : `First failure, repetition ${f.first.repetition}`}:`);
    lines.push(...terminalLines(f.first.text).map((l) => `     ${l}`));
  }
  if (f.omitted) lines.push(`   (${plural(f.omitted, 'more failed repetition')} ${f.omitted === 1 ? 'is' : 'are'} not described: the report keeps the first 20; their files are under the build's stress-gate/repetitions folder)`);
  if (f.files) lines.push(`   Its files: ${terminalSafe(f.files)}`);
  if (f.reproduce) lines.push('   Reproduce:', `     ${terminalSafe(f.reproduce)}`);
  return lines;
}

function warn(text: Rich): string[] {
  return wrap(plain(text), ' ! ', '   ');
}
