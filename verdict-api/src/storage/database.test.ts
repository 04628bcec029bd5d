import { describe, expect, it } from '@jest/globals';
import { database } from './database.js';
import type { ClickHouseEngine, EngineKind } from './engine.js';
import { scopeKey } from './read-cache.js';
import { TsvWriter } from './tab-separated.js';

/** An engine whose inserts succeed or fail as told (the boundary; storage itself is tested on the real engines). */
function fakeEngine(kind: EngineKind, failInserts: () => boolean): ClickHouseEngine {
  return {
    kind,
    command: async () => {},
    query: async () => [],
    insert: async () => {
      if (failInserts()) throw new Error('insert refused');
    },
    ping: async () => {},
    close: async () => {},
  };
}

const row = (id: string, status = 'success') => ({ project_id: 'p', git_branch: 'main', is_ci: 1, test_case_id: id, status });
const scope = scopeKey('p', 'main', true);

describe('database: the read cache follows this process\'s writes', () => {
  it('may hold presence scopes whole only on embedded chDB, the sole writer of its data directory', () => {
    expect(database(fakeEngine('embedded', () => false), 'db').cache.soleWriter).toBe(true);
    expect(database(fakeEngine('server', () => false), 'db').cache.soleWriter).toBe(false);
  });

  it('adds acknowledged test case runs to a whole scope, and lets go of it when an insert fails', async () => {
    let fail = false;
    const db = database(fakeEngine('embedded', () => fail), 'db');
    const known = db.cache.known;
    known.endWholeLoad(scope, ['a'], known.beginWholeLoad(scope));
    await db.engine.insert(db.t('test_case_runs'), [row('b'), row('skipped', 'skipped')]);
    expect([known.isWhole(scope), known.of(scope)?.has('b'), known.of(scope)?.has('skipped')]).toEqual([true, true, false]);

    fail = true;
    await expect(db.engine.insert(db.t('test_case_runs'), [row('c')])).rejects.toThrow('insert refused');
    expect(known.isWhole(scope)).toBe(false);
    expect(known.of(scope)?.has('c')).toBe(false);
  });

  it('takes the presence of encoded test case runs from what they say ran, and lets go of all when they do not say', async () => {
    let fail = false;
    const db = database(fakeEngine('embedded', () => fail), 'db');
    const known = db.cache.known;
    const encoded = (id: string) => new TsvWriter(['test_case_id']).text(id);
    known.endWholeLoad(scope, ['a'], known.beginWholeLoad(scope));
    const ran = encoded('b');
    ran.endRow();
    await db.engine.insert(db.t('test_case_runs'), ran.finish({ projectId: 'p', branch: 'main', isCi: true, ranIds: ['b'] }));
    expect([known.isWhole(scope), known.of(scope)?.has('b')]).toEqual([true, true]);

    fail = true;
    await expect(db.engine.insert(db.t('test_case_runs'), ran.finish({ projectId: 'p', branch: 'main', isCi: true, ranIds: ['c'] }))).rejects.toThrow('insert refused');
    expect(known.isWhole(scope)).toBe(false);

    fail = false;
    known.endWholeLoad(scope, ['a'], known.beginWholeLoad(scope));
    await db.engine.insert(db.t('test_case_runs'), ran.finish());
    expect(known.of(scope)).toBeUndefined();
  });
});
