// The GitHub Actions job summary (appended to $GITHUB_STEP_SUMMARY): the same report document as
// the terminal's, laid out in Markdown.
import type { GateReport } from './gate-report.js';
import { reportDocument, SECTION } from './report-document.js';

/** Markdown for the job summary; '' when the printed report is empty. */
export function renderStepSummary(r: GateReport, runPage: string | null = null): string {
  const doc = reportDocument(r, runPage);
  if (!doc) return '';
  const lines = [`### ${SECTION} (${r.mode})`, ''];
  for (const s of doc.lead) lines.push(s.warning ? `> ⚠️ ${s.text}` : s.text, '');
  if (doc.counts !== null) {
    lines.push(doc.counts, '', '| Test case | Repetitions | Failed | Outcome |', '| --- | ---: | ---: | --- |');
    for (const row of doc.rows) {
      const c = row.candidate;
      lines.push(`| ${code(row.label)} | ${c.recorded.length}/${c.expected} | ${c.failures} | ${cell(row.outcome)} |`);
    }
    lines.push('');
    if (doc.pass) lines.push(`Stress pass: ${doc.pass}.`, '');
    if (doc.detection) lines.push(doc.detection, '');
    for (const w of doc.warnings) lines.push(`> ⚠️ ${w}`, '');
    const verdict = r.blocked
      ? '**Blocked**: a new test disagreed with itself.'
      : r.wouldHaveBlocked
        ? '**Would have blocked** this merge request. Pass `--stress-new-tests enforce` to make it blocking.'
        : `Outcome: ${r.outcome}.`;
    lines.push(verdict, '');
  }
  if (doc.runPage) lines.push(`[The run page in the dashboard](${doc.runPage})`, '');
  return `${lines.join('\n')}\n`;
}

const cell = (s: string) => s.replaceAll('|', '\\|');
const code = (s: string) => `\`${s.replaceAll('`', "'").replaceAll('|', '\\|')}\``;
