import { describe, expect, it } from '@jest/globals';
import { DEFAULT_STRESS_PARAMETERS } from '#contract';
import { candidate, gradleSource } from '../../test/support/builders.js';
import { predictCeiling } from '../guard/predict-ceiling.js';
import { plannedJvms } from '../jvm/direct-pass.js';
import { groupInvocations, invocationMethod } from './invocation-groups.js';

const curve = DEFAULT_STRESS_PARAMETERS.curve;
const invocation = (name: string, durationMs = 20, task = ':app:test') => candidate(name, { durationMs, source: gradleSource(task, name) });

describe('the new invocations of one method', () => {
  it('reads the method of an invocation as every build tool names it', () => {
    expect(invocationMethod('adds(int, int)[3]')).toBe('adds(int, int)');
    expect(invocationMethod('adds[2: 1+1]')).toBe('adds');
    expect(invocationMethod('adds[0](1, 1, 2)')).toBe('adds');
    expect(invocationMethod('greetsEach()[1][2]')).toBe('greetsEach()');
    expect(invocationMethod('plain')).toBeNull();
  });

  it('groups two or more of one task and class, priced once from the sum of their durations', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => invocation(`adds(int)[${i + 1}]`, 60));
    const grouped = groupInvocations([...hundred, invocation('plain'), invocation('other(int)[1]')], curve);
    const groups = new Set(grouped.map((c) => c.group));
    expect(groups.size).toBe(2); // the hundred, and undefined
    // 100 x 60 ms = 6 s: the curve's 5-10 s bucket, 5 repetitions each, shared.
    expect(grouped.slice(0, 100).every((c) => c.repetitions === 5 && c.group === grouped[0]!.group)).toBe(true);
    expect(grouped.slice(100).map((c) => [c.name, c.group, c.repetitions])).toEqual([['plain', undefined, 10], ['other(int)[1]', undefined, 10]]);
    // Five JVMs for the hundred, not five hundred: the prediction and the plan agree.
    expect(plannedJvms(grouped)).toBe(5 + 10 + 10);
    expect(predictCeiling(grouped, 500, 600, 1)).toMatchObject({ jvms: 25, predictedMs: 5 * (500 + 6000) + 20 * (500 + 20) });
  });

  it('keeps apart invocations of other tasks, and a group the curve would exclude whole', () => {
    const g = groupInvocations([invocation('adds[1]', 20, ':app:test'), invocation('adds[2]', 20, ':app:integrationTest')], curve);
    expect(g.every((c) => c.group === undefined)).toBe(true);
    const slow = groupInvocations([invocation('adds[1]', 200_000), invocation('adds[2]', 200_000)], curve);
    expect(slow.map((c) => [c.group, c.repetitions])).toEqual([[undefined, 10], [undefined, 10]]);
  });

  it('never groups an excluded invocation', () => {
    const excluded = { ...invocation('adds[3]'), repetitions: null, excluded: { reason: 'slow' as const, detail: '' } };
    const g = groupInvocations([invocation('adds[1]'), invocation('adds[2]'), excluded], curve);
    expect(g.map((c) => c.group !== undefined)).toEqual([true, true, false]);
  });
});
