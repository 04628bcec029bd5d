// The run report in Markdown, for a merge-request comment: a consumer that describes one run.
// Stress findings sit in the flaky section beside organic ones, labelled by provenance, so a
// reviewer reads one list. The gate's verdict itself is not rendered here (RFC: it waits on
// the same upgrade as a check run); it lives on the run page.
import type { RunPage } from '../run-page/run-page.js';

const cell = (s: string): string => s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ').replace(/`/g, "'");

/** Renders the report of one run. Pure. */
export function renderRunReport(page: RunPage): string {
  const count = (status: string) => page.testCases.filter((t) => t.status === status).length;
  const fresh = page.testCases.filter((t) => t.isNew).length;
  const lines = [
    `## Test run \`${cell(page.runId)}\` on \`${cell(page.branch)}\`${page.commit ? ` (${cell(page.commit.slice(0, 12))})` : ''}`,
    '',
    `${page.testCases.length} test cases: ${count('success')} passed, ${count('failure')} failed, ${count('skipped')} skipped${fresh ? `, ${fresh} new` : ''}.`,
  ];
  const failed = page.testCases.filter((t) => t.status === 'failure');
  if (failed.length > 0) {
    lines.push('', '### Failed tests', '', '| Test | Module |', '| --- | --- |');
    for (const t of failed) lines.push(`| \`${cell(t.suite)}.${cell(t.name)}\`${t.muted ? ' (muted)' : ''} | \`${cell(t.module)}\` |`);
  }
  if (page.flaky.length > 0) {
    lines.push('', '### Flaky tests', '', '| Test | Module | Disagreed | Found by |', '| --- | --- | --- | --- |');
    for (const f of page.flaky) {
      const found = f.caughtBy === 'stress_gate' ? 'stress gate: new test, deliberately repeated in fresh JVMs' : 'this run (the build repeated it)';
      lines.push(`| \`${cell(f.suite)}.${cell(f.name)}\` | \`${cell(f.module)}\` | failed ${f.failed} of ${f.repetitions} | ${found} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}
