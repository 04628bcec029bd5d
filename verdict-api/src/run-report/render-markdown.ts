// The run report in Markdown, for a merge-request comment: a consumer that describes one run.
// Stress findings sit in the flaky section beside organic ones, labelled by provenance, so a
// reviewer reads one list; each test the gate caught says why (failure-evidence.ts). The new
// invocations of one parameterised method are one line (invocation-groups.ts), and a
// timing-sensitive test says it failed side by side and passed alone; an order-dependent test is its
// own section (order-findings.ts), counted apart from failed ones; modified tests, tests new from
// the diff and renamed tests are theirs (diff-section.ts). The gate's
// verdict itself is not rendered here (RFC: it waits on the same upgrade as a check run); it lives
// on the run page. Every text from the run goes through contract-markdown.ts.
import { flakyNotShownLine, type RunPage } from '../run-page/run-page.js';
import { failureEvidence } from './failure-evidence.js';
import { orderFindingsSection } from './order-findings.js';
import { diffSection } from './diff-section.js';
import { code } from '../contract-markdown.js';
import { flakyRows, groupLine } from '../run-page/invocation-groups.js';
import { findingTiming, timingSensitiveLine, timingSensitiveVerdict } from '../run-page/timing-sensitive.js';

const STRESS_GATE = 'stress gate: new test, deliberately repeated in fresh JVMs';

/** Renders the report of one run. Pure. */
export function renderRunReport(page: RunPage): string {
  const cell = (s: string) => code(s, { in: 'table' });
  const n = page.counts;
  const lines = [
    `## Test run ${code(page.runId)} on ${code(page.branch)}${page.commit ? ` (${code(page.commit.slice(0, 12))})` : ''}`,
    '',
    `${n.testCases} ${n.testCases === 1 ? 'test case' : 'test cases'}: ${n.passed} passed, ${n.failed} failed, ${n.skipped} skipped${n.new ? `, ${n.new} new` : ''}.`,
  ];
  const failed = page.failedTestCases;
  if (failed.length > 0) {
    lines.push('', '### Failed tests', '', '| Test | Module |', '| --- | --- |');
    for (const t of failed) lines.push(`| ${cell(`${t.suite}.${t.name}`)}${t.muted ? ' (muted)' : ''} | ${cell(t.module)} |`);
    if (n.failed > failed.length) lines.push('', `The first ${failed.length} by name; ${n.failed - failed.length} more failed (the run page lists every test case).`);
  }
  if (page.flaky.length > 0) {
    lines.push('', '### Flaky tests', '', '| Test | Module | Disagreed | Found by |', '| --- | --- | --- | --- |');
    for (const row of flakyRows(page)) {
      if (row.group) {
        // The new invocations of one method: one line, however many there are.
        const g = row.group;
        lines.push(`| ${cell(`${g.suite}.${g.method}`)} | ${cell(g.module)} | ${groupLine(g, cell)} | ${STRESS_GATE} |`);
        continue;
      }
      const f = row.finding;
      const timing = findingTiming(f);
      const found = f.caughtBy === 'organic' ? 'this run (the build repeated it)' : timing ? `${STRESS_GATE}; ${timingSensitiveVerdict(timing, page.gate?.mode)}` : STRESS_GATE;
      lines.push(`| ${cell(`${f.suite}.${f.name}`)} | ${cell(f.module)} | ${timing ? timingSensitiveLine(timing) : `failed ${f.failed} of ${f.repetitions}`} | ${found} |`);
    }
    if (page.flakyNotShown > 0) lines.push('', flakyNotShownLine(page.flakyNotShown));
    const evidence = failureEvidence(page);
    if (evidence !== '') lines.push('', evidence.replace(/\n$/, ''));
  }
  lines.push(...orderFindingsSection(page));
  lines.push(...diffSection(page));
  return `${lines.join('\n')}\n`;
}
