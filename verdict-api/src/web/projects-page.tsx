// The account's projects, and its storage against its quota.
import type { Project } from '../accounts/projects.js';
import { amount, QUOTA_SETTINGS, reachedLimits, type StorageQuota, type UsageFigures } from '../limits/storage-quota.js';
import { Layout, type Frame } from './layout.js';

/** The account's storage and its quota, as the projects page shows them. */
export interface StorageShown {
  usage: UsageFigures;
  quota: StorageQuota;
}

/** The list of the signed-in account's projects. */
export function ProjectsPage({ frame, projects, entitled, storage }: { frame: Frame; projects: Project[]; entitled: boolean; storage: StorageShown | null }) {
  return (
    <Layout frame={frame}>
      <h1>Projects</h1>
      <p>Stress gate entitlement: {entitled ? <span class="badge ok">entitled</span> : <span class="badge muted">not entitled</span>}</p>
      {storage && <StorageUsage {...storage} />}
      {projects.length === 0 ? (
        <p>No projects yet. Create one with <code>verdict-api admin create-project</code>.</p>
      ) : (
        <table>
          <thead><tr><th scope="col">Project</th><th scope="col">Default branch</th><th scope="col">Gate mode parameters</th></tr></thead>
          <tbody>
            {projects.map((p) => (
              <tr>
                <td><a href={`/projects/${encodeURIComponent(p.handle)}/runs`}>{p.handle}</a></td>
                <td>{p.defaultBranch ?? <em>not set</em>}</td>
                <td>cap {p.stress.candidateCap}, ceiling {p.stress.ceilingSeconds} s</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Layout>
  );
}

const of = (kind: 'rows' | 'bytes', used: number, limit: number): string => (limit === 0 ? `${amount(kind, used)} (no limit)` : `${amount(kind, used)} of ${amount(kind, limit)}`);

const REACHED: Record<keyof StorageQuota, string> = {
  rowsPerDay: "today's rows: uploads are refused (429) until 00:00 UTC",
  bytesPerDay: "today's bytes: uploads are refused (429) until 00:00 UTC",
  rowsRetained: 'the rows retained: uploads are refused (413) until the operator raises',
  bytesRetained: 'the bytes retained: uploads are refused (413) until the operator raises',
};

/** "Storage today: N rows of M, X MiB of Y MiB; retained: …", and a line for each quota reached. */
function StorageUsage({ usage, quota }: StorageShown) {
  const reached = reachedLimits(quota, usage);
  return (
    <section aria-labelledby="storage-heading">
      <h2 id="storage-heading">Storage</h2>
      <p>
        Storage today ({usage.day}, UTC): {of('rows', usage.today.rows, quota.rowsPerDay)}, {of('bytes', usage.today.bytes, quota.bytesPerDay)}; retained:{' '}
        {of('rows', usage.retained.rows, quota.rowsRetained)}, {of('bytes', usage.retained.bytes, quota.bytesRetained)}.
      </p>
      {reached.map((limit) => (
        <p class="error" role="alert">
          <span class="badge bad">quota reached</span> Storage quota reached: {REACHED[limit]}
          {limit === 'rowsRetained' || limit === 'bytesRetained' ? <> <code>{QUOTA_SETTINGS[limit]}</code>.</> : '.'}
        </p>
      ))}
    </section>
  );
}
