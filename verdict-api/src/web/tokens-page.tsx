// A project's CI tokens: listed (never shown again), named, created (shown once) and revoked.
import type { TokenInfo } from '../accounts/tokens.js';
import { Csrf, Layout, type Frame } from './layout.js';

/** The tokens page; `created` is a token just issued, shown this once. */
export function TokensPage({ frame, tokens, created }: { frame: Frame; tokens: TokenInfo[]; created?: { name: string; token: string } }) {
  const base = `/projects/${encodeURIComponent(frame.project!)}`;
  return (
    <Layout frame={frame}>
      <h1>CI tokens</h1>
      <p>A CI token uploads runs, asks the verdict, uploads the gate and reads the quarantine list, and nothing else. Only its hash is stored.</p>
      {created && (
        <p class="notice" role="status">New token <strong>{created.name}</strong>: <code id="new-token">{created.token}</code>. Copy it now: it is not shown again.</p>
      )}
      <table>
        <thead><tr><th scope="col">Name</th><th scope="col">Id</th><th scope="col">Created (UTC)</th><th scope="col">State</th><th scope="col">Action</th></tr></thead>
        <tbody>
          {tokens.map((t) => (
            <tr><td>{t.name || '—'}</td><td><code>{t.tokenId}</code></td><td>{t.createdAt}</td>
              <td>{t.revoked ? <span class="badge muted">revoked</span> : <span class="badge ok">active</span>}</td>
              <td>{!t.revoked && <form class="inline" method="post" action={`${base}/tokens/${t.tokenId}/revoke`}><Csrf token={frame.csrf!} /><button type="submit">Revoke</button></form>}</td></tr>
          ))}
        </tbody>
      </table>
      <h2>Create a token</h2>
      <form class="stack" method="post" action={`${base}/tokens`}>
        <Csrf token={frame.csrf!} />
        <label>Name <input name="name" required maxlength={256} placeholder="github-actions" /></label>
        <button type="submit">Create token</button>
      </form>
    </Layout>
  );
}
