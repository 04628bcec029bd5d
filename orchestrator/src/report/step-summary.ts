// The GitHub Actions job summary (appended to $GITHUB_STEP_SUMMARY) and the comment's fallback:
// the same report document as the terminal's, laid out in Markdown. Text from tests only ever
// enters as code spans and fences, our prose is escaped (report/rich-text.ts): a test name or
// message holding newlines, backticks, `|` or `<!--` cannot break a table or hide the verdict.
import { plural } from '../format/format.js';
import type { GateReport } from './gate-report.js';
import { reportDocument, sectionFor } from './report-document.js';
import { escapeProse, markdown, markdownBlock } from './rich-text.js';

/** Markdown for the job summary; '' when the printed report is empty. */
export function renderStepSummary(r: GateReport, runPage: string | null = null): string {
  const doc = reportDocument(r, runPage);
  if (!doc) return '';
  const lines = [`### ${sectionFor(r.mode)} (${r.mode})`, ''];
  for (const s of doc.lead) lines.push(s.warning ? `> ⚠️ ${markdown(s.text)}` : markdown(s.text), '');
  if (doc.counts !== null) {
    lines.push(escapeProse(doc.counts), '', '| Test case | Repetitions | Failed | Outcome |', '| --- | ---: | ---: | --- |');
    for (const row of doc.rows) {
      const label = row.invocations ? `${row.label} (${row.invocations.length} invocations)` : row.label;
      lines.push(`| ${markdown([{ code: label }], { in: 'table' })} | ${row.recorded}/${row.expected} | ${row.failures} | ${markdown(row.outcome, { in: 'table' })} |`);
    }
    lines.push('');
    if (doc.pass) lines.push(`Stress pass: ${escapeProse(doc.pass)}.${doc.jvmTime ? ` ${escapeProse(doc.jvmTime)}.` : ''}`, '');
    if (doc.probe) lines.push(`${escapeProse(doc.probe)}.`, '');
    if (doc.detection) lines.push(escapeProse(doc.detection), '');
    for (const f of doc.findings) {
      lines.push(`> ⚠️ ${markdown(f.sentence)}`, '');
      if (f.groups) lines.push(markdown([{ code: f.groups }]), '');
      if (f.first) lines.push(`${f.firstLabel ? escapeProse(f.firstLabel) : `First failure, repetition ${f.first.repetition}`}:`, '', markdownBlock(f.first.text), '');
      if (f.omitted) lines.push(escapeProse(`${plural(f.omitted, 'more failed repetition')} ${f.omitted === 1 ? 'is' : 'are'} not described (the report keeps the first 20).`), '');
      if (f.reproduce) lines.push('Reproduce it without the server:', '', markdownBlock(f.reproduce, 'sh'), '');
    }
    for (const w of doc.warnings) lines.push(`> ⚠️ ${markdown(w)}`, '');
    const inBuild = r.firstPass.passed ? [] : r.candidates.filter((c) => c.failedInBuild && !c.muted);
    const verdict = inBuild.length
      ? r.wouldHaveBlocked
        ? "**The build failed, and a new test is flaky**: rerunning CI until it passes would merge it. The build's failure stands."
        : "**The build failed**: its new tests failed every time (broken); fix them as any failing test."
      : r.blocked
      ? r.candidates.some((c) => c.outcome === 'failed' && !c.muted)
        ? '**Blocked**: a new test disagreed with itself.'
        : '**Blocked**: a new test depends on the order of tests.'
      : r.wouldHaveBlocked
        ? r.mode === 'local'
          ? '**A test disagreed with itself.**'
          : '**Would have blocked** this merge request. Pass `--stress-new-tests enforce` to make it blocking.'
        : `Outcome: ${escapeProse(r.outcome)}.`;
    lines.push(verdict, '');
  }
  if (doc.runPage) lines.push(`[The run page in the dashboard](${doc.runPage})`, '');
  return `${lines.join('\n')}\n`;
}
