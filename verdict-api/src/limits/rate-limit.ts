// Token buckets by key (a client address, an account): `capacity` requests at once, refilled at
// `perSecond`. The keys kept are bounded (the least recently used dropped first), so a flood of
// new keys costs a bounded map, not memory without end.

/** Whether a request may go on, and when to try again when not. */
export interface RateDecision {
  allowed: boolean;
  /** Seconds until one more request would be allowed (0 when allowed). */
  retryAfterSeconds: number;
}

/** One limiter: the same capacity and refill for every key. */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly capacity: number,
    private readonly perSecond: number,
    private readonly maxKeys = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one token of `key`'s bucket when there is one. */
  take(key: string, cost = 1): RateDecision {
    const decision = this.peek(key, cost);
    if (decision.allowed) this.bucket(key).tokens -= cost;
    return decision;
  }

  /** Gives back `cost` tokens taken from `key`'s bucket (a request that turned out not to count). */
  giveBack(key: string, cost = 1): void {
    const b = this.buckets.get(key);
    if (b) b.tokens = Math.min(this.capacity, b.tokens + cost);
  }

  /** Whether `key` has `cost` tokens, without taking them. */
  peek(key: string, cost = 1): RateDecision {
    const b = this.bucket(key);
    if (b.tokens >= cost) return { allowed: true, retryAfterSeconds: 0 };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((cost - b.tokens) / this.perSecond)) };
  }

  private bucket(key: string): { tokens: number; at: number } {
    const now = this.now();
    let b = this.buckets.get(key);
    if (b) {
      b.tokens = Math.min(this.capacity, b.tokens + ((now - b.at) / 1000) * this.perSecond);
      b.at = now;
      // Most recently used last.
      this.buckets.delete(key);
    } else {
      b = { tokens: this.capacity, at: now };
      if (this.buckets.size >= this.maxKeys) this.buckets.delete(this.buckets.keys().next().value as string);
    }
    this.buckets.set(key, b);
    return b;
  }
}
