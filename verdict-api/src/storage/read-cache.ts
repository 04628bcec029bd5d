// What the hot requests would otherwise read from ClickHouse on every call, kept in this process:
// - grants and rows of authentication (token, admin credential, project, account) for at most
//   AUTH_TTL_MS, and dropped at once when this process writes any of those tables (a token revoked
//   through this server is refused on its next request; one revoked by another process sharing a
//   clickhouse-server within AUTH_TTL_MS);
// - the identities known to have run in a presence scope. Presence only grows (no row is ever
//   deleted), so "known" never turns false: a cached "known" is exact forever, and only the ids not
//   known yet are asked of ClickHouse. Bounded by KNOWN_IDS_LIMIT ids; the oldest scopes are
//   dropped first and every drop is counted, so the bound shows when it bites. On embedded chDB,
//   whose data directory is locked to this process, a scope can also be held whole (every id
//   present in it): then "absent" is exact too, and its verdicts need no query at all;
// - a scope's inventory size (never 0, which can change at any moment) for INVENTORY_TTL_MS, and
//   dropped when this process writes presence in that scope.
// Every DDL or mutation through the engine empties all of it (database.ts).

/** How long an authentication read is trusted. */
export const AUTH_TTL_MS = 1_000;
/** How long a scope's inventory size is trusted (it only grows; guards read it as a ratio). */
export const INVENTORY_TTL_MS = 5_000;
/** Known identities kept, over all scopes. */
export const KNOWN_IDS_LIMIT = 2_000_000;
/** The largest scope (its inventory) held whole. */
export const WHOLE_SCOPE_LIMIT = 200_000;

/** The last part of an entry's life in which a hit also starts its reload (refresh ahead). */
export const REFRESH_AHEAD = 0.25;

/**
 * A map whose entries expire; concurrent misses of one key share one load. A hit in the last
 * quarter of its entry's life is served and starts the reload in the background, so a key in
 * steady use never makes a request wait for its reload (under load a reload waits for
 * ClickHouse: every verdict arriving meanwhile would queue behind it, once per TTL, which
 * scripts/bench-load.ts saw in the p99). No value is served past its TTL: a failed background
 * reload leaves the entry to expire, and the next request loads it itself.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();
  private readonly loading = new Map<string, Promise<V>>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The cached value, or `load()`'s; `keep` says whether a loaded value may be cached. */
  async get(key: string, load: () => Promise<V>, keep: (v: V) => boolean = () => true): Promise<V> {
    const hit = this.entries.get(key);
    const now = this.now();
    if (hit && hit.until > now) {
      if (hit.until - now <= this.ttlMs * REFRESH_AHEAD && !this.loading.has(key)) this.load(key, load, keep).catch(() => undefined);
      return hit.value;
    }
    return this.loading.get(key) ?? this.load(key, load, keep);
  }

  private load(key: string, load: () => Promise<V>, keep: (v: V) => boolean): Promise<V> {
    const generation = this.generation;
    const promise = load().then(
      (value) => {
        if (this.loading.get(key) === promise) this.loading.delete(key);
        // A write that cleared the cache while this read ran may have changed the answer.
        if (generation === this.generation && keep(value)) {
          this.entries.delete(key); // re-set below: the newest entry is the last dropped
          if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
          this.entries.set(key, { value, until: this.now() + this.ttlMs });
        }
        return value;
      },
      (error: unknown) => {
        if (this.loading.get(key) === promise) this.loading.delete(key);
        throw error;
      },
    );
    this.loading.set(key, promise);
    return promise;
  }

  delete(key: string): void {
    this.entries.delete(key);
    this.loading.delete(key);
    this.generation++;
  }

  clear(): void {
    this.entries.clear();
    this.loading.clear();
    this.generation++;
  }
}

/** Identities known to have run, per presence scope (a string key), oldest scope dropped first. */
export class KnownIds {
  private readonly scopes = new Map<string, Set<string>>();
  /** Each set's token (tokenOf), gone with the set. */
  private readonly tokens = new WeakMap<Set<string>, object>();
  private size = 0;
  /** Ids dropped to stay under the limit, since start. */
  evicted = 0;
  /** Told of every drop (server.ts logs it): the bound shows when it bites. */
  onEvict: ((dropped: number, total: number) => void) | null = null;
  /**
   * Scopes held whole: every id present in them is in their set, so an id not in it is absent.
   * Only where this process writes the database alone (database.ts), and every write of presence
   * goes through add (acknowledged) or incomplete (failed, perhaps half done).
   */
  private readonly whole = new Set<string>();
  /** Moves whenever a held id may have been lost or a write missed; a whole-scope load that saw it move is not trusted. */
  private epoch = 0;

  constructor(private readonly limit = KNOWN_IDS_LIMIT) {}

  /** The scope's known ids, read-only (one map lookup for a whole request). */
  of(scope: string): ReadonlySet<string> | undefined {
    return this.scopes.get(scope);
  }

  /**
   * A token of the scope's known ids as they are now: an id found in `of(scope)` may be marked
   * with it (test-case-id.ts RememberedId), and the mark holds while the token is the scope's.
   * Every set dropped (evicted, halved, cleared) takes its token with it, so no mark outlives
   * what it was read from.
   */
  tokenOf(scope: string): object | undefined {
    const set = this.scopes.get(scope);
    if (!set) return undefined;
    let token = this.tokens.get(set);
    if (!token) this.tokens.set(set, (token = {}));
    return token;
  }

  /** Whether the scope is held whole (an id not in `of(scope)` has not run in it). */
  isWhole(scope: string): boolean {
    return this.whole.has(scope);
  }

  /**
   * Starts loading a scope whole: from here on, acknowledged writes to it are kept (its entry
   * exists). Returns the epoch to pass to `endWholeLoad`.
   */
  beginWholeLoad(scope: string): number {
    this.add(scope, []);
    return this.epoch;
  }

  /** Adds the scope's ids as read after `beginWholeLoad`; holds it whole unless something moved the epoch since. */
  endWholeLoad(scope: string, ids: Iterable<string>, epoch: number): boolean {
    this.add(scope, ids);
    if (epoch !== this.epoch || !this.scopes.has(scope)) return false;
    this.whole.add(scope);
    return true;
  }

  /** A write to the scope failed and may have half happened: absence there is no longer known. */
  incomplete(scope: string): void {
    this.whole.delete(scope);
    this.epoch++;
  }

  add(scope: string, ids: Iterable<string>): void {
    let set = this.scopes.get(scope);
    if (set) {
      // Most recently used last.
      this.scopes.delete(scope);
      this.scopes.set(scope, set);
    } else this.scopes.set(scope, (set = new Set()));
    for (const id of ids) {
      if (set.has(id)) continue;
      set.add(id);
      this.size++;
    }
    const before = this.evicted;
    while (this.size > this.limit && this.scopes.size > 0) {
      const [oldest, ids] = this.scopes.entries().next().value as [string, Set<string>];
      if (oldest === scope && this.scopes.size === 1) {
        // One scope over the limit on its own: keep its newest half.
        const keep = [...ids].slice(Math.floor(ids.size / 2));
        this.evicted += ids.size - keep.length;
        this.size -= ids.size - keep.length;
        this.scopes.set(scope, new Set(keep));
        this.incomplete(scope);
        break;
      }
      this.incomplete(oldest);
      this.scopes.delete(oldest);
      this.size -= ids.size;
      this.evicted += ids.size;
    }
    if (this.evicted > before) this.onEvict?.(this.evicted - before, this.evicted);
  }

  /** Adds only to scopes already cached (a write nobody asked about yet needs no memory). */
  addIfCached(scope: string, ids: Iterable<string>): void {
    if (this.scopes.has(scope)) this.add(scope, ids);
  }

  clear(): void {
    this.scopes.clear();
    this.whole.clear();
    this.epoch++;
    this.size = 0;
  }
}

/** The caches of one database. */
export class ReadCache {
  /** Whether presence scopes may be held whole: this process is the database's only writer (embedded chDB). */
  constructor(readonly soleWriter = false) {}
  readonly auth = new TtlCache<unknown>(AUTH_TTL_MS);
  readonly inventory = new TtlCache<number>(INVENTORY_TTL_MS);
  readonly known = new KnownIds();

  clear(): void {
    this.auth.clear();
    this.inventory.clear();
    this.known.clear();
  }
}

/** The cache key of a presence scope. */
export const scopeKey = (projectId: string, branch: string, isCi: boolean | number): string => `${projectId}\u0000${branch}\u0000${isCi ? 1 : 0}`;
