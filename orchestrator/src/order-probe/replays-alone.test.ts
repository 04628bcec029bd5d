import { describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import type { ProbeTest } from '../repetitions/order-probe-result.js';
import type { InOrderOptions, SequenceRun, StepResult } from '../repetitions/sequence-run.js';
import { runOrderProbe } from './run-probe.js';
import { gradleSource } from '../../test/support/builders.js';

const test = (suite: string, name: string): ProbeTest => ({ module: ':app', suite, name, durationMs: 5, testCaseId: `${suite}#${name}`, source: gradleSource(':app:test', name) });
const ok: StepResult = { status: 'success', durationMs: 1 };
const failed: StepResult = { status: 'failure', durationMs: 1, failure: { kind: 'failure', type: 'java.net.BindException', message: 'Address already in use', trace: null, stdoutTail: '', stderrTail: '', exitCode: null, signal: null, hsErrFile: null } };

describe('the order probe replays', () => {
  it('run one JVM at a time, whatever the shared round ran side by side (a replay must not share a port with another)', async () => {
    const leaky = test('shop.ServerTest', 'z_leaks');
    const binder = test('shop.ServerTest', 'b_binds');
    const rounds: InOrderOptions[] = [];
    const runInOrder = async (sequences: readonly (readonly ProbeTest[])[], options: InOrderOptions) => {
      rounds.push(options);
      // Shared round: the binder fails right after the leak; replays: the pair fails, the binder alone passes.
      const runs: SequenceRun[] = sequences.map((s) => ({ dir: '/x', steps: s.map((t, i) => (t === binder && i > 0 ? failed : ok)) }));
      return { ok: true as const, runs, cut: false, cancelled: false, jvms: sequences.length, wallClockMs: 1 };
    };
    const { perCandidate } = await runOrderProbe(
      { candidates: [leaky], pool: [leaky, binder], seed: 1, budgetMs: 60_000, concurrency: 4, jvmStartMs: 100 },
      { build: { runInOrder }, logger: pino({ level: 'silent' }), err: () => {}, now: () => 0 },
    );
    expect(rounds.map((r) => [r.round, r.concurrency])).toEqual([
      ['order-probe/shared', 4],
      ['order-probe/replays', 1],
    ]);
    expect(perCandidate.get(leaky.testCaseId)!.findings.map((f) => [f.role, f.other.name])).toEqual([['polluter', 'b_binds']]);
  });
});
