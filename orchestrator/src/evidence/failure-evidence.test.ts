import { describe, expect, it } from '@jest/globals';
import * as v from 'valibot';
import { FAILURE_BOUNDS, FailureGroup, RepetitionFailure } from '#contract';
import type { FailureDetail, RecordedRepetition } from '../repetitions/stress-pass-result.js';
import { failureEvidence, groupsLine } from './failure-evidence.js';

const S = 'shop.CheckoutTest';
const detail = (o: Partial<FailureDetail> = {}): FailureDetail => ({
  kind: 'failure', type: 'java.lang.AssertionError', message: 'expected 30 but was 27', trace: `java.lang.AssertionError: expected 30 but was 27\n\tat ${S}.applies(CheckoutTest.java:42)\n\tat org.junit.runners.ParentRunner.run(ParentRunner.java:1)`,
  stdoutTail: null, stderrTail: null, exitCode: null, signal: null, hsErrFile: null, ...o,
});
const failed = (n: number, d: FailureDetail = detail()): RecordedRepetition => ({ repetition: n, status: 'failure', durationMs: 12, failure: d, ...(d.kind === 'crash' ? { crashed: true } : {}) });

describe('failure evidence', () => {
  it('is none when every repetition passed', () => {
    expect(failureEvidence(S, [{ repetition: 1, status: 'success', durationMs: 1 }])).toBeNull();
  });

  it('keeps each failure within the contract\'s bounds, says when it cut, and never splits a character', () => {
    const long = `${'x'.repeat(FAILURE_BOUNDS.message - 1)}😀tail`;
    const e = failureEvidence(S, [failed(3, detail({ message: long, stdoutTail: `${Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n')}\n` }))])!;
    const f = e.failures[0]!;
    expect(v.safeParse(RepetitionFailure, f).success).toBe(true);
    expect(f.message!.length).toBeLessThanOrEqual(FAILURE_BOUNDS.message);
    expect(f.message!.isWellFormed()).toBe(true);
    expect(f.truncated).toBe(true);
    // The tail keeps the latest lines, closest to the failure.
    expect(f.stdoutTail!.endsWith('line 99')).toBe(true);
    expect(f.stdoutTail!.startsWith('…')).toBe(true);
    expect(f).toMatchObject({ repetition: 3, kind: 'failure', type: 'java.lang.AssertionError', framesOmitted: 1, durationMs: 12, exitCode: null, signal: null });
    expect(f.stackTrace).toBe(`java.lang.AssertionError: expected 30 but was 27\n\tat ${S}.applies(CheckoutTest.java:42)\n\t... 1 more`);
    const short = failureEvidence(S, [failed(1)])!.failures[0]!;
    expect(short.truncated).toBe(false);
  });

  it('keeps the lines after a message\'s one long line within the bound: the line that says what was expected survives', () => {
    const message = `${'x'.repeat(FAILURE_BOUNDS.stackTrace + 500)}\nexpected: <30> but was: <27>`;
    const f = failureEvidence(S, [failed(1, detail({ message, trace: `org.opentest4j.AssertionFailedError: ${message}\n\tat ${S}.applies(CheckoutTest.java:42)` }))])!.failures[0]!;
    expect(f.message!.length).toBeLessThanOrEqual(FAILURE_BOUNDS.message);
    expect(f.message!.endsWith('…\nexpected: <30> but was: <27>')).toBe(true);
    expect(f.stackTrace).toContain(`…\nexpected: <30> but was: <27>\n\tat ${S}.applies(CheckoutTest.java:42)`);
    expect(f.truncated).toBe(true);
  });

  it('groups a timeout by the test\'s own line, whatever JDK frames or lambda hidden class it was caught in', () => {
    // JUnit 4's @Test(timeout = 100): the trace is the test thread's where the timeout found it.
    const timeout = (owner: string, top: string[]): FailureDetail =>
      detail({
        type: 'org.junit.runners.model.TestTimedOutException',
        message: 'test timed out after 100 milliseconds',
        trace: [
          'org.junit.runners.model.TestTimedOutException: test timed out after 100 milliseconds',
          ...top.map((f) => `\tat ${f}`),
          `\tat app//${owner}.lambda$waits$0(${owner.slice(owner.lastIndexOf('.') + 1)}.java:20)`,
          `\tat app//${owner}$$Lambda$${top.length}/0x00000008000${top.length}c4b8.run(Unknown Source)`,
          `\tat app//${owner}.retry(${owner.slice(owner.lastIndexOf('.') + 1)}.java:31)`,
          `\tat app//${owner}.waits(${owner.slice(owner.lastIndexOf('.') + 1)}.java:25)`,
          '\tat java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)',
          '\tat org.junit.internal.runners.statements.FailOnTimeout$CallableStatement.call(FailOnTimeout.java:299)',
        ].join('\n'),
      });
    const tops = [
      ['java.base@17.0.9/java.lang.Thread.sleep(Native Method)'],
      ['java.base/java.lang.Thread.sleep0(Native Method)', 'java.base/java.lang.Thread.sleep(Thread.java:509)'],
      ['java.base/jdk.internal.misc.Unsafe.park(Native Method)', 'java.base/java.util.concurrent.locks.LockSupport.parkNanos(LockSupport.java:252)', 'java.base/java.lang.Thread.sleep(Thread.java:512)'],
    ];
    // The test's own class, and a test method it inherits from a base class (its frames are the base class's).
    for (const [suite, owner, file] of [['shop.SlowTest', 'shop.SlowTest', 'SlowTest.java'], ['shop.SlowCounterTest', 'shop.AbstractCounterTest', 'AbstractCounterTest.java']] as const) {
      const e = failureEvidence(suite, tops.map((top, i) => failed(i + 1, timeout(owner, top))))!;
      expect(e.groups).toHaveLength(1);
      expect(e.groups[0]).toMatchObject({ location: `${file}:20`, count: 3, signature: `org.junit.runners.model.TestTimedOutException at ${owner}.lambda$waits$0(${file}:20)` });
      expect(groupsLine(e, 3)).toBe(`3 failed, all alike: TestTimedOutException at ${file}:20`);
    }
  });

  it('counts failures and groups beyond their bounds instead of dropping them silently', () => {
    const many = Array.from({ length: 25 }, (_, i) => failed(i + 1, detail({ trace: `E\n\tat ${S}.applies(CheckoutTest.java:${i % 12})` })));
    const e = failureEvidence(S, many)!;
    expect(e.failures).toHaveLength(FAILURE_BOUNDS.failuresPerCase);
    expect(e.failuresOmitted).toBe(5);
    expect(e.groups).toHaveLength(FAILURE_BOUNDS.groupsPerCase);
    expect(e.groupsOmitted).toBe(2);
    for (const g of e.groups) expect(v.safeParse(FailureGroup, g).success).toBe(true);
    expect(groupsLine(e, 25)).toMatch(/^25 failed, 12 distinct: AssertionError at CheckoutTest\.java:0 \(3x\), .*, and 2 more$/);
  });

  it('signs a JVM that died by its signal or exit code, with its hs_err file', () => {
    const e = failureEvidence(S, [failed(2, detail({ kind: 'crash', type: null, message: null, trace: null, signal: 'SIGKILL', hsErrFile: '/b/hs_err_pid7.log' })), failed(5, detail({ kind: 'crash', type: null, message: null, trace: null, exitCode: 3 }))])!;
    expect(e.groups.map((g) => g.signature)).toEqual(['JVM crash (SIGKILL)', 'JVM crash (exit code 3)']);
    expect(e.failures[0]).toMatchObject({ kind: 'crash', signal: 'SIGKILL', exitCode: null, hsErrFile: '/b/hs_err_pid7.log' });
    expect(e.failures[1]).toMatchObject({ kind: 'crash', signal: null, exitCode: 3, hsErrFile: null });
  });
});
