// The signature a webhook receiver checks: HMAC-SHA256 of the raw body with the webhook's secret.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The signature header's name. */
export const SIGNATURE_HEADER = 'X-Stress-Gate-Signature';

/** `sha256=<hex>` of the raw body. */
export function signBody(secret: string, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex')}`;
}

/** Whether `signature` is the body's signature (constant time): what a receiver does. */
export function verifySignature(secret: string, rawBody: string, signature: string | undefined): boolean {
  const expected = Buffer.from(signBody(secret, rawBody));
  const given = Buffer.from(signature ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
