// Where sign-in sends the browser afterwards: the page it asked for, given as `next`. Only a path
// of this dashboard is followed, never another origin (an open redirect would let a link that
// names this server send a person, just signed in, to a look-alike page).

/** The longest `next` followed. */
const MAX_NEXT = 2048;
const BASE = 'http://dashboard.invalid';

/**
 * The same-origin path (with its query) that `value` names, or null for anything else: absent or
 * too long, not starting with one `/`, holding a backslash or a control character (browsers drop
 * tabs and newlines, and read `\` as `/`: `/\evil.example` is `//evil.example`), or a path that
 * normalises to `//…` (`/.//evil.example`), to the sign-in page itself, or under `/api/`.
 */
export function safeNextPath(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_NEXT) return null;
  if (!value.startsWith('/') || value.startsWith('//') || /[\\\u0000-\u001f\u007f]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE || !url.pathname.startsWith('/') || url.pathname.startsWith('//')) return null;
  if (url.pathname === '/sign-in' || url.pathname === '/sign-out' || url.pathname.startsWith('/api/')) return null;
  return `${url.pathname}${url.search}`;
}

/** The sign-in page's address that comes back to `path` (plain `/sign-in` for the default landing page). */
export function signInPathFor(path: string): string {
  const next = safeNextPath(path);
  return next && next !== '/' && next !== '/projects' ? `/sign-in?next=${encodeURIComponent(next)}` : '/sign-in';
}
