import { describe, expect, it } from '@jest/globals';
import type { TaskResults } from '../first-pass/read-results.js';
import { assignIdentities, type TestCaseResult } from '../first-pass/test-case-result.js';
import type { ForkConfig } from '../jvm/runner-log.js';
import { GradleLocator, gradleLocator, gradleUnits } from './gradle-locator.js';

const ok = (suite: string, name: string) => ({ suite, name, status: 'success' as const, durationMs: 1 });

// Gradle's identities: each Test task a unit of the first pass, its identity module from the task's path.
const identities = (tasks: TaskResults[]) => assignIdentities(gradleUnits(tasks, new Map()));
const task = (c: TestCaseResult) => gradleLocator(c.source).task;
const occurrence = (c: TestCaseResult) => gradleLocator(c.source).occurrence;

describe('Gradle identities (gradleUnits, assignIdentities)', () => {
  it('keeps plain identities when they are unique', () => {
    const r = identities([{ task: ':app:test', module: ':app', cases: [ok('A', 'x'), ok('A', 'y')] }]);
    expect(r.map((c) => [c.module, c.suite, c.name, task(c), c.source.xmlName, occurrence(c)])).toEqual([
      [':app', 'A', 'x', ':app:test', 'x', 1],
      [':app', 'A', 'y', ':app:test', 'y', 1],
    ]);
  });

  it('disambiguates a name repeated within a task with " [#n]" and remembers the occurrence', () => {
    const r = identities([{ task: ':app:test', module: ':app', cases: [ok('P', 'm[0]'), ok('P', 'm[0]'), ok('P', 'm[0]')] }]);
    expect(r.map((c) => [c.name, c.source.xmlName, occurrence(c)])).toEqual([
      ['m[0]', 'm[0]', 1],
      ['m[0] [#2]', 'm[0]', 2],
      ['m[0] [#3]', 'm[0]', 3],
    ]);
  });

  it('tells two Test tasks of one module apart by the task, not by order', () => {
    const r = identities([
      { task: ':app:integrationTest', module: ':app', cases: [ok('A', 'x')] },
      { task: ':app:test', module: ':app', cases: [ok('A', 'x')] },
      { task: ':lib:test', module: ':lib', cases: [ok('A', 'x')] },
      { task: ':test', module: ':', cases: [ok('A', 'x')] },
      { task: ':slowTest', module: ':', cases: [ok('A', 'x')] },
    ]);
    expect(r.map((c) => [c.module, c.name, task(c), occurrence(c)])).toEqual([
      [':app', 'x', ':app:test', 1],
      [':app:integrationTest', 'x', ':app:integrationTest', 1],
      [':lib', 'x', ':lib:test', 1],
      [':slowTest', 'x', ':slowTest', 1],
      [':', 'x', ':test', 1],
    ].sort((a, b) => (a[2]! < b[2]! ? -1 : 1)));
  });

  it('adding a Test task on a branch renames no identity that existed before it', () => {
    const before = identities([{ task: ':app:test', module: ':app', cases: [ok('A', 'x'), ok('A', 'x'), ok('B', 'y')] }]);
    const after = identities([
      { task: ':app:aaaTest', module: ':app', cases: [ok('A', 'x'), ok('A', 'x'), ok('B', 'y')] },
      { task: ':app:test', module: ':app', cases: [ok('A', 'x'), ok('A', 'x'), ok('B', 'y')] },
    ]);
    const ids = (rs: typeof before) => rs.filter((c) => task(c) === ':app:test').map((c) => [c.module, c.suite, c.name]);
    expect(ids(after)).toEqual(ids(before));
    // And the other task's identities do not depend on whether `test` ran.
    const alone = identities([{ task: ':app:aaaTest', module: ':app', cases: [ok('A', 'x'), ok('A', 'x'), ok('B', 'y')] }]);
    expect(alone.map((c) => [c.module, c.name])).toEqual(after.filter((c) => task(c) === ':app:aaaTest').map((c) => [c.module, c.name]));
  });

  it('keeps a retried case as one identity with its executions (no " [#n]")', () => {
    const retried = { suite: 'A', name: 'x', status: 'success' as const, durationMs: 2, executions: [{ status: 'failure' as const, durationMs: 3 }, { status: 'success' as const, durationMs: 2 }] };
    const r = identities([{ task: ':app:test', module: ':app', cases: [retried, ok('A', 'y')] }]);
    expect(r.map((c) => [c.name, c.status, c.executions?.length])).toEqual([
      ['x', 'success', 2],
      ['y', 'success', undefined],
    ]);
  });

  it('settles a clash of a root task with a project of the same path by " [#n]" in task order', () => {
    const r = identities([
      { task: ':it:test', module: ':it', cases: [ok('A', 'x')] },
      { task: ':it', module: ':', cases: [ok('A', 'x')] },
    ]);
    expect(r.map((c) => [c.module, c.name, task(c)])).toEqual([
      [':it', 'x', ':it'],
      [':it', 'x [#2]', ':it:test'],
    ]);
  });

  it('never collides with a real test already named like a suffix', () => {
    const r = identities([{ task: ':t', module: ':', cases: [ok('A', 'x [#2]'), ok('A', 'x'), ok('A', 'x')] }]);
    const names = r.map((c) => c.name);
    expect(new Set(names).size).toBe(3);
    expect(names).toEqual(['x [#2]', 'x', 'x [#3]']);
  });

  it("gives each case its locator: its task and occurrence, and its task's platform JVM only when the platform ran it", () => {
    const platform = { userDir: '/p' } as ForkConfig;
    const units = gradleUnits([{ task: ':app:test', module: ':app', cases: [{ ...ok('A', 'x'), uniqueId: '[engine:junit-jupiter]/[class:A]/[method:x()]' }, ok('A', 'y')] }], new Map([[':app:test', platform]]));
    expect(units[0]!.unit).toBe(':app:test');
    const [x, y] = units[0]!.locators;
    expect(x).toEqual(new GradleLocator(':app:test', 1, platform));
    expect(y).toEqual(new GradleLocator(':app:test', 1));
    // JSON (the report, the log) says its task and occurrence, never the test JVM's configuration.
    const secret = { userDir: '/p', environment: { DEPLOY_PASSWORD: 'canary-p4ss' } } as unknown as ForkConfig;
    expect(JSON.stringify(new GradleLocator(':app:test', 2, secret))).toBe('{"task":":app:test","occurrence":2}');
    // Another adapter's locator is refused by name, never read as Gradle's.
    expect(() => gradleLocator({ unit: ':core:test', xmlName: 'x', locator: { occurrence: 1 } })).toThrow(/not found by the Gradle adapter's first pass/);
  });
});
