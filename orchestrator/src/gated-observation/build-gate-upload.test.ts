import { describe, expect, it } from '@jest/globals';
import * as v from 'valibot';
import { GateUpload } from '@stress-gate/verdict-api/contract';
import { candidate, classifyCandidate, gateReport, reps } from '../../test/support/builders.js';
import type { RecordedRepetition } from '../repetitions/stress-pass-result.js';
import { reproduction } from '../reproduce/reproduce-command.js';
import { buildGateUpload } from './build-gate-upload.js';

describe('buildGateUpload', () => {
  it('carries the verdict and every repetition, and satisfies the contract', () => {
    const results = [
      classifyCandidate(candidate('a'), reps(10, [2]), false),
      classifyCandidate(candidate('b', { muted: true }), reps(10), false),
      classifyCandidate(candidate('c', { repetitions: null, excluded: { reason: 'slow', detail: '' } }), [], false),
      classifyCandidate(candidate('d'), reps(3), true),
    ];
    const body = buildGateUpload(gateReport('report', results))!;
    expect(v.safeParse(GateUpload, body).success).toBe(true);
    expect(body).toMatchObject({ mode: 'report', outcome: 'failed', candidatesExamined: 4, stressed: 2, excluded: 1, notStressed: 1, blocked: false, wouldHaveBlocked: true });
    expect(body.testCases.map((t) => [t.name, t.outcome, t.muted, t.repetitions.length])).toEqual([
      ['a', 'failed', false, 10],
      ['b', 'passed', true, 10],
      ['d', 'not_stressed', false, 3],
    ]);
  });

  it('records a guard with its name and count, and no repetitions', () => {
    const guard = { name: 'ceiling' as const, count: 40, reason: 'Ceiling: …' };
    const results = [classifyCandidate(candidate('a'), [], true)].map((r) => ({ ...r, outcome: 'not_stressed' as const }));
    const body = buildGateUpload(gateReport('enforce', results, guard))!;
    expect(body).toMatchObject({ outcome: 'guarded', guard: { name: 'ceiling', count: 40, reason: 'Ceiling: …' }, blocked: false, testCases: [] });
  });

  it('carries a timing-sensitive candidate: its side-by-side counts, their evidence, its reproduce command', () => {
    const timeout = (repetition: number): RecordedRepetition => ({
      repetition, status: 'failure', durationMs: 5000,
      failure: { kind: 'failure', type: 'java.util.concurrent.TimeoutException', message: 'waited 5 s', trace: 'java.util.concurrent.TimeoutException: waited 5 s\n\tat com.shop.CheckoutTest.waits(CheckoutTest.java:9)', stdoutTail: null, stderrTail: null, exitCode: null, signal: null, hsErrFile: null },
    });
    const sideBySide = reps(10).map((r) => ([3, 7].includes(r.repetition) ? timeout(r.repetition) : r));
    const results = [false, true].map((blocks) => {
      const r = classifyCandidate(candidate(blocks ? 'blocks' : 'waits'), reps(10), { cut: false, sideBySide, timingSensitiveBlocks: blocks });
      return Object.assign(r, reproduction(['gradle'], ['test', '--offline'], r, 50, { kind: 'package', version: '0.1.0' }));
    });
    const body = buildGateUpload(gateReport('enforce', results))!;
    expect(v.safeParse(GateUpload, body).success).toBe(true);
    for (const [t, outcome] of [[body.testCases[0]!, 'passed'], [body.testCases[1]!, 'failed']] as const) {
      expect(t).toMatchObject({ outcome, timingSensitive: { failures: 2, repetitions: 10 }, failuresOmitted: 0 });
      // The command's parts, never its text: the server quotes them with the identity it stores.
      expect(t.reproduce).toEqual({ launcher: { kind: 'package', version: '0.1.0' }, tool: ['gradle'], buildArgs: ['test', '--offline'], repetitions: 50 });
      expect('reproduceCommand' in t).toBe(false);
      expect(t.repetitions.every((r) => r.status === 'success')).toBe(true);
      expect(t.failures!.map((f) => [f.repetition, f.type, f.message])).toEqual([[3, 'java.util.concurrent.TimeoutException', 'waited 5 s'], [7, 'java.util.concurrent.TimeoutException', 'waited 5 s']]);
      expect(t.failureGroups).toEqual([{ signature: 'java.util.concurrent.TimeoutException at com.shop.CheckoutTest.waits(CheckoutTest.java:9)', type: 'java.util.concurrent.TimeoutException', location: 'CheckoutTest.java:9', count: 2, repetitions: [3, 7] }]);
    }
    // A candidate that is not timing-sensitive sends no such key.
    const plain = buildGateUpload(gateReport('enforce', [classifyCandidate(candidate('a'), reps(10, [2]), false)]))!;
    expect('timingSensitive' in plain.testCases[0]!).toBe(false);
  });

  it('leaves out reproduce parts past the contract\'s bounds rather than have the upload refused', () => {
    const r = Object.assign(classifyCandidate(candidate('a'), reps(10, [2]), false), reproduction(['gradle'], Array.from({ length: 300 }, (_, i) => `-Pp${i}=x`), candidate('a'), 50, { kind: 'local' }));
    const body = buildGateUpload(gateReport('enforce', [r]))!;
    expect(body.testCases[0]!.reproduce).toBeNull();
    expect(v.safeParse(GateUpload, body).success).toBe(true);
  });

  it('uploads nothing when the server could not be asked', () => {
    expect(buildGateUpload(gateReport('report', [], null, { outcome: 'server_unavailable' }))).toBeNull();
  });
});
