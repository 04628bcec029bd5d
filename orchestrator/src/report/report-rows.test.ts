import { describe, expect, it } from '@jest/globals';
import type { FailureDetail, RecordedRepetition } from '../repetitions/stress-pass-result.js';
import { HALTED_WHY } from '../repetitions/stress-pass-result.js';
import { candidate, classifyCandidate, gateReport, reps, gradleSource } from '../../test/support/builders.js';
import { jvmTimeWords, passWords } from './report-document.js';
import { renderReport } from './render-report.js';
import { renderStepSummary } from './step-summary.js';

const timeout: FailureDetail = {
  kind: 'failure', type: 'java.util.concurrent.TimeoutException', message: 'no answer within 5 s',
  trace: 'java.util.concurrent.TimeoutException: no answer within 5 s\n\tat com.shop.CheckoutTest.appliesDiscount(CheckoutTest.java:42)',
  stdoutTail: null, stderrTail: null, exitCode: null, signal: null, hsErrFile: null,
};
const failingAt = (n: number, at: number[]): RecordedRepetition[] => reps(n, at).map((r) => (r.status === 'failure' ? { ...r, failure: timeout } : r));
const invocation = (i: number, recorded: RecordedRepetition[]) =>
  classifyCandidate(candidate(`adds(int)[${i}]`, { group: 'g', source: gradleSource(':app:test', `adds(int)[${i}]`) }), recorded, false);

describe('the new invocations of one method', () => {
  const hundred = () => Array.from({ length: 100 }, (_, i) => invocation(i + 1, i === 36 ? failingAt(10, [2, 5, 8]) : i === 80 ? failingAt(10, [1]) : reps(10)));

  it('say on their line whether the merge request modified the method, added to it, or both (a row added to a modified parameter source)', () => {
    const mixed = [1, 2, 3].map((i) => ({ ...invocation(i, reps(10)), ...(i < 3 ? { origin: 'modified' as const } : {}) }));
    expect(renderReport(gateReport('report', mixed))).toContain('  :app CheckoutTest.adds(int) — new and modified   3 invocations');
    const modified = [1, 2].map((i) => ({ ...invocation(i, reps(10)), origin: 'modified' as const }));
    expect(renderReport(gateReport('report', modified))).toContain('  :app CheckoutTest.adds(int) — modified   2 invocations');
  });

  it('are one line with the invocation count and the failing invocations; each failing one is a finding of its own', () => {
    const out = renderReport(gateReport('enforce', [...hundred(), classifyCandidate(candidate('plain'), reps(10), false)], null, { stressPass: { wallClockMs: 1, cut: false, gradleExitCode: null, executor: 'direct', jvms: 20, jvmsAtATime: 2 } }));
    expect(out).toContain('  :app CheckoutTest.adds(int)   100 invocations, 10 repetitions each, 2 failed: [37] 3 of 10, [81] 1 of 10; 98 passed\n');
    expect(out).toContain('  :app CheckoutTest.plain       10 repetitions, passed\n');
    expect(out).toContain('  1010 repetitions in 20 JVMs, 2 at a time\n');
    expect(out).toContain(' ! CheckoutTest.adds(int)[37] failed 3 of 10 repetitions and blocked this merge\n');
    expect(out).toContain(' ! CheckoutTest.adds(int)[81] failed 1 of 10 repetitions and blocked this merge\n');
    expect(out.split('\n').filter((l) => l.includes('adds(int)[') && !l.startsWith(' !')).length).toBe(0);
  });

  it('are one table row in the job summary, their repetitions summed', () => {
    const md = renderStepSummary(gateReport('report', hundred()));
    expect(md).toContain('| `:app CheckoutTest.adds(int) (100 invocations)` | 1000/1000 | 4 | 2 failed: \\[37\\] 3 of 10, \\[81\\] 1 of 10; 98 passed |');
  });

  it('say each reason once when they could not run', () => {
    const cannot = Array.from({ length: 5 }, (_, i) => classifyCandidate(candidate(`adds(int)[${i + 1}]`, { group: 'g' }), [], { cut: false, unrunnable: i < 3 ? 'no engine' : HALTED_WHY }));
    expect(renderReport(gateReport('report', cannot))).toContain('5 invocations, 10 repetitions each, 5 not stressed (gate error: no engine, and other reasons)');
  });
});

describe('how the stress pass ran, counted', () => {
  const pass = { wallClockMs: 1, cut: false, gradleExitCode: null, executor: 'direct' as const, jvmsAtATime: 2 };
  it('counts the JVMs that ran again alone, not only the planned ones', () => {
    expect(passWords({ ...pass, jvms: 20 }, 20)).toBe('20 repetitions in 2 JVMs at a time');
    expect(passWords({ ...pass, jvms: 40, jvmsAlone: 20, aloneMs: 39_000, wallClockMs: 53_000 }, 20)).toBe('20 repetitions in 20 JVMs, 2 at a time, then 20 JVMs again alone for what failed side by side (39s of the pass\'s 53s): 40 JVMs in all');
  });

  it('says where a repetition JVM\'s time went, so that a slow test and a slow gate can be told apart', () => {
    const perJvmMs = { jvms: 20, start: 36, discovery: 59, tests: 6, exit: 7 };
    expect(jvmTimeWords({ ...pass, jvms: 20, perJvmMs })).toBe('Per JVM on average: start 36 ms, discovery 59 ms, tests 6 ms, exit 7 ms');
    expect(jvmTimeWords({ ...pass, jvms: 10, perJvmMs: { ...perJvmMs, tests: 12_400 } })).toBe('Per JVM on average: start 36 ms, discovery 59 ms, tests 12.4s, exit 7 ms');
    expect(jvmTimeWords({ ...pass, jvms: 20 })).toBeNull();
  });
});

describe('a test that failed side by side and passed alone', () => {
  const ts = () => ({ ...classifyCandidate(candidate('appliesDiscount'), reps(10), { cut: false, sideBySide: failingAt(10, [3, 8]) }), reproduce: 'npx -p @stress-gate/orchestrator stress-orchestrator x' });

  it('is reported with what failed, and does not block by default', () => {
    const r = gateReport('enforce', [ts()]);
    expect(r).toMatchObject({ blocked: false, outcome: 'passed' });
    const out = renderReport(r);
    expect(out).toContain('  :app CheckoutTest.appliesDiscount   10 repetitions, passed alone, failed 2 of 10 side by side: timing-sensitive\n');
    expect(out).toContain(' ! CheckoutTest.appliesDiscount failed 2 of 10 side by side: timing-sensitive (a\n');
    expect(out).toContain('   2 failed, all alike: TimeoutException at CheckoutTest.java:42\n');
    expect(out).toContain('java.util.concurrent.TimeoutException: no answer within 5 s');
    expect(out).toContain('   Reproduce:\n     npx -p @stress-gate/orchestrator stress-orchestrator x\n');
  });

  it('blocks when the project says so, saying it passed alone', () => {
    const c = classifyCandidate(candidate('appliesDiscount'), reps(10), { cut: false, sideBySide: failingAt(10, [3, 8]), timingSensitiveBlocks: true });
    const out = renderReport(gateReport('enforce', [c]));
    expect(out).toContain(' ! CheckoutTest.appliesDiscount failed 2 of 10 repetitions side by side (it\n   passed all 10 again alone: timing-sensitive) and blocked this merge request.\n');
  });
});

describe('the gate\'s own trouble, said once', () => {
  it('a stopped pass names its cause once, and counts what it did not run', () => {
    const cause = 'the JUnit Platform found no such test; test engines on the class path: junit-vintage 5.14.4';
    const cs = ['a', 'b', 'c', 'd', 'e'].map((n, i) => classifyCandidate(candidate(n), [], { cut: false, unrunnable: i < 3 ? cause : HALTED_WHY }));
    const out = renderReport(gateReport('report', cs, null, { stressPass: { wallClockMs: 1, cut: false, gradleExitCode: null, executor: 'direct', jvms: 3, jvmsAtATime: 2, halted: { cause, targets: 3 } } })).replace(/\n {3}/g, ' ');
    expect(out.split(cause).length - 1).toBe(4); // three rows and the warning
    expect(out).toContain('CheckoutTest.d   0 of 10 repetitions, not stressed (gate error: not run: the stress pass stopped early (below))');
    expect(out).toContain(`The stress pass stopped early: its first 3 JVMs ran none of their tests, all for one reason: ${cause}. The other 2 new test cases were not run, so the ceiling was not spent on JVMs that could find no test.`);
  });

  it('a test that failed every repetition after passing in the build: every difference the gate saw', () => {
    const c = classifyCandidate(candidate('appliesDiscount', { firstPassStatus: 'success' }), failingAt(4, [1, 2, 3, 4]), { cut: false, mismatch: ['JVM argument "-javaagent:/m2/jacoco.jar": in the build, not in the repetition'] });
    const out = renderReport(gateReport('enforce', [c])).replace(/\n {3}/g, ' ');
    expect(out).toContain('not stressed (gate error: it failed every repetition although it passed in the build, in a JVM that differed from the build\'s (a difference, below))');
    expect(out).toContain('CheckoutTest.appliesDiscount It failed every repetition although it passed in the build, and its repetitions\' JVM differed from the build\'s: JVM argument "-javaagent:/m2/jacoco.jar": in the build, not in the repetition.');
  });

  it('and when it sees no difference, the test failed, and the report says where to look', () => {
    const c = classifyCandidate(candidate('appliesDiscount', { firstPassStatus: 'success' }), failingAt(4, [1, 2, 3, 4]), { cut: false, mismatch: [] });
    const out = renderReport(gateReport('enforce', [c])).replace(/\n {3}/g, ' ');
    expect(out).toContain('failed 4 of 4 repetitions and blocked this merge request. It failed every repetition although it passed in the build. The gate sees no difference');
    expect(out).toContain('it may depend on a test that ran before it in the build\'s JVM');
  });
});
