import { describe, expect, it } from '@jest/globals';
import type { HistoryPoint, OutcomeHistory } from '../test-case/outcome-history.js';
import { SearchPage } from './search-page.js';
import { TestHistorySection } from './test-history-section.js';

const HOSTILE = '"><script>alert(1)</script>&';
const point = (runId: string, over: Partial<HistoryPoint> = {}): HistoryPoint => ({
  runId,
  branch: 'main',
  onDefaultBranch: true,
  isCi: true,
  ranAt: '2026-12-01 10:00:00',
  firstPass: 'success',
  muted: false,
  isNew: false,
  durationMs: 12,
  stress: null,
  organic: null,
  ...over,
});
// Newest first, as outcomeHistory answers.
const history = (points: HistoryPoint[], more = false): OutcomeHistory => ({ testCaseId: '00000000-0000-4000-8000-000000000001', defaultBranch: 'main', limit: 100, more, points });
const render = (h: OutcomeHistory) => String(TestHistorySection({ history: h, base: '/projects/shop' }));
const chartOf = (html: string) => html.slice(html.indexOf('<svg'), html.indexOf('</svg>'));
const tableOf = (html: string) => html.slice(html.indexOf('<table'), html.indexOf('</table>'));

const SAMPLE = [
  point('run-3', { branch: HOSTILE, onDefaultBranch: false, ranAt: '2026-12-03 09:00:00', firstPass: 'failure', stress: { repetitions: 10, failed: 3 } }),
  point('run-2', { ranAt: '2026-12-02 09:00:00', firstPass: 'skipped', muted: true }),
  point('run-1', { ranAt: '2026-12-01 09:00:00', organic: { repetitions: 2, failed: 1 } }),
];

describe('the test history section', () => {
  it('links every point of the chart to its run, oldest on the left, each said in words', () => {
    const chart = chartOf(render(history(SAMPLE)));
    const links = [...chart.matchAll(/<a href="([^"]+)" aria-label="([^"]+)">/g)].map((m) => [m[1], m[2]]);
    expect(links.map(([href]) => href)).toEqual(['/projects/shop/runs/run-1', '/projects/shop/runs/run-2', '/projects/shop/runs/run-3']);
    expect(links[0]![1]).toBe('Run run-1 on main, 2026-12-01 09:00:00 UTC: first pass passed; retries: 1 of 2 retries failed');
    expect(links[1]![1]).toBe('Run run-2 on main, 2026-12-02 09:00:00 UTC: first pass skipped (muted)');
    expect(links[2]![1]).toContain('first pass failed; stress: 3 of 10 stress repetitions failed');
  });

  it('has a title and a description that say what the chart shows, in numbers', () => {
    const chart = chartOf(render(history(SAMPLE)));
    expect(chart).toContain('aria-labelledby="history-title history-desc"');
    expect(chart).toContain('<title id="history-title">Outcomes of this test over its last 3 runs</title>');
    expect(chart).toMatch(/<desc id="history-desc">The last 3 runs of this test, oldest first: 2 on the default branch \(main\), 1 on other branches\. First pass: 1 passed, 1 failed, 1 skipped\. Stressed in 1 run: 3 of 10 repetitions failed\./);
  });

  it('draws default-branch runs on the top row and the others below, failures as a cross, stress as a bar', () => {
    const chart = chartOf(render(history(SAMPLE)));
    const [, skipped, failed] = chart.split('<a ').slice(1);
    expect(skipped).toMatch(/<circle cx="[\d.]+" cy="19" r="4.5" fill="#ffffff"/);
    expect(failed).toMatch(/<path d="M[\d.]+ 60L/);
    expect(failed).toMatch(/stroke="#c0392b"/);
    // The stress bar: 16 high, its failed part (3 of 10) in red on top.
    expect(failed).toMatch(/<rect x="[\d.]+" y="74" width="8" height="16" fill="#2e8540"><\/rect><rect x="[\d.]+" y="74" width="8" height="4.8" fill="#c0392b">/);
  });

  it('draws a row per branch, the default first, then the others by their latest run, the rest sharing the last row', () => {
    const branches = ['f1', 'f2', 'f3', 'f4', 'f5', 'f6'];
    const points = branches.map((b, i) => point(`r-${b}`, { branch: b, onDefaultBranch: false, ranAt: `2026-12-0${9 - i} 09:00:00` }));
    const chart = chartOf(render(history([...points, point('r-main', { ranAt: '2026-12-01 09:00:00' })])));
    expect([...chart.matchAll(/<text x="124" y="(\d+)" text-anchor="end"><title>([^<]+)<\/title>/g)].map((m) => [Number(m[1]), m[2]])).toEqual([
      [23, 'main (the default branch)'], [69, 'f1'], [115, 'f2'], [161, 'f3'], [207, 'f4'], [253, '2 other branches: f5, f6'],
    ]);
    expect(chart).toContain('viewBox="0 0 760 304"');
    // f6, the oldest, shares the last row: its point is drawn at that row's top.
    const f6 = chart.split('<a ').find((a) => a.includes('runs/r-f6'))!;
    expect(f6).toMatch(/<rect x="[\d.]+" y="236"/);
  });

  it('lists the same runs in a table, newest first, status in words', () => {
    const table = tableOf(render(history(SAMPLE)));
    expect([...table.matchAll(/<td data-label="Run"><a href="([^"]+)">/g)].map((m) => m[1])).toEqual(['/projects/shop/runs/run-3', '/projects/shop/runs/run-2', '/projects/shop/runs/run-1']);
    expect(table).toContain('<span class="badge bad">failed</span>');
    expect(table).toContain('stress: 3 of 10 stress repetitions failed');
    expect(table).toContain('<span class="badge muted">skipped</span> <span class="badge muted">muted</span>');
    expect(table).toContain('<td data-label="Branch"><code>main</code> (default)</td>');
  });

  it('escapes what the runs carry (a branch name here), in the chart and in the table', () => {
    const html = render(history(SAMPLE));
    expect(html).not.toContain('<script');
    expect(html).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;');
  });

  it('says so when older runs exist, and when there is no run', () => {
    expect(render(history(SAMPLE, true))).toContain('Showing the last 3 runs of this test. It has older runs, not shown here.');
    expect(render(history(SAMPLE, false))).not.toContain('older runs');
    const none = render(history([]));
    expect(none).toContain('No completed run of this test yet.');
    expect(none).not.toContain('<svg');
  });
});

describe('the search page', () => {
  const frame = { title: 'Search', project: 'shop', account: 'a', csrf: 'x' };
  it('escapes the text searched for and what it found', () => {
    const html = String(SearchPage({
      frame,
      query: HOSTILE,
      result: {
        query: HOSTILE,
        limit: 50,
        testCases: [{ testCaseId: '00000000-0000-4000-8000-000000000001', module: HOSTILE, suite: 'S', name: `n${HOSTILE}` }],
        moreTestCases: true,
        runs: [],
        moreRuns: false,
      },
    }));
    expect(html).not.toContain('<script');
    expect(html).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;"');
    expect(html).toContain('<a href="/projects/shop/test-cases/00000000-0000-4000-8000-000000000001"><code>S.n&quot;&gt;&lt;script&gt;');
    expect(html).toContain('Showing the first 50 test cases that match');
    expect(html).toContain('No run of this project has “&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;” in its id, branch or commit.');
    expect(html).toMatch(/<form class="search" method="get" action="\/projects\/shop\/search" role="search">/);
  });
});
