// The run page: its test cases with the New badge, failures, the flaky section (organic and
// stress findings under their own labels; a timing-sensitive test as such; the new invocations of
// one method as one row) and the gate's verdict with a strip per candidate, each failed repetition
// of which opens its failure (gate-candidates.tsx, failure-evidence.tsx).
import type { StressParameters } from '../contract.js';
import type { GateBadge } from '../run-page/list-runs.js';
import type { FlakyFinding, RunPage } from '../run-page/run-page.js';
import { flakyRows, groupLine, type InvocationGroup } from '../run-page/invocation-groups.js';
import { findingTiming, timingSensitiveLine, timingSensitiveVerdict } from '../run-page/timing-sensitive.js';
import { GateBadgeView, ms, StatusBadge } from './badges.js';
import { GateCandidatesTable } from './gate-candidates.js';
import { Layout, type Frame } from './layout.js';

const GUARD_WORDS: Record<string, string> = { premise: 'premise', bulk_change: 'bulk change', candidate_cap: 'candidate cap', ceiling: 'wall-clock ceiling' };

/** The run page. */
export function RunPageView({ frame, page, badge, stress }: { frame: Frame; page: RunPage; badge: GateBadge; stress: StressParameters }) {
  const base = `/projects/${encodeURIComponent(frame.project!)}`;
  const failed = page.testCases.filter((t) => t.status === 'failure');
  const newCount = page.testCases.filter((t) => t.isNew).length;
  const link = (id: string, label: string) => <a href={`${base}/test-cases/${id}`}>{label}</a>;
  return (
    <Layout frame={frame}>
      <h1>Run <code>{page.runId}</code></h1>
      <dl class="facts">
        <dt>Branch</dt><dd>{page.branch}</dd>
        <dt>Commit</dt><dd><code>{page.commit || '—'}</code></dd>
        <dt>Status</dt><dd><StatusBadge status={page.status} /></dd>
        <dt>Duration</dt><dd>{ms(page.durationMs)}</dd>
        <dt>Started (UTC)</dt><dd>{page.startedAt}</dd>
        <dt>Shards</dt><dd>{page.shards}</dd>
        <dt>CI</dt><dd>{page.isCi ? 'yes' : 'no'}</dd>
        <dt>Gate</dt><dd><GateBadgeView badge={badge} /></dd>
      </dl>

      <section aria-labelledby="gate">
        <h2 id="gate">The stress gate's verdict</h2>
        {page.gate ? <GateBlock gate={page.gate} stress={stress} link={link} /> : <p>The gate did not run on this run (no verdict uploaded).</p>}
      </section>

      <section aria-labelledby="failures">
        <h2 id="failures">Failures ({failed.length})</h2>
        {failed.length === 0 ? <p>No test failed.</p> : (
          <table>
            <thead><tr><th scope="col">Test</th><th scope="col">Module</th><th scope="col">Quarantine</th></tr></thead>
            <tbody>{failed.map((t) => <tr><td>{link(t.testCaseId, `${t.suite}.${t.name}`)}</td><td><code>{t.module}</code></td><td>{t.muted ? <span class="badge muted">muted: failure masked</span> : '—'}</td></tr>)}</tbody>
          </table>
        )}
      </section>

      <section aria-labelledby="flaky">
        <h2 id="flaky">Flaky tests ({page.flaky.length})</h2>
        {page.flaky.length === 0 ? <p>No test disagreed with itself in this run.</p> : (
          <table>
            <thead><tr><th scope="col">Test</th><th scope="col">Module</th><th scope="col">Disagreed</th><th scope="col">Found by</th></tr></thead>
            <tbody>{flakyRows(page).map((row) => (row.group ? <FlakyGroupRow g={row.group} /> : <FlakyRow f={row.finding} mode={page.gate?.mode} />))}</tbody>
          </table>
        )}
      </section>

      <section aria-labelledby="cases">
        <h2 id="cases">Test cases ({page.testCases.length}, {newCount} new)</h2>
        <table>
          <thead><tr><th scope="col">Test</th><th scope="col">Module</th><th scope="col">Status</th><th scope="col" class="num">Duration</th><th scope="col">Badges</th></tr></thead>
          <tbody>
            {page.testCases.map((t) => (
              <tr>
                <td>{link(t.testCaseId, `${t.suite}.${t.name}`)}</td>
                <td><code>{t.module}</code></td>
                <td><StatusBadge status={t.status} /></td>
                <td class="num">{ms(t.durationMs)}</td>
                <td>{t.isNew && <span class="badge info">New</span>} {t.muted && <span class="badge muted">muted</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </Layout>
  );
}

function GateBlock({ gate, stress, link }: { gate: NonNullable<RunPage['gate']>; stress: StressParameters; link: (id: string, label: string) => unknown }) {
  const slowest = stress.curve[stress.curve.length - 1]!;
  const ran = gate.outcome !== 'skipped' && gate.outcome !== 'not_entitled';
  return (
    <div>
      <dl class="facts" aria-label="Gate verdict">
        <dt>Mode</dt><dd>{gate.mode}</dd>
        <dt>Ran</dt><dd>{ran ? 'yes' : 'no'} (outcome: {gate.outcome.replaceAll('_', ' ')})</dd>
        <dt>Candidates examined</dt><dd>{gate.candidatesExamined}</dd>
        <dt>Stressed</dt><dd>{gate.stressed}</dd>
        <dt>Excluded</dt><dd>{gate.excluded}{gate.excluded > 0 && ` (too slow: over ${ms(slowest.maxDurationMs)}, beyond the repetition curve)`}</dd>
        <dt>Not stressed</dt><dd>{gate.notStressed}</dd>
        <dt>Guard</dt><dd>{gate.guard ? <span><span class="badge info">{GUARD_WORDS[gate.guard.name] ?? gate.guard.name} fired</span> count {gate.guard.count}: {gate.guard.reason}</span> : 'none fired'}</dd>
        <dt>Blocked</dt><dd>{gate.blocked ? <span class="badge bad">blocked the merge request</span> : gate.wouldHaveBlocked ? <span class="badge warn">would have blocked (report mode)</span> : <span class="badge ok">did not block</span>}</dd>
        <dt>Shards with a verdict</dt><dd>{gate.shards}</dd>
        <dt>Time the gate added</dt><dd>{gate.stressPassMs === null ? 'not recorded' : ms(gate.stressPassMs)}</dd>
      </dl>
      {gate.candidates.length > 0 && <GateCandidatesTable candidates={gate.candidates} mode={gate.mode} link={link} />}
    </div>
  );
}

function Caught() {
  return <span class="badge warn">caught by the stress gate: new test, deliberately repeated in fresh JVMs</span>;
}

/** One test of the flaky section; a timing-sensitive one says it failed side by side and passed alone, and whether it blocked. */
function FlakyRow({ f, mode }: { f: FlakyFinding; mode: string | undefined }) {
  const timing = findingTiming(f);
  return (
    <tr>
      <td>{f.suite}.{f.name}</td>
      <td><code>{f.module}</code></td>
      <td>{timing ? timingSensitiveLine(timing) : `failed ${f.failed} of ${f.repetitions}`}</td>
      <td>
        {f.caughtBy === 'stress_gate' ? <Caught /> : <span class="badge info">organic: the build repeated it in this run</span>}
        {timing && <> <span class={`badge ${timing.blocking ? 'bad' : 'info'}`}>{timingSensitiveVerdict(timing, mode)}</span></>}
      </td>
    </tr>
  );
}

/** The new invocations of one method the gate caught: one row of the flaky section. */
function FlakyGroupRow({ g }: { g: InvocationGroup }) {
  return (
    <tr data-group={g.method}>
      <td>{g.suite}.{g.method}</td>
      <td><code>{g.module}</code></td>
      <td>{groupLine(g, (index) => index)}</td>
      <td><Caught /></td>
    </tr>
  );
}
