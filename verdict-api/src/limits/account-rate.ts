// Each account's API requests at its own rate: one account's volume is not another's wait.
import { VerdictApiError } from '../errors/errors.js';
import { RateLimiter } from './rate-limit.js';

/** A per-account request rate: `burst` requests at once, `perSecond` more every second. */
export interface AccountRate {
  perSecond: number;
  burst: number;
}

/**
 * The default per-account rate: 100 requests a second, 1,000 at once. A CI fleet makes about five
 * requests per job (quarantine list, upload, verdict, gate, report): a thousand jobs starting in
 * the same second fit its burst. STRESS_GATE_ACCOUNT_REQUESTS_PER_SECOND and
 * STRESS_GATE_ACCOUNT_BURST change it (0: no limit).
 */
export const ACCOUNT_RATE: AccountRate = { perSecond: 100, burst: 1_000 };

/**
 * One API instance's share of an account's rate when `instances` share the traffic (a load
 * balancer spreading requests evenly; STRESS_GATE_API_INSTANCES): each counts in its own process,
 * so each allows 1/instances of the rate and of the burst (at least one request at once). The
 * account as a whole gets the configured rate; one instance that receives more than its share
 * answers 429 sooner.
 */
export function shareOfRate(rate: AccountRate, instances: number): AccountRate {
  return { perSecond: rate.perSecond / instances, burst: Math.max(1, Math.floor(rate.burst / instances)) };
}

/** Counts each account's requests against one rate. */
export class AccountRequests {
  private readonly buckets: RateLimiter;

  constructor(private readonly rate: AccountRate) {
    this.buckets = new RateLimiter(rate.burst, rate.perSecond);
  }

  /** Counts one request of `accountId`; TOO_MANY_REQUESTS (with its Retry-After) when the account is over its rate. */
  take(accountId: string): void {
    const decision = this.buckets.take(accountId);
    if (decision.allowed) return;
    const error = new VerdictApiError('TOO_MANY_REQUESTS', `Authorization: this account is over its rate of ${this.rate.perSecond} requests a second (${this.rate.burst} at once); retry in ${decision.retryAfterSeconds} s`, 'Authorization');
    error.retryAfterSeconds = decision.retryAfterSeconds;
    throw error;
  }
}
