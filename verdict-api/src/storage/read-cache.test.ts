import { describe, expect, it } from '@jest/globals';
import { Admission } from '../http/admission.js';
import { KnownIds, TtlCache } from './read-cache.js';

describe('TtlCache', () => {
  it('serves a value until it expires, and shares one load between concurrent misses', async () => {
    let now = 0;
    let loads = 0;
    const cache = new TtlCache<number>(1_000, 10, () => now);
    const load = async () => {
      loads++;
      await new Promise((r) => setTimeout(r, 5));
      return loads;
    };
    expect(await Promise.all([cache.get('k', load), cache.get('k', load)])).toEqual([1, 1]);
    now = 999;
    expect(await cache.get('k', load)).toBe(1);
    now = 1_000;
    expect(await cache.get('k', load)).toBe(2);
    expect(loads).toBe(2);
  });

  it('reloads a key in use before it expires, serving the cached value meanwhile, and never past its TTL', async () => {
    let now = 0;
    let loads = 0;
    let fail = false;
    let release: (() => void) | null = null;
    const cache = new TtlCache<number>(1_000, 10, () => now);
    const load = async () => {
      const n = ++loads;
      await new Promise<void>((r) => (release = r));
      if (fail) throw new Error('ClickHouse away');
      return n;
    };
    const settle = async () => {
      await new Promise((r) => setTimeout(r, 0));
      release?.();
      release = null;
      await new Promise((r) => setTimeout(r, 0));
    };
    const first = cache.get('k', load);
    await settle();
    expect(await first).toBe(1);
    // Early in its life: a plain hit.
    now = 700;
    expect(await cache.get('k', load)).toBe(1);
    expect(loads).toBe(1);
    // In its last quarter: served at once, and one reload starts for any number of hits.
    now = 800;
    expect(await cache.get('k', load)).toBe(1);
    expect(await cache.get('k', load)).toBe(1);
    expect(loads).toBe(2);
    await settle();
    // The reload's value, with a TTL of its own.
    now = 1_500;
    expect(await cache.get('k', load)).toBe(2);
    // A failed reload is not seen, and the old value still ends at its TTL.
    fail = true;
    now = 1_600;
    expect(await cache.get('k', load)).toBe(2);
    await settle();
    expect(await cache.get('k', load)).toBe(2);
    now = 1_800;
    const expired = expect(cache.get('k', load)).rejects.toThrow('ClickHouse away');
    await settle();
    await expired;
    expect(loads).toBe(4);
  });

  it('does not keep what `keep` refuses, nor a value read while a write cleared the cache', async () => {
    const cache = new TtlCache<number>(60_000);
    let n = 0;
    expect(await cache.get('zero', async () => 0, (v) => v > 0)).toBe(0);
    expect(await cache.get('zero', async () => 7, (v) => v > 0)).toBe(7);
    // A load that started before clear() must not be cached: the write may have changed it.
    let release!: () => void;
    const slow = cache.get('k', async () => {
      await new Promise<void>((r) => (release = r));
      return ++n;
    });
    await new Promise((r) => setTimeout(r, 0));
    cache.clear();
    release();
    expect(await slow).toBe(1);
    expect(await cache.get('k', async () => ++n)).toBe(2);
  });

  it('rethrows a failed load and caches nothing for it', async () => {
    const cache = new TtlCache<number>(60_000);
    await expect(cache.get('k', async () => Promise.reject(new Error('ClickHouse away')))).rejects.toThrow('ClickHouse away');
    expect(await cache.get('k', async () => 3)).toBe(3);
  });

  it('holds at most maxEntries, dropping the oldest', async () => {
    const cache = new TtlCache<string>(60_000, 2);
    for (const k of ['a', 'b', 'c']) await cache.get(k, async () => k);
    let reloaded = false;
    await cache.get('a', async () => ((reloaded = true), 'a'));
    expect(reloaded).toBe(true);
  });
});

/** Whether `known` holds `id` in `scope`. */
const has = (known: KnownIds, scope: string, id: string): boolean => known.of(scope)?.has(id) ?? false;

describe('KnownIds', () => {
  it('knows what was added per scope, and adds to uncached scopes only when asked to', () => {
    const known = new KnownIds(100);
    known.add('s1', ['a', 'b']);
    known.addIfCached('s1', ['c']);
    known.addIfCached('s2', ['x']);
    expect([has(known, 's1', 'a'), has(known, 's1', 'c'), has(known, 's2', 'x'), has(known, 's2', 'a')]).toEqual([true, true, false, false]);
    expect([known.of('s1')?.size, known.of('s2')]).toEqual([3, undefined]);
  });

  it('drops the least recently used scopes past its limit and counts every id it dropped', () => {
    const known = new KnownIds(5);
    const told: number[][] = [];
    known.onEvict = (dropped, total) => told.push([dropped, total]);
    known.add('old', ['a', 'b', 'c']);
    known.add('new', ['d', 'e']);
    known.add('new', ['f']);
    expect(has(known, 'old', 'a')).toBe(false);
    expect(has(known, 'new', 'f')).toBe(true);
    expect(known.evicted).toBe(3);
    expect([known.of('old'), known.of('new')?.size]).toEqual([undefined, 3]);
    expect(told).toEqual([[3, 3]]);
  });

  it('halves one scope that outgrows the limit alone, keeping the newest ids', () => {
    const known = new KnownIds(4);
    known.add('only', ['1', '2', '3', '4', '5', '6']);
    expect(known.of('only')?.size).toBe(3);
    expect(known.evicted).toBe(3);
    expect(['4', '5', '6'].every((id) => has(known, 'only', id))).toBe(true);
  });
});

describe('KnownIds tokens', () => {
  it("keeps a scope's token while ids are added, and gives a new one once its ids were dropped, halved or cleared", () => {
    const known = new KnownIds(4);
    expect(known.tokenOf('s')).toBeUndefined();
    known.add('s', ['a']);
    const first = known.tokenOf('s');
    known.add('s', ['b']);
    known.addIfCached('s', ['c']);
    expect(first).toBeDefined();
    expect(known.tokenOf('s')).toBe(first);
    // Halved: a new set, a new token.
    known.add('s', ['d', 'e']);
    const halved = known.tokenOf('s');
    expect(halved).not.toBe(first);
    // Evicted by another scope, then cached again.
    known.add('other', ['1', '2', '3', '4']);
    expect(known.tokenOf('s')).toBeUndefined();
    known.add('s', ['a']);
    expect(known.tokenOf('s')).not.toBe(halved);
    const again = known.tokenOf('s');
    known.clear();
    known.add('s', ['a']);
    expect(known.tokenOf('s')).not.toBe(again);
  });
});

describe('KnownIds held whole', () => {
  it('holds a loaded scope whole, keeping writes acknowledged while it loaded', () => {
    const known = new KnownIds(100);
    const epoch = known.beginWholeLoad('s');
    known.addIfCached('s', ['written-during-load']);
    expect(known.endWholeLoad('s', ['a', 'b'], epoch)).toBe(true);
    expect(known.isWhole('s')).toBe(true);
    expect(['a', 'b', 'written-during-load'].every((id) => has(known, 's', id))).toBe(true);
    expect(known.isWhole('other')).toBe(false);
  });

  it('does not hold a scope whole when a write failed, the cache was emptied or ids were dropped while it loaded', () => {
    const failed = new KnownIds(100);
    const e1 = failed.beginWholeLoad('s');
    failed.incomplete('s');
    expect(failed.endWholeLoad('s', ['a'], e1)).toBe(false);
    expect(failed.isWhole('s')).toBe(false);

    const cleared = new KnownIds(100);
    const e2 = cleared.beginWholeLoad('s');
    cleared.clear();
    expect(cleared.endWholeLoad('s', ['a'], e2)).toBe(false);

    const evicted = new KnownIds(3);
    const e3 = evicted.beginWholeLoad('s');
    evicted.add('t', ['x', 'y', 'z']); // pushes the loading scope out
    expect(evicted.endWholeLoad('s', ['a'], e3)).toBe(false);
    expect(evicted.isWhole('s')).toBe(false);
  });

  it('lets go of a whole scope when a write to it fails, when it is halved or dropped, and on clear', () => {
    const known = new KnownIds(4);
    known.endWholeLoad('s', ['a'], known.beginWholeLoad('s'));
    known.incomplete('s');
    expect(known.isWhole('s')).toBe(false);

    known.endWholeLoad('s', ['a'], known.beginWholeLoad('s'));
    known.add('s', ['b', 'c', 'd', 'e']); // over the limit alone: halved
    expect(known.isWhole('s')).toBe(false);

    known.clear();
    known.endWholeLoad('s', ['a'], known.beginWholeLoad('s'));
    known.add('t', ['1', '2', '3', '4']); // s is the oldest: dropped
    expect(known.isWhole('s')).toBe(false);

    known.endWholeLoad('t', [], known.beginWholeLoad('t'));
    known.clear();
    expect(known.isWhole('t')).toBe(false);
  });
});

describe('Admission', () => {
  it('runs at most `limit` at once, first come first served, and passes failures through', async () => {
    const gate = new Admission(2);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const job = (i: number) =>
      gate.run('t', async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 5));
        running--;
        order.push(i);
        if (i === 3) throw new Error('boom');
        return i;
      });
    const results = await Promise.allSettled([0, 1, 2, 3, 4].map(job));
    expect(peak).toBe(2);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(order.slice(0, 2).sort()).toEqual([0, 1]);
    expect(gate.queued).toBe(0);
    expect(() => new Admission(0)).toThrow('positive integer');
  });

  it('lets what became ready while one ran go before the next in line starts', async () => {
    const gate = new Admission(1);
    const events: string[] = [];
    const first = gate.run('t', async () => {
      // Ready during the first job, as an upload's ClickHouse answer would be.
      setImmediate(() => events.push('ready I/O'));
      events.push('first');
    });
    const second = gate.run('t', async () => void events.push('second'));
    await Promise.all([first, second]);
    expect(events).toEqual(['first', 'ready I/O', 'second']);
  });

  it('frees the place of one waiting for the database, and gives it back before those not yet started', async () => {
    const gate = new Admission(1);
    const events: string[] = [];
    let answer!: (rows: string) => void;
    const query = new Promise<string>((resolve) => (answer = resolve));
    const waiting = gate.run('t', async (place) => {
      events.push('a: parsed');
      const rows = await place.during(query);
      events.push(`a: answered ${rows}`);
    });
    // b starts while a waits; c and d queue behind b.
    const others = ['b', 'c', 'd'].map((name) =>
      gate.run('t', async () => {
        events.push(`${name}: runs`);
        if (name === 'b') answer('rows');
        await new Promise((r) => setTimeout(r, 5));
      }),
    );
    await Promise.all([waiting, ...others]);
    // a, answered while b ran, comes back before c and d, which had not started.
    expect(events).toEqual(['a: parsed', 'b: runs', 'a: answered rows', 'c: runs', 'd: runs']);
    expect(gate.queued).toBe(0);
  });

  it('takes its place back when the awaited work fails, and passes the failure on', async () => {
    const gate = new Admission(1);
    const failed = gate.run('t', (place) => place.during(Promise.reject(new Error('unavailable'))));
    await expect(failed).rejects.toThrow('unavailable');
    // The one place is free again: a later job runs.
    await expect(gate.run('t', async () => 'next')).resolves.toBe('next');
  });

  it("serves the tenants in turn: one tenant's queue does not hold another's request back", async () => {
    const gate = new Admission(1);
    const order: string[] = [];
    const job = (tenant: string, i: number) => gate.run(tenant, async () => void order.push(`${tenant}${i}`));
    // Tenant a queues five before b and c arrive with one each.
    const jobs = [0, 1, 2, 3, 4].map((i) => job('a', i));
    jobs.push(job('b', 0), job('c', 0), job('b', 1));
    await Promise.all(jobs);
    expect(order).toEqual(['a0', 'a1', 'b0', 'c0', 'a2', 'b1', 'a3', 'a4']);
  });

  it('starts even a request that finds a place free at the next turn, not inline where it arrived', async () => {
    const gate = new Admission(4);
    const events: string[] = [];
    // Three requests arrive in one turn (as fifty clients' sockets are read in one poll for I/O);
    // what the turn has left to do (the rest of that poll) comes before any of them.
    const jobs = ['a', 'b', 'c'].map((name) => gate.run('t', async () => void events.push(name)));
    for (let tick = 0; tick < 20; tick++) await Promise.resolve();
    events.push('rest of the turn');
    await Promise.all(jobs);
    expect(events).toEqual(['rest of the turn', 'a', 'b', 'c']);
  });
});
