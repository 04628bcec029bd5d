// At most `limit` requests of one kind are worked on at once; the rest wait their turn. A request
// is admitted once its body is in (a slow body holds no place: four slow bodies of one account
// once left another account's verdict unanswered for 15 s), and the turns go round the tenants
// (accounts): each tenant's requests wait first come first served, and a place that frees goes
// to the next tenant in line, so a burst of one account's verdicts delays another's by about one
// verdict, not by the whole burst. Verdicts are CPU work on the one event loop: fifty
// worked on together finish no sooner than fifty in turn, but every other request (a run upload
// awaiting ClickHouse eight times) then waits behind all fifty at each step. A few at a time keeps
// the event loop's queue short, so uploads keep their pace and verdict latency stays even
// (scripts/bench-load.ts measures both). A place freed passes on at the loop's next turn, not at
// once: handed over in the same turn, cheap verdicts ran back to back while the uploads' ready
// answers waited (embedded, 60 s: uploads at 29-40% of their rate alone; handed over a turn
// later, 67%, with verdicts/s about the same).
//
// A request waiting for the database gives its place up meanwhile (Place.during): the limit is
// on work for the event loop, not on waiting. Holding it through a presence query capped a
// server's verdicts at places / query time, whatever the CPU left; given up, the verdicts that
// gather while one query runs are merged into the next. clickhouse-server, 12 at once, 40 s of
// bench-load: 214-330 verdicts/s at p99 276-455 ms before, 506-522 at p99 208-217 after (and the
// uploads beside them at 40-45% of their pace alone, so the default became 8, and 12 again once
// a free place was taken a turn later, below; app.ts has its figures). Coming back, it goes
// before its tenant's requests that have not started (it holds its parsed body, and is nearer
// its answer), in its tenant's turn: served before every tenant's, the comebacks of one
// account's burst of verdicts waiting for ClickHouse kept another account's verdict behind all
// of them.
//
// A place found free is taken at the loop's next turn as well, never where the request arrived.
// Taken inline, a verdict whose body had all arrived ran whole inside the poll for I/O, then the
// next socket's, through all fifty clients in one turn: the queue stayed empty, the limit never
// applied, and turns grew to ~40 ms, each step of an upload waiting one. Which regime a run fell
// into was chance, so the same code gave embedded uploads 55-80% of their pace alone in some runs
// and 16-34% in others (verdicts then at 700-1,040/s, event loop delay p50 37-59 ms). Taken a
// turn later: 57-80% in eight runs of eight, loop delay p99 20-28 ms.

/** The place of one admitted request. */
export interface Place {
  /** Awaits `pending` without holding the place, and takes a place again (before new arrivals) once it settles. */
  during<T>(pending: Promise<T>): Promise<T>;
}

/**
 * Waiting requests, queued per tenant and served in turn: the next tenant's first request, and so
 * on round. Within a tenant, a request coming back from a wait (it holds its parsed body, and is
 * nearer its answer) goes before those that have not started.
 */
class FairQueue {
  /** Insertion order is the tenants' turn: a tenant served goes to the back if it still waits. */
  private readonly tenants = new Map<string, { resuming: (() => void)[]; waiting: (() => void)[] }>();
  private count = 0;

  push(tenant: string, entry: () => void, resuming: boolean): void {
    let queues = this.tenants.get(tenant);
    if (!queues) this.tenants.set(tenant, (queues = { resuming: [], waiting: [] }));
    (resuming ? queues.resuming : queues.waiting).push(entry);
    this.count++;
  }

  shift(): (() => void) | undefined {
    const first = this.tenants.entries().next();
    if (first.done) return undefined;
    const [tenant, queues] = first.value;
    const entry = queues.resuming.shift() ?? queues.waiting.shift()!;
    this.tenants.delete(tenant);
    if (queues.resuming.length + queues.waiting.length > 0) this.tenants.set(tenant, queues);
    this.count--;
    return entry;
  }

  get size(): number {
    return this.count;
  }
}

/** A limit on concurrent work, shared fairly among tenants. */
export class Admission {
  private active = 0;
  private readonly queue = new FairQueue();

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`admission limit must be a positive integer, not ${limit}`);
  }

  /** Runs `work` for `tenant` when a place is free and it is the tenant's turn. */
  async run<T>(tenant: string, work: (place: Place) => Promise<T>): Promise<T> {
    await this.acquire(tenant, false);
    const place: Place = {
      during: async (pending) => {
        this.release();
        try {
          return await pending;
        } finally {
          await this.acquire(tenant, true);
        }
      },
    };
    try {
      return await work(place);
    } finally {
      this.release();
    }
  }

  /** Requests waiting for a place. */
  get queued(): number {
    return this.queue.size;
  }

  private acquire(tenant: string, resuming: boolean): Promise<void> {
    if (this.active >= this.limit) return new Promise<void>((resolve) => this.queue.push(tenant, resolve, resuming));
    // A free place is taken at the loop's next turn too, never inline (see the top).
    this.active++;
    return new Promise<void>((resolve) => setImmediate(resolve));
  }

  private release(): void {
    const next = this.queue.shift();
    // The place passes to the next in line (active stays the same), on the event loop's next
    // turn: what became ready meanwhile (an upload's ClickHouse answers) runs first.
    if (next) setImmediate(next);
    else this.active--;
  }
}
