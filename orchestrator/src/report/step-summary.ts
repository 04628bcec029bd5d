// The GitHub Actions job summary (appended to $GITHUB_STEP_SUMMARY): the same report in Markdown.
import { candidateLabels, renderReport, SECTION } from './render-report.js';
import type { GateReport } from './gate-report.js';

/** Markdown for the job summary; '' when the printed report is empty. */
export function renderStepSummary(r: GateReport): string {
  const text = renderReport(r);
  if (text === '') return '';
  const lines = [`### ${SECTION} (${r.mode})`, ''];
  if (r.stop || r.guard) {
    lines.push(...text.split('\n').slice(1).filter(Boolean).map((l) => l.trim()).map((l) => (l.startsWith('! ') ? `> ⚠️ ${l.slice(2)}` : l)));
    return `${lines.join('\n')}\n\n`;
  }
  const c = r.counts;
  lines.push(`${c.examined} new test cases, ${c.stressed} stressed, ${c.excluded} excluded`, '');
  lines.push('| Test case | Repetitions | Failed | Outcome |', '| --- | ---: | ---: | --- |');
  const labels = candidateLabels(r.candidates);
  r.candidates.forEach((cand, i) => {
    const outcome = cand.outcome.replace('_', ' ') + (cand.muted ? ' (muted)' : '');
    lines.push(`| \`${labels[i]!.replaceAll('`', "'").replaceAll('|', '\\|')}\` | ${cand.recorded.length}/${cand.expected} | ${cand.failures} | ${outcome} |`);
  });
  lines.push('');
  const verdict = r.blocked
    ? '**Blocked**: a new test disagreed with itself.'
    : r.wouldHaveBlocked
      ? '**Would have blocked** this merge request. Pass `--stress-new-tests enforce` to make it blocking.'
      : `Outcome: ${r.outcome}.`;
  lines.push(verdict, '');
  return `${lines.join('\n')}\n`;
}
