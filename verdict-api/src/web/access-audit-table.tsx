// The audit of a project's access (CI tokens, viewer credentials created and revoked), as a table.
import type { AccessAuditEntry } from '../accounts/access-audit.js';

/** The audit table, newest first; `what` names the kind in the empty case. */
export function AccessAuditTable({ audit, what }: { audit: AccessAuditEntry[]; what: string }) {
  if (audit.length === 0) return <p>No {what} created or revoked yet.</p>;
  return (
    <table>
      <thead><tr><th scope="col">When (UTC)</th><th scope="col">Change</th><th scope="col">Name</th><th scope="col">Id</th><th scope="col">Who</th></tr></thead>
      <tbody>
        {audit.map((a) => (
          <tr><td>{a.changedAt}</td><td>{a.action}{a.kind === 'token' ? ` (${a.scope})` : ''}</td><td>{a.name || '—'}</td><td><code>{a.id}</code></td><td><code>{a.actor}</code></td></tr>
        ))}
      </tbody>
    </table>
  );
}
