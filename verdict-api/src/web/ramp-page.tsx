// The ramp page the RFC asks teams to watch in report mode before switching to enforce. Its words
// and figures are `verdict-api telemetry`'s ramp-per-day: merge requests, runs, would have blocked.
import type { Ramp, RampCounts } from '../telemetry/ramp-per-day.js';
import { ms } from './badges.js';
import { Layout, type Frame } from './layout.js';
import { RampChart } from './ramp-chart.js';

const Cells = ({ c }: { c: RampCounts }) => (
  <>
    <td data-label="Merge requests" class="num">{c.mergeRequests}</td>
    <td data-label="Runs" class="num">{c.runs}</td>
    <td data-label="Would have blocked" class="num">{c.wouldHaveBlocked}</td>
    <td data-label="Candidates stressed" class="num">{c.candidatesStressed}</td>
    <td data-label="Guards fired" class="num">{c.guardsFired}</td>
    <td data-label="Time the gate added" class="num">{ms(c.addedMs)}</td>
  </>
);

/** The ramp page: what the words count, a chart, and the table of the same numbers. */
export function RampPage({ frame, ramp }: { frame: Frame; ramp: Ramp }) {
  const { days, total } = ramp;
  return (
    <Layout frame={frame}>
      <h1>The ramp</h1>
      <p>Watch this for a couple of weeks in <code>report</code> mode: when what would have blocked is what you want blocked and the time added is acceptable, change one word to <code>enforce</code>. Last 28 days, merge requests only (runs on a branch other than the default one), UTC.</p>
      <dl class="facts ramp-words">
        <dt>Merge requests</dt><dd>merge requests (known by their branch) with at least one run that reached the gate</dd>
        <dt>Runs</dt><dd>their runs that reached the gate (a run is all its shards)</dd>
        <dt>Would have blocked</dt><dd>of those runs, the ones whose gate failed a new test: it blocked in enforce mode, or would have in report mode</dd>
      </dl>
      <p>The same counts as <code>verdict-api telemetry</code>'s <code>ramp-per-day</code> (one query, <code>clickhouse/queries/ramp-per-day.sql</code>).</p>
      {days.length === 0 ? <p>No gated merge request yet.</p> : <RampChart days={days} />}
      <div class="table-scroll">
        <table>
          <thead><tr><th scope="col">Day</th><th scope="col" class="num">Merge requests</th><th scope="col" class="num">Runs</th><th scope="col" class="num">Would have blocked</th><th scope="col" class="num">Candidates stressed</th><th scope="col" class="num">Guards fired</th><th scope="col" class="num">Time the gate added</th></tr></thead>
          <tbody>
            {days.map((d) => <tr><td data-label="Day">{d.day}</td><Cells c={d} /></tr>)}
          </tbody>
          <tfoot><tr><th scope="row">Total (a merge request gated on several days counts once)</th><Cells c={total} /></tr></tfoot>
        </table>
      </div>
    </Layout>
  );
}
