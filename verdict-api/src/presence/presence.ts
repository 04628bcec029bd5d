// Reads of test_case_branch_presence: "has this identity run in CI on this branch", ever or
// within a window. The verdict reads it with no window (lookUpIds: through the process's cache of
// known ids, with concurrent verdicts' lookups of one scope merged into one query, and on embedded
// chDB from the scope held whole, with no query); the ingestion badge with 90 days (absentIds,
// uncached).
import { dateTime, join, sql, type Sql, uuid } from '../sql/bind.js';
import type { RememberedId } from '../identity/remembered-ids.js';
import { type Database, num } from '../storage/database.js';
import { scopeKey, WHOLE_SCOPE_LIMIT } from '../storage/read-cache.js';

/** Ids per string literal: one literal per 5,000 ids keeps the split linear on both engines. */
export const IDS_PER_LITERAL = 5_000;

/**
 * A subquery yielding the given test_case_ids as strings, in its column `id`. They travel as comma-joined string
 * literals split in SQL: 20,000 UUID literals would exceed 18.16's AST limit, and one huge
 * literal splits in superlinear time (100,000 ids: 2.3 s on 18.16, 0.95 s on chDB), while a
 * UNION ALL of 5,000-id literals takes 0.40 s and 0.48 s. Comparing as strings skips a toUUID
 * per posted id.
 */
export function idSet(ids: readonly string[]): Sql {
  const parts: Sql[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_LITERAL) {
    parts.push(sql`SELECT arrayJoin(splitByChar(',', ${ids.slice(i, i + IDS_PER_LITERAL).join(',')})) AS id`);
  }
  return sql`(${join(parts, ' UNION ALL ')})`;
}

export interface PresenceScope {
  projectId: string;
  branch: string;
  isCi: boolean;
}

/** The rows of the scope: its project, branch and CI flag. */
const inScope = (scope: PresenceScope): Sql => sql`project_id = ${uuid(scope.projectId)} AND git_branch = ${scope.branch} AND is_ci = ${scope.isCi}`;

/** Which of `ids` have ever had a presence row in the scope (the verdict's question). */
export async function presentIds(db: Database, scope: PresenceScope, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.engine.query<{ id: string }>(sql`
    SELECT DISTINCT toString(test_case_id) AS id FROM ${db.t('test_case_branch_presence')}
    WHERE ${inScope(scope)}
      AND toString(test_case_id) IN ${idSet(ids)}`);
  return new Set(rows.map((r) => r.id));
}

/**
 * Which of `ids` have no presence row in the scope since `since`: the ingestion badge's question.
 * An upload mostly re-runs known tests, so asking for the absent ones keeps the answer (rows
 * ClickHouse formats and this process parses) to the few new ones rather than the whole run.
 */
export async function absentIds(db: Database, scope: PresenceScope, ids: readonly string[], since: Date): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const posted = idSet(ids);
  const rows = await db.engine.query<{ id: string }>(sql`
    SELECT id FROM ${posted} WHERE id NOT IN (
      SELECT toString(test_case_id) FROM ${db.t('test_case_branch_presence')}
      WHERE ${inScope(scope)} AND ran_at >= ${dateTime(since)}
        AND toString(test_case_id) IN ${posted})`);
  return new Set(rows.map((r) => r.id));
}

/**
 * The ids present in the scope since `since`, read in one pass over the scope, or null when it
 * holds more than `limit` of them (the read stops there). For an upload of several chunks this
 * is one scan of the scope where absentIds per chunk is one scan per chunk: 50,000 cases in a
 * scope of 50,000 took 59 ms against 212 ms on chDB, and 65 ms against 294 ms on 18.16.
 */
export async function idsPresentSince(db: Database, scope: PresenceScope, since: Date, limit: number): Promise<Set<string> | null> {
  const rows = await db.engine.query<{ ids: string[] }>(sql`
    SELECT groupArray(id) AS ids FROM (
      SELECT DISTINCT toString(test_case_id) AS id FROM ${db.t('test_case_branch_presence')}
      WHERE ${inScope(scope)} AND ran_at >= ${dateTime(since)}
      LIMIT ${limit + 1})`);
  const ids = rows[0]?.ids ?? [];
  return ids.length > limit ? null : new Set(ids);
}

/** How many distinct identities have ever run in the scope: the project's inventory (cached a few seconds when not 0). */
export async function inventorySize(db: Database, scope: PresenceScope): Promise<number> {
  return db.cache.inventory.get(
    scopeKey(scope.projectId, scope.branch, scope.isCi),
    async () => {
      const rows = await db.engine.query<{ n: unknown }>(sql`
        SELECT uniqExact(test_case_id) AS n FROM ${db.t('test_case_branch_presence')}
        WHERE ${inScope(scope)}`);
      return num(rows[0]?.n ?? 0);
    },
    (n) => n > 0,
  );
}

/** Ids per merged lookup: beyond it a new query starts, so one query never grows without end. */
export const MAX_IDS_PER_LOOKUP = 20_000;
/** Merged lookups in flight at once per database. */
const LOOKUPS_IN_FLIGHT = 1;

interface Lookup {
  scope: PresenceScope;
  key: string;
  ids: Set<string>;
  done: Promise<Set<string>>;
  resolve(found: Set<string>): void;
  reject(error: unknown): void;
}

/**
 * Merges the lookups of concurrent verdicts: while queries run, the next ones gather. The scopes
 * (projects) take turns: one project's burst of lookups queued first does not keep another
 * project's verdict waiting behind all of it, only behind the query in flight.
 */
class LookupQueue {
  /** Waiting lookups by scope; insertion order is the scopes' turn. */
  private readonly waiting = new Map<string, Lookup[]>();
  private running = 0;

  constructor(private readonly db: Database) {}

  find(scope: PresenceScope, ids: readonly string[]): Promise<Set<string>> {
    const key = scopeKey(scope.projectId, scope.branch, scope.isCi);
    let lookups = this.waiting.get(key);
    if (!lookups) this.waiting.set(key, (lookups = []));
    let lookup = lookups.find((l) => l.ids.size + ids.length <= MAX_IDS_PER_LOOKUP);
    if (!lookup) {
      let resolve!: (found: Set<string>) => void;
      let reject!: (error: unknown) => void;
      const done = new Promise<Set<string>>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      lookup = { scope, key, ids: new Set(), done, resolve, reject };
      lookups.push(lookup);
    }
    for (const id of ids) lookup.ids.add(id);
    this.pump();
    return lookup.done;
  }

  private next(): Lookup | undefined {
    const first = this.waiting.entries().next();
    if (first.done) return undefined;
    const [key, lookups] = first.value;
    const lookup = lookups.shift()!;
    this.waiting.delete(key);
    if (lookups.length > 0) this.waiting.set(key, lookups);
    return lookup;
  }

  private pump(): void {
    while (this.running < LOOKUPS_IN_FLIGHT) {
      const lookup = this.next();
      if (!lookup) return;
      this.running++;
      presentIds(this.db, lookup.scope, [...lookup.ids])
        .then((found) => {
          this.db.cache.known.add(lookup.key, found);
          lookup.resolve(found);
        }, lookup.reject)
        .finally(() => {
          this.running--;
          this.pump();
        });
    }
  }
}

const queues = new WeakMap<Database, LookupQueue>();

/** Wraps a wait for ClickHouse (the verdict route's is its admission place's `during`). */
export type WaitFor = <T>(pending: Promise<T>) => Promise<T>;
const noWait: WaitFor = (pending) => pending;

/** Which of the posted ids may be new, at once, and which of those have run after all, once ClickHouse has said. */
export interface IdsLookup {
  /** Positions in the posted ids of those this process does not know to have run: the only ones that can be new. */
  readonly unknown: readonly number[];
  /** Which of them have run (none asked where the scope is held whole). */
  readonly present: Promise<ReadonlySet<string>>;
}

/** No ids: the answer where none are asked. */
export const NO_IDS: ReadonlySet<string> = new Set();

/**
 * Which of `posted` have ever run in the scope (the verdict's question). Ids this process already
 * knows to be present need no query (presence is never deleted); the rest are asked of
 * ClickHouse, merged with the lookups of concurrent requests. Where the scope is held whole
 * (embedded chDB, read-cache.ts), none are: an id not held has not run there. The answer is exact
 * either way. The positions to ask about are known at once, so that the caller need not hold on to
 * all of `posted` through the wait. `waitFor` wraps the wait for the query, the only one here (the
 * verdict gives its admission place up meanwhile).
 *
 * An id found among the scope's known ids is marked with their token (RememberedId.knownIn), so
 * the next request that posts it needs no lookup in that large set: 1,000 of them cost about a
 * tenth of a verdict's CPU under load, each a likely cache miss.
 */
export function lookUpIds(db: Database, scope: PresenceScope, posted: readonly RememberedId[], waitFor: WaitFor = noWait): IdsLookup {
  const key = scopeKey(scope.projectId, scope.branch, scope.isCi);
  const cached = db.cache.known.of(key);
  const token = db.cache.known.tokenOf(key);
  const unknown: number[] = [];
  for (let i = 0; i < posted.length; i++) {
    const p = posted[i]!;
    // A mark is never undefined, so it matches only a scope that has known ids.
    if (p.knownIn === token) continue;
    if (cached?.has(p.id)) p.knownIn = token!;
    else unknown.push(i);
  }
  // Held whole: the held set is the answer.
  if (unknown.length === 0 || db.cache.known.isWhole(key)) return { unknown, present: Promise.resolve(NO_IDS) };
  if (db.cache.soleWriter) holdWhole(db, scope, key);
  let queue = queues.get(db);
  if (!queue) queues.set(db, (queue = new LookupQueue(db)));
  return { unknown, present: waitFor(queue.find(scope, unknown.map((i) => posted[i]!.id))) };
}

const wholeLoads = new WeakMap<Database, Set<string>>();

/**
 * Reads the scope's every present id in the background and holds the scope whole, unless it is
 * larger than WHOLE_SCOPE_LIMIT or a write went wrong meanwhile (then a later verdict tries again).
 * One load per scope at a time. A failed load costs nothing but the query: verdicts keep asking.
 */
function holdWhole(db: Database, scope: PresenceScope, key: string): void {
  const loads = wholeLoads.get(db) ?? wholeLoads.set(db, new Set()).get(db)!;
  if (loads.has(key)) return;
  loads.add(key);
  void (async () => {
    if ((await inventorySize(db, scope)) > WHOLE_SCOPE_LIMIT) return;
    const epoch = db.cache.known.beginWholeLoad(key);
    const rows = await db.engine.query<{ id: string }>(sql`
      SELECT DISTINCT toString(test_case_id) AS id FROM ${db.t('test_case_branch_presence')}
      WHERE ${inScope(scope)}`);
    db.cache.known.endWholeLoad(key, rows.map((r) => r.id), epoch);
  })()
    .catch(() => undefined)
    .finally(() => {
      // A scope too large is not tried again for a while (the inventory is cached a few seconds, and only grows).
      setTimeout(() => loads.delete(key), 30_000).unref();
    });
}
