import { describe, expect, it } from '@jest/globals';
import { candidate, classifyCandidate, reps } from '../../test/support/builders.js';
import type { FirstPass } from '../first-pass/first-pass.js';
import { silentLogger } from '../base/log.js';
import type { InOrderOutcome } from '../repetitions/sequence-run.js';
import { probedCandidates, probeOrder } from './order-findings.js';
import { probeSettings } from '../config/probe-settings.js';

const passed = classifyCandidate(candidate('addsItem'), reps(10), false);
const failed = classifyCandidate(candidate('removesItem'), reps(10, [2]), false);
const first = {
  cases: [passed, failed, candidate('old')].map((c) => ({ module: c.module, suite: c.suite, name: c.name, status: 'success' as const, durationMs: 5, source: c.source!, muted: false })),
} as unknown as FirstPass;
const step = (over: Partial<Parameters<typeof probeOrder>[2]> = {}) => ({ settings: probeSettings({}, 600, () => 9), ceilingLeftMs: 500_000, concurrency: 2, jvmStartMs: 300, tool: ['gradle'], buildArgs: ['test'], ...over });
const deps = (runInOrder: () => Promise<InOrderOutcome>) => ({ build: { runInOrder }, logger: silentLogger(), err: () => undefined, now: Date.now });

describe('probeOrder', () => {
  it('probes only candidates that passed every repetition; the repetitions\' verdicts stand', async () => {
    let asked = 0;
    const { results, summary } = await probeOrder([passed, failed], first, step(), deps(async () => {
      asked++;
      return { ok: true, runs: [{ steps: [0, 1, 2, 3, 4].map(() => ({ status: 'success' as const, durationMs: 1 })), dir: '/x' }], cut: false, cancelled: false, jvms: 1, wallClockMs: 5 };
    }));
    expect(asked).toBe(1);
    expect(results.map((r) => [r.outcome, r.orderProbe?.status])).toEqual([['passed', 'probed'], ['failed', undefined]]);
    // The flaky new test is no partner: only the old one is.
    expect(summary).toMatchObject({ seed: 9, candidates: 1, pairs: 1 });
  });

  it('fails open: a probe that throws leaves every verdict as it was, and says why', async () => {
    const { results, summary } = await probeOrder([passed, failed], first, step(), deps(async () => {
      throw new Error('spawn java EAGAIN');
    }));
    expect(results.map((r) => r.outcome)).toEqual(['passed', 'failed']);
    expect(results[0]!.orderProbe).toMatchObject({ status: 'not_run', why: 'it failed: spawn java EAGAIN' });
    expect(summary!.why).toBe('it failed: spawn java EAGAIN');
  });

  it('no ceiling left after the repetitions: every candidate\'s probe is cut, none runs', async () => {
    const { results, summary } = await probeOrder([passed], first, step({ ceilingLeftMs: -20 }), deps(async () => {
      throw new Error('must not run');
    }));
    expect(results[0]!.orderProbe).toMatchObject({ status: 'cut', why: 'the repetitions used the whole ceiling: no time was left for the order probe' });
    expect(summary).toMatchObject({ cut: true, jvms: 0 });
  });

  it('off: nothing is probed', async () => {
    const off = step({ settings: probeSettings({ STRESS_GATE_ORDER_PROBE: '0' }, 600) });
    expect(off.settings.enabled).toBe(false);
    const { results, summary } = await probeOrder([passed], first, off, deps(async () => {
      throw new Error('must not run');
    }));
    expect(results[0]!.orderProbe).toBeUndefined();
    expect(summary).toBeNull();
  });
});

describe('probedCandidates', () => {
  it('takes the first of a method\'s new invocations only, and never a failed, muted or build-failed one', () => {
    const inv = (n: number) => classifyCandidate(candidate(`adds[${n}]`, { group: 'adds' }), reps(10), false);
    const muted = classifyCandidate(candidate('muted', { muted: true }), reps(10), false);
    const failedInBuild = { ...passed, name: 'inBuild', firstPassStatus: 'failure' as const };
    expect(probedCandidates([inv(1), inv(2), inv(3), passed, failed, muted, failedInBuild]).map((r) => r.name)).toEqual(['adds[1]', 'addsItem']);
  });
});

describe('probeSettings', () => {
  it('a seed to replay, a budget, and a usage error naming the key for a bad value', () => {
    expect(probeSettings({ STRESS_GATE_ORDER_SEED: '4294967295', STRESS_GATE_ORDER_PROBE_SECONDS: '90' }, 600)).toEqual({ enabled: true, seed: 4294967295, seedGiven: true, budgetSeconds: 90 });
    expect(probeSettings({}, 600, () => 1).budgetSeconds).toBe(150);
    expect(probeSettings({}, 60, () => 1).budgetSeconds).toBe(30);
    expect(() => probeSettings({ STRESS_GATE_ORDER_SEED: '4294967296' }, 600)).toThrow(/^STRESS_GATE_ORDER_SEED: expected a whole number/);
    expect(() => probeSettings({ STRESS_GATE_ORDER_PROBE_SECONDS: '-1' }, 600)).toThrow(/^STRESS_GATE_ORDER_PROBE_SECONDS: expected/);
    expect(() => probeSettings({ STRESS_GATE_ORDER_PROBE: 'maybe' }, 600)).toThrow(/^STRESS_GATE_ORDER_PROBE: expected 1, true/);
  });
});
