import { describe, expect, it } from '@jest/globals';
import type { StorageQuota, Usage, UsageFigures } from './storage-quota.js';
import { REFRESH_MS, StorageQuotas, type UsageStore } from './storage-usage.js';

const quota: StorageQuota = { rowsPerDay: 100, bytesPerDay: 0, rowsRetained: 1_000, bytesRetained: 0 };
const DAY = Date.UTC(2026, 2, 4, 12);

/** A store over an array of recorded rows, counting its reads. */
function fakeStore(rows: { account: string; day: string; usage: Usage }[] = []) {
  const store = {
    loads: 0,
    rows,
    async load(account: string, day: string): Promise<UsageFigures> {
      store.loads++;
      await new Promise((r) => setTimeout(r, 5));
      const mine = rows.filter((r) => r.account === account);
      const sum = (rs: typeof mine): Usage => ({ rows: rs.reduce((n, r) => n + r.usage.rows, 0), bytes: rs.reduce((n, r) => n + r.usage.bytes, 0) });
      return { day, today: sum(mine.filter((r) => r.day === day)), retained: sum(mine) };
    },
    async record(account: string, day: string, usage: Usage): Promise<void> {
      rows.push({ account, day, usage });
    },
  } satisfies UsageStore & Record<string, unknown>;
  return store;
}

describe('StorageQuotas', () => {
  it('reads an account once, then counts its uploads itself', async () => {
    const store = fakeStore([{ account: 'a', day: '2026-03-04', usage: { rows: 40, bytes: 4 } }, { account: 'a', day: '2026-03-01', usage: { rows: 500, bytes: 50 } }]);
    const quotas = new StorageQuotas(quota, store, () => DAY);
    await (await quotas.reserve('a', { rows: 10, bytes: 1 })).commit();
    await (await quotas.reserve('a', { rows: 10, bytes: 1 })).commit();
    expect(await quotas.usage('a')).toEqual({ day: '2026-03-04', today: { rows: 60, bytes: 6 }, retained: { rows: 560, bytes: 56 } });
    expect(store.loads).toBe(1);
    expect(store.rows).toHaveLength(4);
  });

  it('lets concurrent uploads of one account through only while together they fit', async () => {
    const quotas = new StorageQuotas(quota, fakeStore(), () => DAY);
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => quotas.reserve('a', { rows: 30, bytes: 1 })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({ code: 'TOO_MANY_REQUESTS', field: 'quota' });
    // Another account has its own figures.
    await expect(quotas.reserve('b', { rows: 100, bytes: 1 })).resolves.toBeDefined();
  });

  it('gives back what a refused or failed upload reserved, and records nothing of it', async () => {
    const store = fakeStore();
    const quotas = new StorageQuotas(quota, store, () => DAY);
    const first = await quotas.reserve('a', { rows: 90, bytes: 1 });
    await expect(quotas.reserve('a', { rows: 20, bytes: 1 })).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    first.giveBack();
    first.giveBack(); // once only
    expect((await quotas.usage('a')).today.rows).toBe(0);
    await (await quotas.reserve('a', { rows: 20, bytes: 1 })).commit();
    expect(store.rows).toEqual([{ account: 'a', day: '2026-03-04', usage: { rows: 20, bytes: 1 } }]);
  });

  it('counts the operator\'s uploads without refusing them', async () => {
    const quotas = new StorageQuotas(quota, fakeStore(), () => DAY);
    await (await quotas.reserve('a', { rows: 150, bytes: 1 }, false)).commit();
    expect((await quotas.usage('a')).today.rows).toBe(150);
    await expect(quotas.refuseWhenReached('a')).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS' });
  });

  it('starts a new day at nothing, keeps the retained sum, and reads the table again (other processes) after REFRESH_MS', async () => {
    let now = DAY;
    const store = fakeStore();
    const quotas = new StorageQuotas(quota, store, () => now);
    await (await quotas.reserve('a', { rows: 100, bytes: 1 })).commit();
    await expect(quotas.refuseWhenReached('a')).rejects.toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    now += 86_400_000;
    expect(await quotas.usage('a')).toEqual({ day: '2026-03-05', today: { rows: 0, bytes: 0 }, retained: { rows: 100, bytes: 1 } });
    // Another process stores 50 rows for the account: seen after REFRESH_MS.
    store.rows.push({ account: 'a', day: '2026-03-05', usage: { rows: 50, bytes: 1 } });
    expect((await quotas.usage('a')).today.rows).toBe(0);
    now += REFRESH_MS;
    expect((await quotas.usage('a')).today.rows).toBe(50);
  });

  it('keeps an upload of yesterday that is still in flight in the retained sum only', async () => {
    let now = DAY;
    const quotas = new StorageQuotas(quota, fakeStore(), () => now);
    const late = await quotas.reserve('a', { rows: 80, bytes: 1 });
    now += 86_400_000;
    expect(await quotas.usage('a')).toMatchObject({ today: { rows: 0 }, retained: { rows: 80 } });
    late.giveBack();
    expect(await quotas.usage('a')).toMatchObject({ today: { rows: 0 }, retained: { rows: 0 } });
  });
});
