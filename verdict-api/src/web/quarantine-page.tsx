// The project's quarantined tests (muted or skipped, unexpired).
import type { QuarantinedTest } from '../contract.js';
import { StatusBadge } from './badges.js';
import { isHttpUrl, Layout, type Frame } from './layout.js';

/** The quarantine page. */
export function QuarantinePage({ frame, tests }: { frame: Frame; tests: QuarantinedTest[] }) {
  const base = `/projects/${encodeURIComponent(frame.project!)}`;
  return (
    <Layout frame={frame}>
      <h1>Quarantine</h1>
      <p>Muted tests run with their failure masked (a muted new test cannot fail the gate); skipped tests do not run. Change one from its test case page.</p>
      {tests.length === 0 ? <p>No test is quarantined.</p> : (
        <table>
          <thead><tr><th scope="col">Test</th><th scope="col">Module</th><th scope="col">State</th><th scope="col">Owner</th><th scope="col">Reason</th><th scope="col">Expires (UTC)</th><th scope="col">Changed by</th></tr></thead>
          <tbody>
            {tests.map((t) => (
              <tr>
                <td><a href={`${base}/test-cases/${t.testCaseId}`}>{t.suite}.{t.name}</a></td><td><code>{t.module}</code></td>
                <td><StatusBadge status={t.state} /></td><td>{t.owner}</td><td>{t.reason}{t.issueUrl && <span> ({isHttpUrl(t.issueUrl) ? <a href={t.issueUrl}>issue</a> : <>issue: {t.issueUrl}</>})</span>}</td>
                <td>{t.expiresAt ?? 'never'}</td><td><code>{t.changedBy}</code> at {t.changedAt}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Layout>
  );
}
