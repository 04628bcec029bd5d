// A browser that has signed in before keeps a signed device cookie, and its failed sign-ins are
// counted on the device rather than on its address: a guesser sharing the address (an office's
// NAT, a proxy) cannot lock out the people who sign in from it. The signing key is this process's
// own, made at start: after a restart, or on another API process, a device counts on its address
// again until its next sign-in.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { overHttps } from './session.js';

const COOKIE = 'sg_device';
const MAX_AGE_SECONDS = 365 * 24 * 3600;

export interface DeviceCookies {
  /** The device id of a valid cookie on the request, or null. */
  read(c: Context): string | null;
  /** Sets the cookie for a browser that just signed in (a new id, or the one it had). */
  remember(c: Context, deviceId: string | null, publicUrl?: string): void;
}

export function deviceCookies(key: Buffer = randomBytes(32)): DeviceCookies {
  const sign = (id: string) => createHmac('sha256', key).update(id).digest('base64url');
  return {
    read(c) {
      const value = getCookie(c, COOKIE);
      if (!value || value.length > 100) return null;
      const [id, signature] = value.split('.');
      if (!id || !signature || !/^[A-Za-z0-9_-]{22}$/.test(id)) return null;
      const expected = Buffer.from(sign(id));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
    },
    remember(c, deviceId, publicUrl) {
      const id = deviceId ?? randomBytes(16).toString('base64url');
      setCookie(c, COOKIE, `${id}.${sign(id)}`, { httpOnly: true, sameSite: 'Lax', secure: overHttps(c, publicUrl), path: '/sign-in', maxAge: MAX_AGE_SECONDS });
    },
  };
}
