import { describe, expect, it } from '@jest/globals';
import { createHmac } from 'node:crypto';
import { signBody, verifySignature } from './sign.js';

describe('webhook signature', () => {
  it('is sha256=<hex HMAC-SHA256 of the raw body>', () => {
    const body = '{"type":"test.marked_flaky"}';
    expect(signBody('s3cret', body)).toBe(`sha256=${createHmac('sha256', 's3cret').update(body).digest('hex')}`);
  });

  it('verifies only the exact body with the exact secret', () => {
    const sig = signBody('s3cret', 'body');
    expect(verifySignature('s3cret', 'body', sig)).toBe(true);
    expect(verifySignature('s3cret', 'body ', sig)).toBe(false);
    expect(verifySignature('other', 'body', sig)).toBe(false);
    expect(verifySignature('s3cret', 'body', undefined)).toBe(false);
  });
});
