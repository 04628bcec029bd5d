// The run report in Markdown, for a merge-request comment: a consumer that describes one run.
// Stress findings sit in the flaky section beside organic ones, labelled by provenance, so a
// reviewer reads one list; each test the gate caught says why (failure-evidence.ts). The gate's
// verdict itself is not rendered here (RFC: it waits on the same upgrade as a check run); it lives
// on the run page. Every text from the run goes through contract-markdown.ts.
import type { RunPage } from '../run-page/run-page.js';
import { failureEvidence } from './failure-evidence.js';
import { code } from '../contract-markdown.js';

/** Renders the report of one run. Pure. */
export function renderRunReport(page: RunPage): string {
  const cell = (s: string) => code(s, { in: 'table' });
  const count = (status: string) => page.testCases.filter((t) => t.status === status).length;
  const fresh = page.testCases.filter((t) => t.isNew).length;
  const lines = [
    `## Test run ${code(page.runId)} on ${code(page.branch)}${page.commit ? ` (${code(page.commit.slice(0, 12))})` : ''}`,
    '',
    `${page.testCases.length} ${page.testCases.length === 1 ? 'test case' : 'test cases'}: ${count('success')} passed, ${count('failure')} failed, ${count('skipped')} skipped${fresh ? `, ${fresh} new` : ''}.`,
  ];
  const failed = page.testCases.filter((t) => t.status === 'failure');
  if (failed.length > 0) {
    lines.push('', '### Failed tests', '', '| Test | Module |', '| --- | --- |');
    for (const t of failed) lines.push(`| ${cell(`${t.suite}.${t.name}`)}${t.muted ? ' (muted)' : ''} | ${cell(t.module)} |`);
  }
  if (page.flaky.length > 0) {
    lines.push('', '### Flaky tests', '', '| Test | Module | Disagreed | Found by |', '| --- | --- | --- | --- |');
    for (const f of page.flaky) {
      const found = f.caughtBy === 'stress_gate' ? 'stress gate: new test, deliberately repeated in fresh JVMs' : 'this run (the build repeated it)';
      lines.push(`| ${cell(`${f.suite}.${f.name}`)} | ${cell(f.module)} | failed ${f.failed} of ${f.repetitions} | ${found} |`);
    }
    const evidence = failureEvidence(page);
    if (evidence !== '') lines.push('', evidence.replace(/\n$/, ''));
  }
  return `${lines.join('\n')}\n`;
}
