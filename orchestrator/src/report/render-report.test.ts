import { describe, expect, it } from '@jest/globals';
import type { FailureDetail, RecordedRepetition } from '../repetitions/stress-pass-result.js';
import { candidate, classifyCandidate, gateReport, reps } from '../../test/support/builders.js';
import type { GateReport } from './gate-report.js';
import { renderReport } from './render-report.js';
import { renderStepSummary } from './step-summary.js';

const S = 'com.shop.CheckoutTest';
const assertion = (message: string, line = 42): FailureDetail => ({
  kind: 'failure', type: 'java.lang.AssertionError', message,
  trace: `java.lang.AssertionError: ${message}\n\tat org.junit.Assert.fail(Assert.java:89)\n\tat ${S}.appliesDiscount(CheckoutTest.java:${line})\n\tat java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)\n\tat org.junit.runners.ParentRunner.run(ParentRunner.java:413)`,
  stdoutTail: 'applying 10%\n', stderrTail: null, exitCode: null, signal: null, hsErrFile: null,
});
/** Ten repetitions of appliesDiscount: 4 and 9 fail as `details` say. */
const withFailures = (details: Record<number, FailureDetail>): RecordedRepetition[] =>
  reps(10, Object.keys(details).map(Number)).map((r) => (details[r.repetition] ? { ...r, failure: details[r.repetition]!, ...(details[r.repetition]!.kind === 'crash' ? { crashed: true } : {}) } : r));
const three = () => [
  classifyCandidate(candidate('appliesDiscount'), withFailures({ 4: assertion('expected 30 but was 27'), 9: assertion('expected 30 but was 27') }), false),
  classifyCandidate(candidate('clearsCart'), reps(10), false),
  classifyCandidate(candidate('total', { suite: 'com.shop.CartTest' }), reps(10), false),
];

describe('renderReport', () => {
  it('prints the RFC shape in report mode', () => {
    expect(renderReport(gateReport('report', three()))).toBe(
      [
        'Stress-testing new tests',
        '  3 new test cases, 3 stressed, 0 excluded',
        '  :app CheckoutTest.appliesDiscount   10 repetitions, 2 failed',
        '  :app CheckoutTest.clearsCart        10 repetitions, passed',
        '  :app CartTest.total                 10 repetitions, passed',
        '  10 clean repetitions rule out a failure rate above 26% per run (95%',
        '  confidence); rarer flakes can pass.',
        '',
        ' ! CheckoutTest.appliesDiscount failed 2 of 10 repetitions and would have',
        '   blocked this merge request. Pass --stress-new-tests enforce to make it',
        '   blocking.',
        '   2 failed, all alike: AssertionError at CheckoutTest.java:42',
        '   First failure, repetition 4:',
        '     java.lang.AssertionError: expected 30 but was 27',
        '         at org.junit.Assert.fail(Assert.java:89)',
        `         at ${S}.appliesDiscount(CheckoutTest.java:42)`,
        '         … 2 more frames',
        '',
      ].join('\n'),
    );
  });

  it('groups distinct failures by signature, and says how a JVM died', () => {
    const crash: FailureDetail = { kind: 'crash', type: null, message: null, trace: null, stdoutTail: null, stderrTail: 'Exception in thread "main"\nbye\n', exitCode: 3, signal: null, hsErrFile: null };
    const c = classifyCandidate(candidate('appliesDiscount'), withFailures({ 2: crash, 4: assertion('a', 42), 6: assertion('b', 42), 9: assertion('c', 50) }), false);
    const out = renderReport(gateReport('enforce', [c]));
    expect(out).toContain('   4 failed, 3 distinct: AssertionError at CheckoutTest.java:42 (2x), JVM crash\n     (exit code 3) (1x), AssertionError at CheckoutTest.java:50 (1x)\n');
    expect(out).toContain(['   First failure, repetition 2:', '     its JVM exited with code 3', '     no hs_err_pid*.log was written', '     last output:', '       Exception in thread "main"', '       bye'].join('\n'));
    expect(c.evidence!.groups.map((g) => [g.signature, g.count, g.repetitions])).toEqual([
      [`java.lang.AssertionError at ${S}.appliesDiscount(CheckoutTest.java:42)`, 2, [4, 6]],
      ['JVM crash (exit code 3)', 1, [2]],
      [`java.lang.AssertionError at ${S}.appliesDiscount(CheckoutTest.java:50)`, 1, [9]],
    ]);
  });

  it("shows the test's own line when an assertion library's frames come first (Jupiter's, AssertJ's), the frames between counted", () => {
    const jupiter: FailureDetail = {
      kind: 'failure', type: 'org.opentest4j.AssertionFailedError', message: 'expected: <30> but was: <27>',
      trace: [
        'org.opentest4j.AssertionFailedError: expected: <30> but was: <27>',
        '\tat org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)',
        '\tat org.junit.jupiter.api.AssertionFailureBuilder.buildAndThrow(AssertionFailureBuilder.java:132)',
        '\tat org.junit.jupiter.api.AssertEquals.failNotEqual(AssertEquals.java:197)',
        '\tat org.junit.jupiter.api.AssertEquals.assertEquals(AssertEquals.java:150)',
        '\tat org.junit.jupiter.api.AssertEquals.assertEquals(AssertEquals.java:145)',
        '\tat org.junit.jupiter.api.Assertions.assertEquals(Assertions.java:531)',
        `\tat ${S}.appliesDiscount(CheckoutTest.java:42)`,
        '\tat java.base/java.lang.reflect.Method.invoke(Method.java:569)',
      ].join('\n'),
      stdoutTail: null, stderrTail: null, exitCode: null, signal: null, hsErrFile: null,
    };
    const c = classifyCandidate(candidate('appliesDiscount'), withFailures({ 4: jupiter }), false);
    expect(renderReport(gateReport('enforce', [c]))).toContain(
      [
        '     org.opentest4j.AssertionFailedError: expected: <30> but was: <27>',
        '         at org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)',
        '         at org.junit.jupiter.api.AssertionFailureBuilder.buildAndThrow(AssertionFailureBuilder.java:132)',
        '         at org.junit.jupiter.api.AssertEquals.failNotEqual(AssertEquals.java:197)',
        '         … 3 frames',
        `         at ${S}.appliesDiscount(CheckoutTest.java:42)`,
        '         … 1 more frame',
        '',
      ].join('\n'),
    );
  });

  it("shows an assertion message's lines under its type, so the line that says what was expected is never lost", () => {
    // AssertJ's containsExactly: the message starts with a line break and says what was missing on its last lines.
    const assertj = '\nActual and expected should have same elements but actual had:\n  [1, 2]\nand expected had:\n  [1, 2, 3]\nexpecting:\n  [1, 2]\nto contain exactly (and in same order):\n  [1, 2, 3]\nbut could not find the following elements:\n  [3]\n';
    const c = classifyCandidate(candidate('appliesDiscount'), withFailures({ 4: { ...assertion(assertj), type: 'java.lang.AssertionError' } }), false);
    const out = renderReport(gateReport('enforce', [c]));
    expect(out).toContain(
      [
        '   First failure, repetition 4:',
        '     java.lang.AssertionError:',
        '     Actual and expected should have same elements but actual had:',
        '       [1, 2]',
        '     and expected had:',
        '       [1, 2, 3]',
        '     expecting:',
        '       [1, 2]',
        '     to contain exactly (and in same order):',
        '       [1, 2, 3]',
        '     but could not find the following elements:',
        '       [3]',
        '         at org.junit.Assert.fail(Assert.java:89)',
      ].join('\n'),
    );
    expect(renderStepSummary(gateReport('enforce', [c]))).toContain('java.lang.AssertionError:\nActual and expected should have same elements but actual had:\n');
    expect(renderStepSummary(gateReport('enforce', [c]))).toContain('but could not find the following elements:\n  [3]\n');
  });

  it('cuts a long message line with an ellipsis and keeps the lines after it; past 12 lines it says how many more', () => {
    const json = `{"items":[${Array.from({ length: 400 }, (_, i) => `{"sku":"A-${i}","qty":1}`).join(',')}]}`;
    const long = classifyCandidate(candidate('appliesDiscount'), withFailures({ 4: { ...assertion(`${json}\nexpected: <30> but was: <27>`), type: 'org.opentest4j.AssertionFailedError' } }), false);
    const out = renderReport(gateReport('enforce', [long]));
    const first = out.split('\n').find((l) => l.startsWith('     org.opentest4j.AssertionFailedError: {"items"'))!;
    expect(first.length).toBeLessThanOrEqual(5 + 'org.opentest4j.AssertionFailedError: '.length + 200);
    expect(first.endsWith('…')).toBe(true);
    expect(out).toContain(`${first}\n     expected: <30> but was: <27>\n`);
    const many = classifyCandidate(candidate('appliesDiscount'), withFailures({ 4: assertion(Array.from({ length: 15 }, (_, i) => `line ${i + 1}`).join('\n')) }), false);
    const text = renderReport(gateReport('enforce', [many]));
    expect(text).toContain('     java.lang.AssertionError: line 1\n     line 2\n');
    expect(text).toContain('     line 12\n     … 3 more lines of the message\n');
    expect(text).not.toContain('line 13');
  });

  it('shows text from a test with its control characters escaped: no test moves the cursor or recolours the log', () => {
    const hostile = assertion('\u001b[2J\u001b[31mred\rover\nsecond line\u0007');
    const c = classifyCandidate(candidate('a\u001b[1mname\nnext'), withFailures({ 4: hostile }), false);
    const out = renderReport(gateReport('enforce', [c]));
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(out).toContain('a\\u001b[1mname\\nnext');
    // A message's line breaks stay line breaks, each line indented under the block.
    expect(out).toContain('     java.lang.AssertionError: \\u001b[2J\\u001b[31mred\n     over\n     second line\\u0007\n');
    // Nor turns a name around.
    const turned = renderReport(gateReport('enforce', [classifyCandidate(candidate('pays\u202eexe.gnp'), withFailures({ 4: assertion('\u2066hidden\u2069') }), false)]));
    expect(turned).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    expect(turned).toContain('pays\\u202eexe.gnp');
  });

  it('prints the same up to the blank line in enforce, then the sentence minus "would have"', () => {
    const report = renderReport(gateReport('report', three())).split('\n\n')[0];
    const enforce = renderReport(gateReport('enforce', three()));
    expect(enforce.split('\n\n')[0]).toBe(report);
    expect(enforce.split('\n\n')[1]!.split('\n').slice(0, 2).join('\n')).toBe(' ! CheckoutTest.appliesDiscount failed 2 of 10 repetitions and blocked this\n   merge request.');
  });

  it('counts failed repetitions past the evidence bound in the singular when there is one, in the terminal and the job summary', () => {
    const recorded = reps(25, Array.from({ length: 21 }, (_, i) => i + 1)).map((r) => (r.status === 'failure' ? { ...r, failure: assertion('expected 30 but was 27') } : r));
    const c = classifyCandidate(candidate('appliesDiscount', { repetitions: 25 }), recorded, false);
    expect(c.evidence!.failuresOmitted).toBe(1);
    expect(renderReport(gateReport('enforce', [c]))).toContain('   (1 more failed repetition is not described: the report keeps the first 20;');
    expect(renderStepSummary(gateReport('enforce', [c]))).toContain('1 more failed repetition is not described (the report keeps the first 20).');
  });

  it('prints nothing at all when the branch adds no tests, or the account is not entitled', () => {
    for (const kind of ['no_candidates', 'not_entitled'] as const) {
      expect(renderReport(gateReport('enforce', [], null, { stop: { kind }, outcome: kind }))).toBe('');
    }
  });

  it('replaces the list with the guard reason and count; never an "all passed" for a partial set', () => {
    const guard = { name: 'bulk_change' as const, count: 120, reason: 'Bulk change: 120 new test cases exceed 30% of the 200 known on main; not stressed.' };
    const out = renderReport(gateReport('enforce', three(), guard));
    expect(out).toBe('Stress-testing new tests\n  Bulk change: 120 new test cases exceed 30% of the 200 known on main; not stressed.\n');
    expect(out).not.toMatch(/passed/);
  });

  it('lists excluded candidates with their duration', () => {
    const slow = classifyCandidate(candidate('importsCatalog', { durationMs: 362_000, repetitions: null, excluded: { reason: 'slow', detail: '' } }), [], false);
    const out = renderReport(gateReport('report', [classifyCandidate(candidate('a'), reps(10), false), slow]));
    expect(out).toContain('  2 new test cases, 1 stressed, 1 excluded\n');
    expect(out).toContain(':app CheckoutTest.importsCatalog   6m 2s, excluded (slower than 5 minutes)\n');
  });

  it('marks muted candidates: stressed, recorded, cannot fail the gate', () => {
    const muted = classifyCandidate(candidate('flaky', { muted: true }), reps(10, [1, 2, 3]), false);
    const out = renderReport(gateReport('enforce', [muted]));
    expect(out).toContain(':app CheckoutTest.flaky   10 repetitions, 3 failed (muted: cannot fail the gate)\n');
    expect(out).toContain(' ! CheckoutTest.flaky failed 3 of 10 repetitions; it is muted, so it cannot fail\n   the gate.\n');
    expect(out).not.toContain('blocked');
  });

  it('says the stress pass was skipped when the first pass failed', () => {
    const r: GateReport = gateReport('enforce', [], null, { stop: { kind: 'first_pass_failed' }, outcome: 'skipped' });
    expect(renderReport(r)).toBe('Stress-testing new tests\n  Skipped: the first pass failed, so no new test was stressed.\n');
  });

  it('warns when the verdict API is unavailable', () => {
    const r = gateReport('enforce', [], null, { stop: { kind: 'server_unavailable', problem: 'http://x/verdict: no answer within 30 s' }, outcome: 'server_unavailable' });
    expect(renderReport(r)).toContain(" ! No verdict from the verdict API (http://x/verdict: no answer within 30 s);");
  });

  it('reports candidates cut by the ceiling or lost to a gate error as not stressed, with a warning each', () => {
    const cut = classifyCandidate(candidate('a'), reps(4), true);
    const gone = classifyCandidate(candidate('b'), [], false);
    const out = renderReport(gateReport('report', [cut, gone]));
    expect(out).toContain('  2 new test cases, 0 stressed, 0 excluded, 2 not stressed (1 by a gate error)\n');
    expect(out).toContain(':app CheckoutTest.a   4 of 10 repetitions, not stressed (cut by the ceiling)\n');
    expect(out).toContain(':app CheckoutTest.b   0 of 10 repetitions, not stressed (gate error: 10 of 10 repetitions left no result)\n');
    expect(out.replace(/\n {3}/g, ' ')).toContain('The gate could not stress 1 new test case (its own trouble, not the test\'s); it is not counted as passed and cannot block this merge request.');
    expect(out).toContain('The 10-minute ceiling cut the stress pass: 1 new test case was not stressed');
    expect(out).not.toMatch(/, passed/);
  });

  it('under --stress-tests, names the tests it was given test cases, not new ones, in its warnings too', () => {
    const cut = classifyCandidate(candidate('a'), reps(4), true);
    const failed = classifyCandidate(candidate('appliesDiscount'), withFailures({ 4: assertion('expected 30 but was 27') }), false);
    const out = renderReport(gateReport('report', [cut, failed], null, { mode: 'local', stressPass: { wallClockMs: 1, cut: true, gradleExitCode: null, confirmedAlone: 1 } })).replace(/\n {3}/g, ' ');
    expect(out).toContain('Stress-testing tests\n  2 test cases, 1 stressed, 0 excluded');
    expect(out).toContain('The 10-minute ceiling cut the stress pass: 1 test case was not stressed');
    expect(out).toContain('1 test case failed while its repetitions ran side by side, so it ran again alone');
    expect(out).not.toContain('new test case');
  });

  it('uses the full class name when two candidates share a simple one, and omits the root module', () => {
    const a = classifyCandidate(candidate('x', { module: ':', suite: 'a.T' }), reps(10), false);
    const b = classifyCandidate(candidate('x', { module: ':', suite: 'b.T', testCaseId: 'other' }), reps(10), false);
    const out = renderReport(gateReport('report', [a, b]));
    expect(out).toContain('  a.T.x   10 repetitions, passed\n  b.T.x   10 repetitions, passed\n');
  });

  it('names the class as well as the method in a finding: two inherited tests of different classes never read alike', () => {
    const inherited = (suite: string) => classifyCandidate(candidate('failsEveryThirdInvocation', { suite, testCaseId: suite }), reps(10, [3, 6, 9, 10]), false);
    const out = renderReport(gateReport('enforce', [inherited('dev.example.FlakyCounterTest'), inherited('dev.example.SlowCounterTest')])).replace(/\n {3}/g, ' ');
    expect(out).toContain(' ! FlakyCounterTest.failsEveryThirdInvocation failed 4 of 10 repetitions and blocked this merge request. 4 failed');
    expect(out).toContain(' ! SlowCounterTest.failsEveryThirdInvocation failed 4 of 10 repetitions and blocked this merge request. 4 failed');
  });

  it('names the full class in a finding when two candidates share a simple class name, and the module when only it tells them apart', () => {
    const failing = (module: string, suite: string) => classifyCandidate(candidate('x', { module, suite, testCaseId: `${module}${suite}` }), reps(10, [1]), false);
    const shared = renderReport(gateReport('enforce', [failing(':', 'a.T'), failing(':', 'b.T')]));
    expect(shared).toContain(' ! a.T.x failed 1 of 10 repetitions and blocked this merge request.\n');
    expect(shared).toContain(' ! b.T.x failed 1 of 10 repetitions and blocked this merge request.\n');
    const modules = renderReport(gateReport('enforce', [failing(':app', 'a.T'), failing(':core', 'a.T')]));
    expect(modules).toContain(' ! :app T.x failed 1 of 10 repetitions and blocked this merge request.\n');
    expect(modules).toContain(' ! :core T.x failed 1 of 10 repetitions and blocked this merge request.\n');
  });
});

describe('renderReport: the merge request diff', () => {
  const diff = { status: 'analysed' as const, why: null, quiet: false, base: 'abc', ref: 'main', fetched: false, added: 1, modified: 1, dayOne: false, modifiedBlocks: false };
  const renamed = [{ module: ':app', suite: 'com.shop.BillingTest', name: 'answers', from: { module: ':app', suite: 'com.shop.ServiceTest', name: 'answers' } }];

  it('says which tests were renamed and not stressed, even when nothing else is to stress, and why detection was skipped', () => {
    const none = gateReport('report', [], null, { stop: { kind: 'no_candidates' }, outcome: 'no_candidates', renamed, diff });
    expect(renderReport(none)).toContain('BillingTest.answers was not stressed: renamed from ServiceTest.answers');
    const skipped = gateReport('report', [], null, { stop: { kind: 'no_candidates' }, outcome: 'no_candidates', diff: { ...diff, status: 'skipped', why: 'the checkout is a shallow clone' } });
    expect(renderReport(skipped).replace(/\s+/g, ' ')).toContain('Modified and renamed test detection was skipped: the checkout is a shallow clone.');
    // A run of the default branch says nothing.
    expect(renderReport(gateReport('report', [], null, { stop: { kind: 'no_candidates' }, outcome: 'no_candidates', diff: { ...diff, status: 'skipped', why: 'x', quiet: true } }))).toBe('');
  });

  it('labels a modified candidate and says it does not block where modified tests are report-only', () => {
    const modified = classifyCandidate(candidate('appliesDiscount', { origin: 'modified' }), reps(10, [4]), false);
    const text = renderReport(gateReport('enforce', [modified, classifyCandidate(candidate('added', { origin: 'diff' }), reps(10), false)], null, { diff }));
    expect(text).toContain('1 new test case and 1 modified, 2 stressed');
    expect(text).toContain('CheckoutTest.appliesDiscount — modified');
    expect(text).toContain('CheckoutTest.added — new (from the diff)');
    expect(text.replace(/\s+/g, ' ')).toContain('Modified tests are report-only in this project, so it does not block this merge request');
  });
});
