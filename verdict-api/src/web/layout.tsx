// The page frame: a header with the project's navigation and the sign-out form, then the page.
import type { Child } from 'hono/jsx';
import { SearchForm } from './search-form.js';

/** What every page's frame needs. */
export interface Frame {
  title: string;
  /** The signed-in account's name; absent on the sign-in page. */
  account?: string;
  /** The project whose navigation is shown. */
  project?: string;
  csrf?: string;
  /** Signed in with a viewer credential: the navigation leaves out the admin's pages, forms are not shown. */
  viewer?: boolean;
}

/** The HTML document around a page. */
export function Layout({ frame, children }: { frame: Frame; children?: Child }) {
  const p = frame.project ? `/projects/${encodeURIComponent(frame.project)}` : null;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{frame.title} · Stress gate</title>
        <link rel="stylesheet" href="/static/style.css" />
      </head>
      <body>
        <header class="top">
          <a href="/projects"><strong>Stress gate</strong></a>
          {p && (
            <nav aria-label="Project">
              <a href={`${p}/runs`}>Runs</a>
              <a href={`${p}/flaky-tests`}>Flaky tests</a>
              <a href={`${p}/quarantine`}>Quarantine</a>
              <a href={`${p}/ramp`}>Ramp</a>
              {!frame.viewer && (
                <>
                  <a href={`${p}/settings`}>Settings</a>
                  <a href={`${p}/webhooks`}>Webhooks</a>
                  <a href={`${p}/tokens`}>Tokens</a>
                  <a href={`${p}/viewers`}>Viewers</a>
                </>
              )}
            </nav>
          )}
          {p && <SearchForm base={p} compact />}
          {frame.account && (
            <form method="post" action="/sign-out">
              <input type="hidden" name="csrf" value={frame.csrf ?? ''} />
              <span>{frame.account}{frame.viewer && ' (viewer)'} </span>
              <button type="submit">Sign out</button>
            </form>
          )}
        </header>
        <main>{children}</main>
      </body>
    </html>
  );
}

/** The hidden CSRF field every form carries. */
export function Csrf({ token }: { token: string }) {
  return <input type="hidden" name="csrf" value={token} />;
}

/** Whether a stored URL may be a link's href: http or https only (one stored before that check is shown as text). */
export function isHttpUrl(url: string): boolean {
  return /^https?:\/\//i.test(url);
}
