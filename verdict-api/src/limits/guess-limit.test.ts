import { describe, expect, it } from '@jest/globals';
import { GuessLimiter } from './guess-limit.js';

describe('GuessLimiter', () => {
  const grant = { who: 'ci' };

  it('takes a place before each lookup and gives it back when the credential is found', async () => {
    const limiter = new GuessLimiter({ capacity: 3, perSecond: 0.001 }, () => 0);
    let lookups = 0;
    const wrong = (i: number) => limiter.lookup('addr', `wrong-${i}`, async () => (lookups++, null));
    const results = await Promise.allSettled([0, 1, 2, 3, 4].map(wrong));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'rejected']);
    expect(lookups).toBe(3);
    expect((results[3] as PromiseRejectedResult).reason).toMatchObject({ code: 'TOO_MANY_REQUESTS', retryAfterSeconds: expect.any(Number) });
    // Another address has its own places.
    expect(await limiter.lookup('other', 'right', async () => grant)).toBe(grant);
  });

  it('shares one lookup and one place among concurrent lookups of one credential', async () => {
    const limiter = new GuessLimiter({ capacity: 1, perSecond: 0.001 }, () => 0);
    let lookups = 0;
    const found = await Promise.all(Array.from({ length: 20 }, () => limiter.lookup('addr', 'new-token', async () => (lookups++, grant))));
    expect(found.every((g) => g === grant)).toBe(true);
    expect(lookups).toBe(1);
    // Found, so its place came back: the address still has one.
    expect(limiter.peek('addr').allowed).toBe(true);
  });

  it('looks up a credential found recently without a place, so a guesser on its address cannot lock it out', async () => {
    let now = 0;
    const limiter = new GuessLimiter({ capacity: 1, perSecond: 0.001 }, () => now);
    expect(await limiter.lookup('nat', 'fleet-token', async () => grant)).toBe(grant);
    await limiter.lookup('nat', 'guess', async () => null);
    await expect(limiter.lookup('nat', 'guess-2', async () => null)).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    expect(await limiter.lookup('nat', 'fleet-token', async () => grant)).toBe(grant);
    // A revoked token is looked up all the same: the lookup decides.
    expect(await limiter.lookup('nat', 'fleet-token', async () => null)).toBeNull();
    // Known for 10 minutes.
    now = 11 * 60_000;
    await expect(limiter.lookup('nat', 'fleet-token', async () => grant)).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS' });
  });
});
