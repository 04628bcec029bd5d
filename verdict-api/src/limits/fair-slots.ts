// Places shared fairly among tenants (accounts): webhook deliveries, reads of a run's page.

/**
 * Places shared among tenants: `total` at once, at most `perTenant` of them one tenant's. A freed
 * place goes to the tenant that has waited longest for its turn (first come first served within a
 * tenant), so a tenant with many waiting requests gets one place at a time like everyone else.
 */
export class FairSlots {
  /** Waiting tenants in the order of their turn, each with its waiters in arrival order. */
  private readonly waiting = new Map<string, (() => void)[]>();
  private readonly held = new Map<string, number>();
  constructor(
    private free: number,
    private readonly perTenant: number,
  ) {}

  acquire(tenant: string): Promise<void> {
    if (this.free > 0 && this.heldBy(tenant) < this.perTenant && !this.waiting.has(tenant)) {
      this.take(tenant);
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const queue = this.waiting.get(tenant);
      if (queue) queue.push(resolve);
      else this.waiting.set(tenant, [resolve]);
    });
  }

  release(tenant: string): void {
    this.free++;
    const left = this.heldBy(tenant) - 1;
    if (left > 0) this.held.set(tenant, left);
    else this.held.delete(tenant);
    this.handOut();
  }

  /** Places held now by `tenant`. */
  heldBy(tenant: string): number {
    return this.held.get(tenant) ?? 0;
  }

  private take(tenant: string): void {
    this.free--;
    this.held.set(tenant, this.heldBy(tenant) + 1);
  }

  private handOut(): void {
    while (this.free > 0) {
      let next: string | undefined;
      for (const tenant of this.waiting.keys()) {
        if (this.heldBy(tenant) < this.perTenant) {
          next = tenant;
          break;
        }
      }
      if (next === undefined) return;
      const queue = this.waiting.get(next)!;
      const resolve = queue.shift()!;
      // Its turn is used: to the back of the line, or out of it.
      this.waiting.delete(next);
      if (queue.length > 0) this.waiting.set(next, queue);
      this.take(next);
      resolve();
    }
  }
}
