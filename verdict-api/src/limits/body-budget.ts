// The request body bytes each account may hold in flight at once (being read, or read and waiting
// for a verdict place): one account's slow or many bodies cannot fill the server's memory. A body
// that would pass its account's budget is refused with 429 at once (its declared length), or the
// moment it would (a chunked one).
import type { BodyBudget } from './read-body.js';

/** Bytes per account, default 256 MiB: room for two of the largest bodies (the run upload cap is 96 MiB) and many small ones. */
export const ACCOUNT_BODY_BYTES = 256 * 1024 * 1024;

/** The in-flight body bytes of every account. */
export class InFlightBodies {
  private readonly held = new Map<string, number>();

  constructor(private readonly perAccount = ACCOUNT_BODY_BYTES) {}

  /** A budget for one request of `account`: what it takes is given back by release (once). */
  budget(account: string): BodyBudget {
    let taken = 0;
    return {
      take: (bytes) => {
        const now = this.held.get(account) ?? 0;
        if (now + bytes > this.perAccount) return false;
        this.held.set(account, now + bytes);
        taken += bytes;
        return true;
      },
      release: () => {
        if (taken === 0) return;
        const left = (this.held.get(account) ?? 0) - taken;
        taken = 0;
        if (left > 0) this.held.set(account, left);
        else this.held.delete(account);
      },
    };
  }
}
