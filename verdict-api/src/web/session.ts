// The dashboard's session handling: the HttpOnly SameSite cookie, the CSRF token of the session
// on every form, and an Origin check on every POST (including sign-in, before any session).
import { timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { SESSION_TTL_MS } from '../accounts/sessions.js';

/** The session cookie's name. */
export const COOKIE = 'sg_session';

/**
 * Whether the browser reaches the dashboard over https: the request itself, or the public URL
 * (behind a TLS proxy the server speaks http, and the public URL says what the browser sees).
 */
export function overHttps(c: Context, publicUrl?: string): boolean {
  return new URL(c.req.url).protocol === 'https:' || (publicUrl !== undefined && new URL(publicUrl).protocol === 'https:');
}

/** Sets the session cookie (HttpOnly, SameSite=Lax, Secure over https, expiring with the session). */
export function setSessionCookie(c: Context, secret: string, expiresAt: Date, publicUrl?: string): void {
  setCookie(c, COOKIE, secret, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: overHttps(c, publicUrl),
    path: '/',
    expires: expiresAt,
    maxAge: Math.floor(SESSION_TTL_MS / 1000),
  });
}

/** The cookie's secret, if any. */
export function sessionSecret(c: Context): string | undefined {
  return getCookie(c, COOKIE);
}

/** Clears the cookie. */
export function clearSessionCookie(c: Context, publicUrl?: string): void {
  deleteCookie(c, COOKIE, { path: '/', httpOnly: true, sameSite: 'Lax', secure: overHttps(c, publicUrl) });
}

/**
 * Whether a POST comes from the dashboard itself: an Origin header (or, without one, a Referer)
 * must name this server (or `publicUrl`); a request with neither is refused as well.
 */
export function sameOrigin(c: Context, publicUrl?: string): boolean {
  const allowed = new Set([new URL(c.req.url).origin, ...(publicUrl ? [new URL(publicUrl).origin] : [])]);
  const host = c.req.header('Host');
  if (host) allowed.add(`${new URL(c.req.url).protocol}//${host}`);
  const origin = c.req.header('Origin');
  if (origin) return allowed.has(origin);
  const referer = c.req.header('Referer');
  if (!referer) return false;
  try {
    return allowed.has(new URL(referer).origin);
  } catch {
    return false;
  }
}

/** Constant-time comparison of the submitted CSRF token with the session's. */
export function csrfMatches(submitted: unknown, expected: string): boolean {
  if (typeof submitted !== 'string' || submitted.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(submitted), Buffer.from(expected));
}
