// At most `limit` requests of one kind are worked on at once; the rest wait their turn, first come
// first served, before their body is read. Verdicts are CPU work on the one event loop: fifty
// worked on together finish no sooner than fifty in turn, but every other request (a run upload
// awaiting ClickHouse eight times) then waits behind all fifty at each step. A few at a time keeps
// the event loop's queue short, so uploads keep their pace and verdict latency stays even
// (scripts/bench-load.ts measures both). A place freed passes on at the loop's next turn, not at
// once: handed over in the same turn, cheap verdicts ran back to back while the uploads' ready
// answers waited (embedded, 60 s: uploads at 29-40% of their rate alone; handed over a turn
// later, 67%, with verdicts/s about the same).

/** A first-come-first-served limit on concurrent work. */
export class Admission {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`admission limit must be a positive integer, not ${limit}`);
  }

  /** Runs `work` when a place is free. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      // The place passes to the next in line (active stays the same), on the event loop's next
      // turn: what became ready meanwhile (an upload's ClickHouse answers) runs first.
      if (next) setImmediate(next);
      else this.active--;
    }
  }

  /** Requests waiting for a place. */
  get queued(): number {
    return this.waiting.length;
  }
}
