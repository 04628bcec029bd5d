import { describe, expect, it } from '@jest/globals';
import { createHmac } from 'node:crypto';
import { REPLAY_WINDOW_SECONDS, signBody, verifySignature } from './sign.js';

describe('webhook signature', () => {
  const t = 1_800_000_000;

  it('is t=<time>,v1=<hex HMAC-SHA256 of "<time>.<raw body>">', () => {
    const body = '{"events":[]}';
    expect(signBody('s3cret', body, t)).toBe(`t=${t},v1=${createHmac('sha256', 's3cret').update(`${t}.${body}`).digest('hex')}`);
  });

  it('verifies only the exact body with the exact secret and time', () => {
    const sig = signBody('s3cret', 'body', t);
    expect(verifySignature('s3cret', 'body', sig, t)).toBe(true);
    expect(verifySignature('s3cret', 'body ', sig, t)).toBe(false);
    expect(verifySignature('other', 'body', sig, t)).toBe(false);
    expect(verifySignature('s3cret', 'body', undefined, t)).toBe(false);
    // The time cannot be moved without the secret.
    expect(verifySignature('s3cret', 'body', sig.replace(`t=${t}`, `t=${t + 600}`), t + 600)).toBe(false);
  });

  it('refuses a replay outside the window', () => {
    const sig = signBody('s3cret', 'body', t);
    expect(verifySignature('s3cret', 'body', sig, t + REPLAY_WINDOW_SECONDS)).toBe(true);
    expect(verifySignature('s3cret', 'body', sig, t + REPLAY_WINDOW_SECONDS + 1)).toBe(false);
  });
});
