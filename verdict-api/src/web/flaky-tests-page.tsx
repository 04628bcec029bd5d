// The project's flaky tests (organic evidence only) and their marks.
import type { FlakyTest } from '../flakiness/flaky-tests.js';
import { Layout, type Frame } from './layout.js';

/** The flaky tests page. */
export function FlakyTestsPage({ frame, windowDays, tests }: { frame: Frame; windowDays: number; tests: FlakyTest[] }) {
  const base = `/projects/${encodeURIComponent(frame.project!)}`;
  return (
    <Layout frame={frame}>
      <h1>Flaky tests</h1>
      <p>Organic evidence in the last {windowDays} days: runs whose repetitions disagreed, or a commit with a failing and a passing CI run. The stress gate's findings never count here.</p>
      {tests.length === 0 ? <p>No flaky tests.</p> : (
        <table>
          <thead><tr><th scope="col">Test</th><th scope="col">Module</th><th scope="col" class="num">Flaky runs</th><th scope="col" class="num">Flaky commits</th><th scope="col">Last flaky (UTC)</th><th scope="col">Mark</th></tr></thead>
          <tbody>
            {tests.map((t) => (
              <tr>
                <td><a href={`${base}/test-cases/${t.testCaseId}`}>{t.suite}.{t.name}</a></td><td><code>{t.module}</code></td>
                <td class="num">{t.flakyRuns}</td><td class="num">{t.flakyCommits}</td><td>{t.lastFlakyAt ?? '—'}</td>
                <td>{t.markedFlaky ? <span class="badge warn">marked flaky</span> : <span class="badge muted">not marked</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Layout>
  );
}
