import { describe, expect, it } from '@jest/globals';
import { compareIdentities, testCaseId } from './test-case-id.js';

const P = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';

describe('testCaseId', () => {
  it('is a deterministic version 5 UUID', () => {
    const id = testCaseId(P, { module: ':app', suite: 'com.x.FooTest', name: 'adds[1: 2+2]' });
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(testCaseId(P, { module: ':app', suite: 'com.x.FooTest', name: 'adds[1: 2+2]' })).toBe(id);
    // Pinned: the id is persisted, so changing the function would make every test new again.
    expect(testCaseId(P, { module: ':app', suite: 'S', name: 'n' })).toBe('4bfec3c2-e0a1-5518-bee5-40ce943aa9ee');
  });

  it('differs for every part, including where one part could be shifted into another', () => {
    const base = { module: ':a', suite: 'b.c', name: 'd' };
    const ids = new Set([
      testCaseId(P, base),
      testCaseId(P, { ...base, module: ':a:b' }),
      testCaseId(P, { module: ':a', suite: 'b', name: 'c.d' }),
      testCaseId(P, { module: ':a', suite: 'b.c.d', name: '' }),
      testCaseId('00000000-0000-4000-8000-000000000000', base),
      testCaseId(P, { ...base, name: 'd[0]' }),
      testCaseId(P, { ...base, name: 'D' }),
    ]);
    expect(ids.size).toBe(7);
  });

  it('keeps parameterised invocations apart', () => {
    const a = testCaseId(P, { module: ':app', suite: 'S', name: 'adds[0: 1+1]' });
    const b = testCaseId(P, { module: ':app', suite: 'S', name: 'adds[1: 2+2]' });
    expect(a).not.toBe(b);
  });
});

describe('compareIdentities', () => {
  it('orders by module, suite, name', () => {
    const list = [
      { module: ':b', suite: 'A', name: 'a' },
      { module: ':a', suite: 'B', name: 'a' },
      { module: ':a', suite: 'A', name: 'b' },
      { module: ':a', suite: 'A', name: 'a' },
    ];
    expect([...list].sort(compareIdentities).map((i) => `${i.module} ${i.suite} ${i.name}`)).toEqual([':a A a', ':a A b', ':a B a', ':b A a']);
  });
});
