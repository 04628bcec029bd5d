// The signature a webhook receiver checks: `t=<unix seconds>,v1=<hex HMAC-SHA256>` of
// "<t>.<raw body>" with the webhook's secret. The time is signed with the body, so a captured
// delivery cannot be sent again later: a receiver refuses a signature older than its replay
// window (REPLAY_WINDOW_SECONDS by default) and remembers the deliveryIds it took within it.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The signature header's name. */
export const SIGNATURE_HEADER = 'X-Stress-Gate-Signature';

/** How far a receiver lets a signature's time be from its own clock: 5 minutes. */
export const REPLAY_WINDOW_SECONDS = 300;

const hmac = (secret: string, timestamp: number, rawBody: string) => createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest('hex');

/** The signature header's value for `rawBody` sent at `timestamp` (unix seconds). */
export function signBody(secret: string, rawBody: string, timestamp: number): string {
  return `t=${timestamp},v1=${hmac(secret, timestamp, rawBody)}`;
}

/**
 * Whether `signature` is the body's, made within `toleranceSeconds` of `nowSeconds` (constant-time
 * comparison): what a receiver does. A changed body, time or secret fails, and so does a replay
 * after the window.
 */
export function verifySignature(secret: string, rawBody: string, signature: string | undefined, nowSeconds = Math.floor(Date.now() / 1000), toleranceSeconds = REPLAY_WINDOW_SECONDS): boolean {
  const match = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(signature ?? '');
  if (!match) return false;
  const timestamp = Number(match[1]);
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(hmac(secret, timestamp, rawBody), 'hex');
  const given = Buffer.from(match[2]!, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
