// The sign-in page: an account's admin credential opens a session.
import { Layout } from './layout.js';

/** The sign-in form, with an error when the last attempt failed. */
export function SignInPage({ error }: { error?: string }) {
  return (
    <Layout frame={{ title: 'Sign in' }}>
      <h1>Sign in</h1>
      {error && <p class="error" role="alert">{error}</p>}
      <form class="stack" method="post" action="/sign-in">
        <label>
          Admin credential
          <input type="password" name="credential" autocomplete="current-password" required placeholder="sga_…" />
        </label>
        <p>Use your account's admin credential (from <code>verdict-api admin create-admin-credential</code>). A project's CI token cannot sign in.</p>
        <button type="submit">Sign in</button>
      </form>
    </Layout>
  );
}

/** A page that says what went wrong (not found, forbidden, bad form). */
export function MessagePage({ title, message, account, csrf }: { title: string; message: string; account?: string; csrf?: string }) {
  return (
    <Layout frame={{ title, ...(account ? { account } : {}), ...(csrf ? { csrf } : {}) }}>
      <h1>{title}</h1>
      <p class="error">{message}</p>
      <p><a href="/projects">Back to your projects</a></p>
    </Layout>
  );
}
