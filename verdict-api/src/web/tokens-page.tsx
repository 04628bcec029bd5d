// A project's CI tokens: listed (never shown again), named, created (shown once) and revoked.
import type { AccessAuditEntry } from '../accounts/access-audit.js';
import type { TokenInfo } from '../accounts/tokens.js';
import { AccessAuditTable } from './access-audit-table.js';
import { Csrf, Layout, type Frame } from './layout.js';

const SCOPE_WORDS: Record<TokenInfo['scope'], string> = { 'default-branch': 'default branch', 'merge-request': 'merge requests' };

/** The tokens page; `created` is a token just issued, shown this once. */
export function TokensPage({ frame, tokens, audit, created, error }: { frame: Frame; tokens: TokenInfo[]; audit: AccessAuditEntry[]; created?: { name: string; token: string; scope: TokenInfo['scope'] }; error?: string }) {
  const base = `/projects/${encodeURIComponent(frame.project!)}`;
  return (
    <Layout frame={frame}>
      <h1>CI tokens</h1>
      <p>A CI token uploads runs, asks the verdict, uploads the gate and reads the quarantine list, and nothing else. Only its hash is stored.</p>
      <p>
        A <strong>default-branch</strong> token is for the jobs of protected branches only (a GitHub environment, a GitLab protected variable): its runs are the
        default branch's history, which decides what is new. A <strong>merge-request</strong> token is for every other job: it uploads its own runs and gate
        results, and its runs never count as history, whatever branch they name.
      </p>
      {error && <p class="error" role="alert">{error}</p>}
      {created && (
        <p class="notice" role="status">New {SCOPE_WORDS[created.scope]} token <strong>{created.name}</strong>: <code id="new-token">{created.token}</code>. Copy it now: it is not shown again.</p>
      )}
      <table>
        <thead><tr><th scope="col">Name</th><th scope="col">For</th><th scope="col">Id</th><th scope="col">Created (UTC)</th><th scope="col">State</th><th scope="col">Action</th></tr></thead>
        <tbody>
          {tokens.map((t) => (
            <tr><td>{t.name || '—'}</td><td>{SCOPE_WORDS[t.scope]}</td><td><code>{t.tokenId}</code></td><td>{t.createdAt}</td>
              <td>{t.revoked ? <span class="badge muted">revoked</span> : <span class="badge ok">active</span>}</td>
              <td>{!t.revoked && <form class="inline" method="post" action={`${base}/tokens/${t.tokenId}/revoke`}><Csrf token={frame.csrf!} /><button type="submit">Revoke</button></form>}</td></tr>
          ))}
        </tbody>
      </table>
      <h2>Create a token</h2>
      <form class="stack" method="post" action={`${base}/tokens`}>
        <Csrf token={frame.csrf!} />
        <label>Name <input name="name" required maxlength={256} placeholder="github-actions" /></label>
        <fieldset>
          <legend>For</legend>
          <label><input type="radio" name="scope" value="merge-request" required /> merge requests (every job that is not a protected branch's)</label>
          <label><input type="radio" name="scope" value="default-branch" required /> the default branch (protected-branch jobs only)</label>
        </fieldset>
        <button type="submit">Create token</button>
      </form>
      <h2>Changes</h2>
      <AccessAuditTable audit={audit} what="token" />
    </Layout>
  );
}
