// The ramp page the RFC asks teams to watch in report mode before switching to enforce.
import type { RampDay } from '../ramp/ramp-per-day.js';
import { ms } from './badges.js';
import { Layout, type Frame } from './layout.js';
import { RampChart } from './ramp-chart.js';

/** The ramp page: a chart and the table of the same numbers. */
export function RampPage({ frame, days }: { frame: Frame; days: RampDay[] }) {
  const total = (k: keyof Omit<RampDay, 'day'>) => days.reduce((n, d) => n + d[k], 0);
  return (
    <Layout frame={frame}>
      <h1>The ramp</h1>
      <p>Watch this for a couple of weeks in <code>report</code> mode: when what would have blocked is what you want blocked and the time added is acceptable, change one word to <code>enforce</code>. Last 28 days, merge-request branches only (UTC).</p>
      {days.length === 0 ? <p>No gated merge request yet.</p> : <RampChart days={days} />}
      <table>
        <thead><tr><th scope="col">Day</th><th scope="col" class="num">Merge requests gated</th><th scope="col" class="num">Candidates stressed</th><th scope="col" class="num">Would have blocked</th><th scope="col" class="num">Guards fired</th><th scope="col" class="num">Time the gate added</th></tr></thead>
        <tbody>
          {days.map((d) => <tr><td>{d.day}</td><td class="num">{d.gatedRuns}</td><td class="num">{d.candidatesStressed}</td><td class="num">{d.wouldHaveBlocked}</td><td class="num">{d.guardsFired}</td><td class="num">{ms(d.addedMs)}</td></tr>)}
        </tbody>
        <tfoot><tr><th scope="row">Total</th><td class="num">{total('gatedRuns')}</td><td class="num">{total('candidatesStressed')}</td><td class="num">{total('wouldHaveBlocked')}</td><td class="num">{total('guardsFired')}</td><td class="num">{ms(total('addedMs'))}</td></tr></tfoot>
      </table>
    </Layout>
  );
}
