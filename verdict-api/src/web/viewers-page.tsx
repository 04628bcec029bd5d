// A project's viewer credentials: listed (never shown again), named, created (shown once) and
// revoked, with the audit of every change.
import type { AccessAuditEntry } from '../accounts/access-audit.js';
import type { ViewerInfo } from '../accounts/viewer-credentials.js';
import { AccessAuditTable } from './access-audit-table.js';
import { Csrf, Layout, type Frame } from './layout.js';

/** The viewers page; `created` is a credential just issued, shown this once. */
export function ViewersPage({ frame, viewers, audit, created, error }: { frame: Frame; viewers: ViewerInfo[]; audit: AccessAuditEntry[]; created?: { name: string; credential: string }; error?: string }) {
  const base = `/projects/${encodeURIComponent(frame.project!)}`;
  return (
    <Layout frame={frame}>
      <h1>Viewer credentials</h1>
      <p>
        A viewer credential signs in to this project's pages (and calls the API's read routes) without the account's admin credential: the runs, each run's
        page, the test cases, the flaky tests, the quarantine list and the ramp. It changes nothing: settings, quarantine, webhooks, tokens and viewers need an
        admin, and it never uploads a run or asks the verdict. It opens this project only. Give one to each developer or team, so that one can be revoked
        alone; revoking it ends its sessions at once. Only its hash is stored.
      </p>
      {error && <p class="error" role="alert">{error}</p>}
      {created && (
        <p class="notice" role="status">New viewer credential <strong>{created.name}</strong>: <code id="new-viewer">{created.credential}</code>. Copy it now: it is not shown again.</p>
      )}
      <table>
        <thead><tr><th scope="col">Name</th><th scope="col">Id</th><th scope="col">Created (UTC)</th><th scope="col">State</th><th scope="col">Action</th></tr></thead>
        <tbody>
          {viewers.map((v) => (
            <tr><td>{v.name || '—'}</td><td><code>{v.viewerId}</code></td><td>{v.createdAt}</td>
              <td>{v.revoked ? <span class="badge muted">revoked</span> : <span class="badge ok">active</span>}</td>
              <td>{!v.revoked && <form class="inline" method="post" action={`${base}/viewers/${v.viewerId}/revoke`}><Csrf token={frame.csrf!} /><button type="submit">Revoke</button></form>}</td></tr>
          ))}
        </tbody>
      </table>
      <h2>Create a viewer credential</h2>
      <form class="stack" method="post" action={`${base}/viewers`}>
        <Csrf token={frame.csrf!} />
        <label>Name (whom it is for) <input name="name" required maxlength={256} placeholder="team-checkout" /></label>
        <button type="submit">Create viewer credential</button>
      </form>
      <h2>Changes</h2>
      <AccessAuditTable audit={audit} what="viewer credential" />
    </Layout>
  );
}
