// The account's projects.
import type { Project } from '../accounts/projects.js';
import { Layout, type Frame } from './layout.js';

/** The list of the signed-in account's projects. */
export function ProjectsPage({ frame, projects, entitled }: { frame: Frame; projects: Project[]; entitled: boolean }) {
  return (
    <Layout frame={frame}>
      <h1>Projects</h1>
      <p>Stress gate entitlement: {entitled ? <span class="badge ok">entitled</span> : <span class="badge muted">not entitled</span>}</p>
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
