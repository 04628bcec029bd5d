// The sign-in page: an account's admin credential, or a project's viewer credential, opens a session.
import { Layout } from './layout.js';

/** The sign-in form, with an error when the last attempt failed; `next` (a path of this dashboard) is where it lands. */
export function SignInPage({ error, next }: { error?: string; next?: string | null }) {
  return (
    <Layout frame={{ title: 'Sign in' }}>
      <h1>Sign in</h1>
      {error && <p class="error" role="alert">{error}</p>}
      <form class="stack" method="post" action="/sign-in">
        {next && <input type="hidden" name="next" value={next} />}
        <label>
          Admin credential or viewer credential
          <input type="password" name="credential" autocomplete="current-password" required placeholder="sga_… or sgv_…" />
        </label>
        <p>
          A viewer credential (<code>sgv_…</code>, from your project's admin) reads the project's runs, test cases and flaky tests. An account's admin
          credential (<code>sga_…</code>) also changes settings, quarantine, webhooks and tokens. A project's CI token cannot sign in.
        </p>
        <button type="submit">Sign in</button>
      </form>
    </Layout>
  );
}

/** A page that says what went wrong (not found, forbidden, bad form). */
export function MessagePage({ title, message, account, csrf, viewer }: { title: string; message: string; account?: string; csrf?: string; viewer?: boolean }) {
  return (
    <Layout frame={{ title, ...(account ? { account } : {}), ...(csrf ? { csrf } : {}), ...(viewer ? { viewer } : {}) }}>
      <h1>{title}</h1>
      <p class="error">{message}</p>
      <p><a href="/projects">Back to your projects</a></p>
    </Layout>
  );
}
