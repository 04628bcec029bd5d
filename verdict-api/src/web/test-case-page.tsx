// A test case page: identity, first seen, whether the gate calls it new, organic flakiness and
// stress findings labelled apart, its flaky mark and history, its quarantine with the controls to
// change it, and its outcomes over its recent runs (a chart and the same runs as a table).
import type { OutcomeHistory } from '../test-case/outcome-history.js';
import type { TestCaseHistory } from '../test-case/test-case-history.js';
import type { TestCasePage } from '../test-case/test-case-page.js';
import { StatusBadge } from './badges.js';
import { Csrf, Layout, type Frame } from './layout.js';
import { TestHistorySection } from './test-history-section.js';

/** The test case page. */
export function TestCasePageView({ frame, page, history, outcomes, notice }: { frame: Frame; page: TestCasePage; history: TestCaseHistory; outcomes: OutcomeHistory; notice?: string }) {
  const base = `/projects/${encodeURIComponent(frame.project!)}`;
  const q = page.quarantine;
  return (
    <Layout frame={frame}>
      <h1>{page.suite}.{page.name}</h1>
      {notice && <p class="notice" role="status">{notice}</p>}
      <dl class="facts">
        <dt>Module</dt><dd><code>{page.module}</code></dd>
        <dt>Suite</dt><dd><code>{page.suite}</code></dd>
        <dt>Name</dt><dd><code>{page.name}</code></dd>
        <dt>Test case id</dt><dd><code>{page.testCaseId}</code></dd>
        <dt>First seen (UTC)</dt><dd>{history.firstSeen ?? 'never ran'}</dd>
        <dt>The gate calls it new</dt><dd>{history.gateCallsNew ? <span class="badge info">yes: never ran in CI on the default branch</span> : 'no: it has run in CI on the default branch'}</dd>
        <dt>Flaky mark</dt><dd>{page.mark.marked ? <span class="badge warn">marked flaky</span> : <span class="badge ok">not marked</span>}{page.mark.reason && ` (${page.mark.reason})`}</dd>
        <dt>Quarantine</dt><dd><span class="quarantine-state"><StatusBadge status={q.state} /></span>{q.state !== 'enabled' && ` by ${q.owner}: ${q.reason}${q.expiresAt ? `, until ${q.expiresAt} UTC` : ''}`}</dd>
      </dl>

      <TestHistorySection history={outcomes} base={base} />

      <section aria-labelledby="quarantine">
        <h2 id="quarantine">Quarantine</h2>
        {frame.viewer ? <p>You are signed in as a viewer: an account admin changes the quarantine.</p> : <>
        <form class="stack" method="post" action={`${base}/test-cases/${page.testCaseId}/quarantine`}>
          <Csrf token={frame.csrf!} />
          <label>State
            <select name="state">
              <option value="muted" selected={q.state !== 'skipped'}>muted: runs, its failure is masked</option>
              <option value="skipped" selected={q.state === 'skipped'}>skipped: does not run</option>
            </select>
          </label>
          <label>Owner <input name="owner" required maxlength={256} value={q.owner ?? ''} /></label>
          <label>Reason <input name="reason" required maxlength={4096} value={q.state !== 'enabled' ? (q.reason ?? '') : ''} /></label>
          <label>Issue link (optional) <input name="issueUrl" type="url" value={q.issueUrl ?? ''} /></label>
          <label>Expires (optional, UTC) <input name="expiresAt" type="datetime-local" /></label>
          <button type="submit" name="action" value="quarantine">{q.state === 'enabled' ? 'Quarantine' : 'Update quarantine'}</button>
        </form>
        {q.state !== 'enabled' && (
          <form class="stack" method="post" action={`${base}/test-cases/${page.testCaseId}/quarantine`}>
            <Csrf token={frame.csrf!} />
            <input type="hidden" name="action" value="unquarantine" />
            <label>Reason for unquarantining <input name="reason" required maxlength={4096} /></label>
            <button type="submit">Unquarantine</button>
          </form>
        )}
        </>}
        <h3>Quarantine history</h3>
        {page.quarantineAudit.length === 0 ? <p>Never quarantined.</p> : (
          <table>
            <thead><tr><th scope="col">When (UTC)</th><th scope="col">From</th><th scope="col">To</th><th scope="col">Who</th><th scope="col">Owner</th><th scope="col">Reason</th></tr></thead>
            <tbody>{page.quarantineAudit.map((a) => <tr><td>{a.changedAt}</td><td>{a.from}</td><td>{a.to}</td><td><code>{a.actor}</code></td><td>{a.owner}</td><td>{a.reason}</td></tr>)}</tbody>
          </table>
        )}
      </section>

      <section aria-labelledby="findings">
        <h2 id="findings">Flakiness</h2>
        <h3>Organic flakiness (the build repeated it and the repetitions disagreed)</h3>
        {history.organic.length === 0 ? <p>None.</p> : <Findings rows={history.organic} base={base} />}
        <h3>Stress gate findings (new test, deliberately repeated in fresh JVMs; never marks it flaky)</h3>
        {history.stress.length === 0 ? <p>None.</p> : <Findings rows={history.stress} base={base} />}
        <h3>Flaky mark history</h3>
        {page.markHistory.length === 0 ? <p>Never marked.</p> : (
          <table>
            <thead><tr><th scope="col">When (UTC)</th><th scope="col">Marked</th><th scope="col">Reason</th></tr></thead>
            <tbody>{page.markHistory.map((m) => <tr><td>{m.changedAt}</td><td>{m.marked ? 'marked flaky' : 'cleared'}</td><td>{m.reason}</td></tr>)}</tbody>
          </table>
        )}
      </section>

    </Layout>
  );
}

function Findings({ rows, base }: { rows: { runId: string; failed: number; repetitions: number }[]; base: string }) {
  return (
    <table>
      <thead><tr><th scope="col">Run</th><th scope="col">Failed</th></tr></thead>
      <tbody>{rows.map((f) => <tr><td><a href={`${base}/runs/${encodeURIComponent(f.runId)}`}><code>{f.runId.slice(0, 13)}</code></a></td><td>{f.failed} of {f.repetitions}</td></tr>)}</tbody>
    </table>
  );
}
