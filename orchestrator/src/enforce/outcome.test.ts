import { describe, expect, it } from '@jest/globals';
import { candidate, reps } from '../../test/support/builders.js';
import { classifyCandidate, decideGate } from './outcome.js';

describe('classifyCandidate', () => {
  it('passes only a candidate whose every expected repetition ran and passed', () => {
    expect(classifyCandidate(candidate('a'), reps(10), false).outcome).toBe('passed');
  });

  it('fails a candidate with any failed repetition, counting all of them', () => {
    const r = classifyCandidate(candidate('a'), reps(10, [3, 7]), false);
    expect(r).toMatchObject({ outcome: 'failed', failures: 2, expected: 10 });
  });

  it.each([0, 1, 9])('never counts a candidate with %i of 10 repetitions as passed', (ran) => {
    expect(classifyCandidate(candidate('a'), reps(ran), false).outcome).toBe('error');
    expect(classifyCandidate(candidate('a'), reps(ran), true).outcome).toBe('not_stressed');
  });

  it('is an error when the verdict names a test the run does not have', () => {
    expect(classifyCandidate(candidate('a', { source: null }), [], false)).toMatchObject({ outcome: 'error', why: expect.stringContaining('did not report') });
  });

  it('never passes a candidate priced at zero repetitions', () => {
    expect(classifyCandidate(candidate('a', { repetitions: 0 }), [], false).outcome).toBe('error');
  });

  it('keeps excluded candidates excluded', () => {
    const c = candidate('slow', { repetitions: null, excluded: { reason: 'slow', detail: '' }, durationMs: 362_000 });
    expect(classifyCandidate(c, [], false)).toMatchObject({ outcome: 'excluded', expected: 0 });
  });

  it('reports a failure found before the ceiling cut as failed', () => {
    expect(classifyCandidate(candidate('a'), reps(4, [2]), true).outcome).toBe('failed');
  });
});

describe('what the stress pass found besides the repetitions', () => {
  const failing = (n: number, at: number[]) => reps(n, at).map((r) => (r.status === 'failure' ? { ...r, failure: { kind: 'failure' as const, type: 'java.lang.AssertionError', message: 'timed out after 5 s', trace: null, stdoutTail: null, stderrTail: null, exitCode: null, signal: null, hsErrFile: null } } : r));

  it('a candidate the runner could not run is a gate error in the runner\'s words, never passed', () => {
    const r = classifyCandidate(candidate('a'), [], { cut: false, unrunnable: 'the JUnit Platform found no such test; test engines on the class path: junit-vintage 5.14.4' });
    expect(r).toMatchObject({ outcome: 'error', why: 'the JUnit Platform found no such test; test engines on the class path: junit-vintage 5.14.4' });
  });

  it('failed side by side and passed every repetition alone: passed, reported as timing-sensitive with what failed', () => {
    const r = classifyCandidate(candidate('a'), reps(10), { cut: false, sideBySide: failing(10, [3, 8]) });
    expect(r).toMatchObject({ outcome: 'passed', failures: 0, timingSensitive: { failures: 2, repetitions: 10 } });
    expect(r.timingSensitive!.evidence!.failures[0]).toMatchObject({ repetition: 3, message: 'timed out after 5 s' });
  });

  it('blocks a timing-sensitive test when the project says so', () => {
    const r = classifyCandidate(candidate('a'), reps(10), { cut: false, sideBySide: failing(10, [3, 8]), timingSensitiveBlocks: true });
    expect(r).toMatchObject({ outcome: 'failed', failures: 2 });
    expect(decideGate('enforce', 0, [r], null)).toMatchObject({ blocked: true, exitCode: 1 });
  });

  it('failed every repetition after passing in the build, in a JVM that differed from the build\'s: a gate error naming the difference, never a block', () => {
    const c = candidate('a', { firstPassStatus: 'success' });
    const r = classifyCandidate(c, failing(4, [1, 2, 3, 4]), { cut: false, mismatch: ['JVM argument "-javaagent:/m2/jacoco.jar": in the build, not in the repetition', 'system property x: the build\'s "1", the repetition\'s unset'] });
    expect(r).toMatchObject({ outcome: 'error', failures: 4 });
    expect(r.why).toBe('it failed every repetition although it passed in the build, in a JVM that differed from the build\'s (2 differences, below)');
    expect(r.mismatch).toHaveLength(2);
    expect(decideGate('enforce', 0, [r], null)).toMatchObject({ blocked: false, outcome: 'incomplete' });
  });

  it('failed every repetition and the gate sees no difference: failed, with the (empty) comparison kept for the report', () => {
    const r = classifyCandidate(candidate('a', { firstPassStatus: 'success' }), failing(4, [1, 2, 3, 4]), { cut: false, mismatch: [] });
    expect(r).toMatchObject({ outcome: 'failed', mismatch: [] });
  });
});

describe('decideGate', () => {
  const passed = classifyCandidate(candidate('a'), reps(10), false);
  const failed = classifyCandidate(candidate('b'), reps(10, [1]), false);
  const mutedFailed = classifyCandidate(candidate('m', { muted: true }), reps(10, [1, 2, 3]), false);
  const cut = classifyCandidate(candidate('c'), reps(3), true);
  const missing = classifyCandidate(candidate('d'), reps(0), false);

  it('report never changes the exit code; enforce exits 1 when a candidate failed', () => {
    expect(decideGate('report', 0, [passed, failed], null)).toEqual({ outcome: 'failed', blocked: false, wouldHaveBlocked: true, exitCode: 0 });
    expect(decideGate('enforce', 0, [passed, failed], null)).toEqual({ outcome: 'failed', blocked: true, wouldHaveBlocked: true, exitCode: 1 });
    expect(decideGate('enforce', 0, [passed], null)).toEqual({ outcome: 'passed', blocked: false, wouldHaveBlocked: false, exitCode: 0 });
  });

  it('a muted candidate cannot fail the gate', () => {
    expect(decideGate('enforce', 0, [passed, mutedFailed], null)).toMatchObject({ outcome: 'passed', blocked: false, exitCode: 0 });
  });

  it('a candidate in error (the gate\'s own trouble) or cut by the ceiling makes it incomplete, never passed, never blocked', () => {
    expect(missing).toMatchObject({ outcome: 'error', why: '10 of 10 repetitions left no result' });
    expect(decideGate('enforce', 0, [passed, missing], null)).toEqual({ outcome: 'incomplete', blocked: false, wouldHaveBlocked: false, exitCode: 0 });
    expect(decideGate('enforce', 3, [passed, missing], null)).toMatchObject({ blocked: false, exitCode: 3 });
    expect(decideGate('enforce', 0, [failed, missing], null)).toMatchObject({ outcome: 'failed', blocked: true, exitCode: 1 });
    expect(decideGate('enforce', 0, [passed, cut], null)).toMatchObject({ outcome: 'incomplete', blocked: false, exitCode: 0 });
    expect(decideGate('report', 0, [cut], null).outcome).not.toBe('passed');
  });

  it('an order-dependent candidate blocks in enforce by default; a project can make order findings report-only', () => {
    const order = { ...passed, outcome: 'order_dependent' as const };
    expect(decideGate('enforce', 0, [passed, order], null)).toEqual({ outcome: 'failed', blocked: true, wouldHaveBlocked: true, exitCode: 1 });
    expect(decideGate('report', 0, [order], null)).toEqual({ outcome: 'failed', blocked: false, wouldHaveBlocked: true, exitCode: 0 });
    expect(decideGate('enforce', 0, [passed, order], null, false)).toEqual({ outcome: 'passed', blocked: false, wouldHaveBlocked: false, exitCode: 0 });
    expect(decideGate('enforce', 0, [{ ...order, muted: true }], null)).toMatchObject({ blocked: false });
  });

  it('a guard never yields passed, whatever the candidates say', () => {
    const guard = { name: 'candidate_cap' as const, count: 250, reason: 'Candidate cap: …' };
    const d = decideGate('enforce', 0, [passed, passed], guard);
    expect(d).toEqual({ outcome: 'guarded', blocked: false, wouldHaveBlocked: false, exitCode: 0 });
  });
});
