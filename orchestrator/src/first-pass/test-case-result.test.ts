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

  it('tells two Test tasks of one module apart by the task, not by order', () => {
    const r = assignIdentities([
      { task: ':app:integrationTest', module: ':app', cases: [ok('A', 'x')] },
      { task: ':app:test', module: ':app', cases: [ok('A', 'x')] },
      { task: ':lib:test', module: ':lib', cases: [ok('A', 'x')] },
      { task: ':test', module: ':', cases: [ok('A', 'x')] },
      { task: ':slowTest', module: ':', cases: [ok('A', 'x')] },
    ]);
    expect(r.map((c) => [c.module, c.name, c.task, c.occurrence])).toEqual([
      [':app', 'x', ':app:test', 1],
      [':app:integrationTest', 'x', ':app:integrationTest', 1],
      [':lib', 'x', ':lib:test', 1],
      [':slowTest', 'x', ':slowTest', 1],
      [':', 'x', ':test', 1],
    ].sort((a, b) => (a[2]! < b[2]! ? -1 : 1)));
  });

  it('adding a Test task on a branch renames no identity that existed before it', () => {
    const before = assignIdentities([{ task: ':app:test', module: ':app', cases: [ok('A', 'x'), ok('A', 'x'), ok('B', 'y')] }]);
    const after = assignIdentities([
      { task: ':app:aaaTest', module: ':app', cases: [ok('A', 'x'), ok('A', 'x'), ok('B', 'y')] },
      { task: ':app:test', module: ':app', cases: [ok('A', 'x'), ok('A', 'x'), ok('B', 'y')] },
    ]);
    const ids = (rs: typeof before) => rs.filter((c) => c.task === ':app:test').map((c) => [c.module, c.suite, c.name]);
    expect(ids(after)).toEqual(ids(before));
    // And the other task's identities do not depend on whether `test` ran.
    const alone = assignIdentities([{ task: ':app:aaaTest', module: ':app', cases: [ok('A', 'x'), ok('A', 'x'), ok('B', 'y')] }]);
    expect(alone.map((c) => [c.module, c.name])).toEqual(after.filter((c) => c.task === ':app:aaaTest').map((c) => [c.module, c.name]));
  });

  it('keeps a retried case as one identity with its executions (no " [#n]")', () => {
    const retried = { suite: 'A', name: 'x', status: 'success' as const, durationMs: 2, executions: [{ status: 'failure' as const, durationMs: 3 }, { status: 'success' as const, durationMs: 2 }] };
    const r = assignIdentities([{ task: ':app:test', module: ':app', cases: [retried, ok('A', 'y')] }]);
    expect(r.map((c) => [c.name, c.status, c.executions?.length])).toEqual([
      ['x', 'success', 2],
      ['y', 'success', undefined],
    ]);
  });

  it('settles a clash of a root task with a project of the same path by " [#n]" in task order', () => {
    const r = assignIdentities([
      { task: ':it:test', module: ':it', cases: [ok('A', 'x')] },
      { task: ':it', module: ':', cases: [ok('A', 'x')] },
    ]);
    expect(r.map((c) => [c.module, c.name, c.task])).toEqual([
      [':it', 'x', ':it'],
      [':it', 'x [#2]', ':it:test'],
    ]);
  });

  it('never collides with a real test already named like a suffix', () => {
    const r = assignIdentities([{ task: ':t', module: ':', cases: [ok('A', 'x [#2]'), ok('A', 'x'), ok('A', 'x')] }]);
    const names = r.map((c) => c.name);
    expect(new Set(names).size).toBe(3);
    expect(names).toEqual(['x [#2]', 'x', 'x [#3]']);
  });
});
