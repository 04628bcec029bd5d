import { describe, expect, it } from '@jest/globals';
import { assignIdentities } from './test-case-result.js';

const ok = (suite: string, name: string) => ({ suite, name, status: 'success' as const, durationMs: 1 });

describe('assignIdentities', () => {
  it('keeps plain identities when they are unique', () => {
    const r = assignIdentities([{ task: ':app:test', module: ':app', cases: [ok('A', 'x'), ok('A', 'y')] }]);
    expect(r.map((c) => [c.module, c.suite, c.name, c.task, c.xmlName, c.occurrence])).toEqual([
      [':app', 'A', 'x', ':app:test', 'x', 1],
      [':app', 'A', 'y', ':app:test', 'y', 1],
    ]);
  });

  it('disambiguates a name repeated within a task with " [#n]" and remembers the occurrence', () => {
    const r = assignIdentities([{ task: ':app:test', module: ':app', cases: [ok('P', 'm[0]'), ok('P', 'm[0]'), ok('P', 'm[0]')] }]);
    expect(r.map((c) => [c.name, c.xmlName, c.occurrence])).toEqual([
      ['m[0]', 'm[0]', 1],
      ['m[0] [#2]', 'm[0]', 2],
      ['m[0] [#3]', 'm[0]', 3],
    ]);
  });

  it('keeps per-task entries when two Test tasks of one module run the same class, never merging', () => {
    const r = assignIdentities([
      { task: ':app:integrationTest', module: ':app', cases: [ok('A', 'x')] },
      { task: ':app:test', module: ':app', cases: [ok('A', 'x')] },
      { task: ':lib:test', module: ':lib', cases: [ok('A', 'x')] },
    ]);
    // `test` keeps the plain identities, so adding integrationTest renames nothing that existed.
    expect(r.map((c) => [c.module, c.name, c.task, c.occurrence])).toEqual([
      [':app', 'x', ':app:test', 1],
      [':app', 'x [#2]', ':app:integrationTest', 1],
      [':lib', 'x', ':lib:test', 1],
    ]);
  });

  it('never collides with a real test already named like a suffix', () => {
    const r = assignIdentities([{ task: ':t', module: ':', cases: [ok('A', 'x [#2]'), ok('A', 'x'), ok('A', 'x')] }]);
    const names = r.map((c) => c.name);
    expect(new Set(names).size).toBe(3);
    expect(names).toEqual(['x [#2]', 'x', 'x [#3]']);
  });
});
