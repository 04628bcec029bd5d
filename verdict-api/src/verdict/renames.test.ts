import { describe, expect, it } from '@jest/globals';
import { findRenames, type KnownBody, type Unknown } from './renames.js';

const F1 = 'a'.repeat(32);
const F2 = 'b'.repeat(32);
const known = (name: string, fingerprint: string, suite = 'com.example.OldTest'): KnownBody => ({ module: ':app', suite, name, testCaseId: `id-${suite}-${name}`, fingerprint });
const unknown = (name: string, fingerprint: string, suite = 'com.example.NewTest'): Unknown => ({ module: ':app', suite, name, testCaseId: `id-${suite}-${name}`, fingerprint });

describe('findRenames', () => {
  it('takes a known identity with the same body that was not posted as the source', () => {
    const old = known('adds', F1);
    const renames = findRenames([unknown('adds', F1)], [old], new Set());
    expect([...renames.values()]).toEqual([
      { module: ':app', suite: 'com.example.NewTest', name: 'adds', testCaseId: 'id-com.example.NewTest-adds', from: { module: ':app', suite: 'com.example.OldTest', name: 'adds', testCaseId: old.testCaseId } },
    ]);
  });

  it('is no rename when the known identity was posted too (a copy), or the body differs', () => {
    const old = known('adds', F1);
    expect(findRenames([unknown('adds', F1)], [old], new Set([old.testCaseId])).size).toBe(0);
    expect(findRenames([unknown('adds', F2)], [old], new Set()).size).toBe(0);
  });

  it('picks the smallest identity among several sources, whatever their order, skipping the posted ones', () => {
    const sources = [known('z', F1), known('b', F1), known('a', F1, 'com.example.ZTest'), known('a', F1)];
    const pick = (posted: string[]) => findRenames([unknown('x', F1)], sources, new Set(posted)).get('id-com.example.NewTest-x')!.from.name;
    expect(pick([])).toBe('a');
    expect(findRenames([unknown('x', F1)], [...sources].reverse(), new Set()).get('id-com.example.NewTest-x')!.from).toMatchObject({ suite: 'com.example.OldTest', name: 'a' });
    expect(pick(['id-com.example.OldTest-a'])).toBe('b');
  });

  it('gives each source to one identity, the smallest: two copies of a moved test are a rename and a new test', () => {
    const renames = findRenames([unknown('second', F1), unknown('first', F1)], [known('only', F1)], new Set());
    expect([...renames.keys()]).toEqual(['id-com.example.NewTest-first']);
    const two = findRenames([unknown('second', F1), unknown('first', F1)], [known('one', F1), known('two', F1)], new Set());
    expect([...two.values()].map((r) => [r.name, r.from.name])).toEqual([['first', 'one'], ['second', 'two']]);
  });
});
