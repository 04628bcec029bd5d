// A project's test runs: branch, commit, status, duration and the gate's outcome as a badge.
import type { RunSummary } from '../run-page/list-runs.js';
import { GateBadgeView, ms, StatusBadge } from './badges.js';
import { Layout, type Frame } from './layout.js';

/** The runs list. */
export function RunsPage({ frame, runs }: { frame: Frame; runs: RunSummary[] }) {
  const base = `/projects/${encodeURIComponent(frame.project!)}`;
  return (
    <Layout frame={frame}>
      <h1>Test runs of {frame.project}</h1>
      {runs.length === 0 ? (
        <p>No runs uploaded yet.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Run</th><th scope="col">Branch</th><th scope="col">Commit</th><th scope="col">Status</th>
              <th scope="col" class="num">Duration</th><th scope="col" class="num">Test cases</th><th scope="col">Gate</th><th scope="col">Started (UTC)</th>
            </tr>
          </thead>
          <tbody>
            {runs.map((r) => (
              <tr>
                <td><a href={`${base}/runs/${encodeURIComponent(r.runId)}`}><code>{r.runId.slice(0, 13)}</code></a></td>
                <td>{r.branch}</td>
                <td><code>{r.commit.slice(0, 12)}</code></td>
                <td><StatusBadge status={r.status} /></td>
                <td class="num">{ms(r.durationMs)}</td>
                <td class="num">{r.testCases}{r.shards > 1 ? ` (${r.shards} shards)` : ''}</td>
                <td><GateBadgeView badge={r.gate} /></td>
                <td>{r.startedAt}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Layout>
  );
}
