// The test case page's history: the chart of its recent runs, its legend in words, and the same
// runs as a table (newest first, behind a disclosure that works without script), which is also
// what a screen reader or a narrow screen reads.
import type { OutcomeHistory } from '../test-case/outcome-history.js';
import { ms, StatusBadge } from './badges.js';
import { MAX_BRANCH_ROWS, repetitionWords, TestHistoryChart } from './test-history-chart.js';

/** The history section of a test case page. */
export function TestHistorySection({ history, base }: { history: OutcomeHistory; base: string }) {
  const n = history.points.length;
  return (
    <section aria-labelledby="history" class="test-history">
      <h2 id="history">History ({history.more ? `last ${n} runs` : `${n} run${n === 1 ? '' : 's'}`})</h2>
      {n === 0 ? <p>No completed run of this test yet.</p> : (
        <>
          {history.more && <p class="notice">Showing the last {n} runs of this test. It has older runs, not shown here.</p>}
          <figure class="history">
            <TestHistoryChart history={history} base={base} />
            <figcaption class="legend">
              Oldest run on the left; a row per branch: the default branch{history.defaultBranch !== null && <> (<code>{history.defaultBranch}</code>)</>} on top, then the others, the most recently run first (at most {MAX_BRANCH_ROWS}; further branches share the last row).
              First pass: <span class="pass">● passed</span>, <span class="fail">✕ failed</span>, <span class="skip">○ skipped</span>.
              Under a point, its stress repetitions: green passed, red failed. Each point links to its run.
            </figcaption>
          </figure>
          <details class="history-table">
            <summary>The same {n} runs as a table, newest first</summary>
            <table>
              <thead><tr><th scope="col">When (UTC)</th><th scope="col">Run</th><th scope="col">Branch</th><th scope="col">First pass</th><th scope="col">Repetitions</th><th scope="col" class="num">Duration</th></tr></thead>
              <tbody>
                {history.points.map((p) => (
                  <tr>
                    <td data-label="When (UTC)">{p.ranAt}</td>
                    <td data-label="Run"><a href={`${base}/runs/${encodeURIComponent(p.runId)}`}><code>{p.runId}</code></a></td>
                    <td data-label="Branch"><code>{p.branch}</code>{p.onDefaultBranch && ' (default)'}</td>
                    <td data-label="First pass"><StatusBadge status={p.firstPass} />{p.muted && <> <span class="badge muted">muted</span></>}{p.isNew && <> <span class="badge info">New</span></>}</td>
                    <td data-label="Repetitions">{[repetitionWords('stress', p.stress), repetitionWords('retries', p.organic)].filter((x) => x !== null).join('; ') || 'none'}</td>
                    <td data-label="Duration" class="num">{ms(p.durationMs)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        </>
      )}
    </section>
  );
}
