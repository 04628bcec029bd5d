// The project's flaky tests: first the flakiness that counts for attribution (organic evidence
// only) and its marks, then, in their own section, the new tests the stress gate caught before
// merge, which never count there (DESIGN: consumers that attribute never see stress repetitions;
// consumers that describe a run show them). An empty first list says where the catches are.
import type { FlakyTest } from '../flakiness/flaky-tests.js';
import type { GateCatch } from '../run-page/gate-catches.js';
import { Layout, type Frame } from './layout.js';

const EFFECT: Record<GateCatch['effect'], [string, string]> = {
  blocked: ['blocked its merge request', 'bad'],
  would_have_blocked: ['would have blocked (report mode)', 'warn'],
  not_blocking: ['did not block', 'muted'],
};

/** The flaky tests page. */
export function FlakyTestsPage({ frame, windowDays, tests, catches }: { frame: Frame; windowDays: number; tests: FlakyTest[]; catches: { catches: GateCatch[]; total: number } }) {
  const base = `/projects/${encodeURIComponent(frame.project!)}`;
  const caught = catches.total;
  const tests1 = caught === 1 ? '1 new test' : `${caught} new tests`;
  return (
    <Layout frame={frame}>
      <h1>Flaky tests</h1>
      <p>Organic evidence in the last {windowDays} days: runs whose repetitions disagreed, or a commit with a failing and a passing CI run. This is the flakiness that marks, alerts and quarantines; the stress gate's catches never count here.</p>
      {tests.length === 0 ? (
        <p class="empty">{caught === 0 ? 'No flaky tests: no test disagreed with itself in the last ' + windowDays + ' days.' : `No flaky tests that count for attribution; the stress gate caught ${tests1} before merge, below.`}</p>
      ) : (
        <table>
          <thead><tr><th scope="col">Test</th><th scope="col">Module</th><th scope="col" class="num">Flaky runs</th><th scope="col" class="num">Flaky commits</th><th scope="col">Last flaky (UTC)</th><th scope="col">Mark</th></tr></thead>
          <tbody>
            {tests.map((t) => (
              <tr>
                <td data-label="Test"><a href={`${base}/test-cases/${t.testCaseId}`}>{t.suite}.{t.name}</a></td><td data-label="Module"><code>{t.module}</code></td>
                <td data-label="Flaky runs" class="num">{t.flakyRuns}</td><td data-label="Flaky commits" class="num">{t.flakyCommits}</td><td data-label="Last flaky (UTC)">{t.lastFlakyAt ?? '—'}</td>
                <td data-label="Mark">{t.markedFlaky ? <span class="badge warn">marked flaky</span> : <span class="badge muted">not marked</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <section aria-labelledby="caught">
        <h2 id="caught">Caught before merge by the stress gate ({caught})</h2>
        <p>New tests that disagreed with themselves when the gate repeated them in fresh JVMs on a merge request, in the last {windowDays} days. A catch describes its run: it never marks a test flaky, alerts or quarantines.</p>
        {caught === 0 ? <p class="empty">The stress gate caught no new test in the last {windowDays} days.</p> : (
          <table>
            <thead><tr><th scope="col">Test</th><th scope="col">Run</th><th scope="col">When (UTC)</th><th scope="col">Failed</th><th scope="col">Gate</th></tr></thead>
            <tbody>
              {catches.catches.map((k) => {
                const [words, tone] = EFFECT[k.effect];
                return (
                  <tr>
                    <td data-label="Test"><a href={`${base}/test-cases/${k.testCaseId}`}>{k.suite}.{k.name}</a> <code>{k.module}</code></td>
                    <td data-label="Run"><a href={`${base}/runs/${encodeURIComponent(k.runId)}`}><code>{k.runId.slice(0, 13)}</code></a> on {k.branch}</td>
                    <td data-label="When (UTC)">{k.at}</td>
                    <td data-label="Failed">{k.timingSensitive ? `${k.failed} of ${k.repetitions} side by side, passed alone: timing-sensitive` : `${k.failed} of ${k.repetitions} repetitions`}</td>
                    <td data-label="Gate"><span class={`badge ${tone}`}>{words}{k.muted && ' (muted)'}</span></td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
        {caught > catches.catches.length && <p>And {caught - catches.catches.length} older ones, not listed.</p>}
      </section>
    </Layout>
  );
}
