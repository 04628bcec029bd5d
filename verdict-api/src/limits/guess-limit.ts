// Failed credential lookups per client address: a guesser is refused before its guess costs a
// database query. Atomic: a lookup takes its place in the address's bucket before it starts (one
// synchronous step, so 200 guesses sent at once are 200 takes, not 200 looks at a full bucket),
// and a lookup that finds a credential gives its place back. Concurrent lookups of one credential
// share one lookup and one place, so a CI fleet starting with a new token does not use up its
// address's bucket; and a credential found recently is looked up without a place, so a guesser
// behind a CI fleet's address (one NAT) cannot lock the fleet out.
import { createHash } from 'node:crypto';
import { VerdictApiError } from '../errors/errors.js';
import { RateLimiter } from './rate-limit.js';

export interface GuessRate {
  /** Failed lookups an address may make at once. */
  capacity: number;
  /** Failed lookups an address gets back a second. */
  perSecond: number;
}

/** API credentials: 50 failed lookups at once per address, then one a second. */
export const API_GUESS_RATE: GuessRate = { capacity: 50, perSecond: 1 };

export class GuessLimiter {
  private readonly places: RateLimiter;
  private readonly inFlight = new Map<string, Promise<unknown>>();
  /** Hashes of credentials found recently, least recently found first. */
  private readonly known = new Map<string, number>();

  constructor(
    readonly rate: GuessRate,
    private readonly now: () => number = Date.now,
    private readonly knownLimit = 10_000,
    private readonly knownForMs = 10 * 60_000,
  ) {
    this.places = new RateLimiter(rate.capacity, rate.perSecond, 10_000, now);
  }

  /**
   * Looks `credential` up for a caller at `key` (its address, or a known browser's device): null
   * when it is not one, a TOO_MANY_REQUESTS error (with Retry-After) without a lookup when `key`'s
   * failed lookups are used up.
   */
  async lookup<T>(key: string, credential: string, find: () => Promise<T | null>, what = 'Authorization'): Promise<T | null> {
    const shared = this.inFlight.get(credential) as Promise<T | null> | undefined;
    if (shared) return shared;
    const hash = createHash('sha256').update(credential).digest('base64');
    const knownAt = this.known.get(hash);
    if (knownAt !== undefined && this.now() - knownAt < this.knownForMs) return find();
    const place = this.places.take(key);
    if (!place.allowed) {
      const error = new VerdictApiError('TOO_MANY_REQUESTS', `${what}: too many failed credentials from this address; retry in ${place.retryAfterSeconds} s`, what);
      error.retryAfterSeconds = place.retryAfterSeconds;
      throw error;
    }
    const found = find().then(
      (grant) => {
        if (grant !== null) {
          this.places.giveBack(key);
          this.remember(hash);
        }
        return grant;
      },
      (error: unknown) => {
        // The store failed, not the caller: no guess was judged.
        this.places.giveBack(key);
        throw error;
      },
    );
    this.inFlight.set(credential, found);
    void found.finally(() => this.inFlight.delete(credential)).catch(() => undefined);
    return found;
  }

  private remember(hash: string): void {
    this.known.delete(hash);
    this.known.set(hash, this.now());
    if (this.known.size > this.knownLimit) this.known.delete(this.known.keys().next().value as string);
  }

  /** Whether `key` may make another lookup now (for a form that answers before it reads anything). */
  peek(key: string): { allowed: boolean; retryAfterSeconds: number } {
    return this.places.peek(key);
  }
}
