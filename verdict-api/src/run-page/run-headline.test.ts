import { describe, expect, it } from '@jest/globals';
import { DEFAULT_STRESS_PARAMETERS } from '../contract.js';
import { candidate, failure, pageOf, timingSensitive, withTestCases } from '../../test/support/stress-findings.js';
import { RunPageView } from '../web/run-page.js';
import { MAX_TESTS, MESSAGE_CHARS, MESSAGE_LINES, runHeadline } from './run-headline.js';
import type { RunPage } from './run-page.js';

const render = (page: RunPage) => String(RunPageView({ frame: { title: 'Run mr-1', project: 'demo', account: 'a', csrf: 'x' }, page, stress: DEFAULT_STRESS_PARAMETERS, first: true }));

describe('the run headline', () => {
  it('names the blocking test with its failure signature, message and reproduce command', () => {
    const h = runHeadline(pageOf([candidate(1, 'passes'), candidate(2, 'adds', [2, 5])]));
    expect(h).toMatchObject({ verdict: 'Blocked', tone: 'bad', summary: '1 new test disagreed with itself', moreTests: 0, firstPassFailures: [] });
    expect(h.notes[0]).toMatch(/^Enforce mode: the merge request is blocked\. This new test failed when repeated in fresh JVMs, though it passed in the build\.$/);
    expect(h.tests).toEqual([{
      testCaseId: '00000000-0000-4000-8000-000000000002', module: ':app', suite: 'com.shop.CheckoutTest', title: 'CheckoutTest.adds',
      line: 'failed 2 of 10 repetitions, each in a fresh JVM; it passed in the build',
      signatures: [{ short: 'AssertionError at CheckoutTest.java:42', signature: 'java.lang.AssertionError at com.shop.CheckoutTest.adds(CheckoutTest.java:42)', count: 2 }],
      moreSignatures: 0,
      message: { text: 'expected 2 but was 3', cut: false, repetition: 2 },
      reproduceCommand: "./gradlew :app:test --tests 'com.shop.CheckoutTest.adds' -PstressGate.repetitions=10 # 2",
    }]);
  });

  it('says "Would have blocked" in report mode, and counts the tests beyond the ones it names', () => {
    const many = Array.from({ length: MAX_TESTS + 2 }, (_, k) => candidate(k + 1, `t${k + 1}`, [1]));
    const h = runHeadline(pageOf(many, 'report'));
    expect(h).toMatchObject({ verdict: 'Would have blocked', tone: 'warn', summary: `${MAX_TESTS + 2} new tests disagreed with themselves`, moreTests: 2 });
    expect(h.notes[0]).toMatch(/^Report mode: the merge request was not blocked/);
    expect(h.tests).toHaveLength(MAX_TESTS);
    expect(h.notes[1]).toBe('Rerun each with the command below, fix the test or the code it tests, and push.');
  });

  it('points to the evidence, not to a command, when the upload gave none to build', () => {
    expect(runHeadline(pageOf([candidate(1, 'adds', [1], { reproduceCommand: null })])).notes[1]).toBe('Read why it failed below, fix the test or the code it tests, and push.');
  });

  it('bounds a long message by lines and characters, and says where it is whole', () => {
    const long = Array.from({ length: MESSAGE_LINES + 4 }, (_, k) => `line ${k}`).join('\n');
    const byLines = runHeadline(pageOf([candidate(1, 'adds', [1], { failures: [failure({ repetition: 1, message: long })] })])).tests[0]!.message!;
    expect(byLines.cut).toBe(true);
    expect(byLines.text.split('\n')).toHaveLength(MESSAGE_LINES + 1);
    const wide = runHeadline(pageOf([candidate(1, 'adds', [1], { failures: [failure({ repetition: 1, message: 'x'.repeat(5000) })] })])).tests[0]!.message!;
    expect(wide.cut).toBe(true);
    expect(wide.text.length).toBeLessThanOrEqual(MESSAGE_CHARS + 40);
  });

  it('names a crash when the failure has no message', () => {
    const c = candidate(1, 'adds', [3], { failures: [failure({ repetition: 3, kind: 'crash', message: null, type: null, exitCode: 134, signal: 'SIGABRT' })] });
    expect(runHeadline(pageOf([c])).tests[0]!.message).toEqual({ text: 'The test JVM crashed (SIGABRT), exit code 134.', cut: false, repetition: 3 });
  });

  it('passes, with a timing-sensitive test to look at but nothing blocking', () => {
    const h = runHeadline(pageOf([candidate(1, 'passes'), timingSensitive(2, 'waits')]));
    expect(h).toMatchObject({ verdict: 'Passed', tone: 'ok', summary: '2 new tests stressed; none blocks' });
    expect(h.tests.map((t) => t.title)).toEqual(['CheckoutTest.waits']);
    expect(h.tests[0]!.line).toBe('failed 2 of 10 repetitions side by side and passed 10 run again alone: timing-sensitive');
  });

  it('passes where modified tests are report-only, naming the modified test that disagreed with itself', () => {
    const page = pageOf([candidate(1, 'passes'), candidate(2, 'discount', [2], { origin: 'modified' })], 'enforce');
    page.gate = { ...page.gate!, outcome: 'passed', blocked: false, wouldHaveBlocked: false };
    const h = runHeadline(page);
    expect(h).toMatchObject({ verdict: 'Passed', summary: '2 new tests stressed; none blocks' });
    expect(h.notes[0]).toMatch(/^1 modified test disagreed with itself \(a test this merge request changed; not blocking/);
    expect(h.tests.map((t) => t.title)).toEqual(['CheckoutTest.discount']);
  });

  it('says the first pass failed when the gate skipped, naming the failed tests', () => {
    const page: RunPage = { ...withTestCases(pageOf([]), [{ testCaseId: 'x', module: ':app', suite: 'com.shop.CheckoutTest', name: 'old', status: 'failure', durationMs: 3, isNew: false, muted: false }]), status: 'failure' };
    page.gate = { ...page.gate!, outcome: 'skipped', stressed: 0, candidatesExamined: 0 };
    expect(runHeadline(page)).toMatchObject({ verdict: 'Skipped', summary: 'the first pass failed, so no new test was stressed', tests: [], firstPassFailures: ['com.shop.CheckoutTest.old'] });
  });

  it('names a new test that failed the build and passed in fresh JVMs flaky, with its counts, and one that failed every time broken', () => {
    const flaky = candidate(1, 'adds', [2, 5], { outcome: 'failed' });
    const broken = candidate(2, 'expires', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const inBuild = (c: typeof flaky) => ({ testCaseId: c.testCaseId, module: c.module, suite: c.suite, name: c.name, status: 'failure', durationMs: 3, isNew: true, muted: false });
    const page: RunPage = { ...withTestCases(pageOf([flaky, broken]), [inBuild(flaky), inBuild(broken)]), status: 'failure' };
    page.gate = { ...page.gate!, blocked: false, wouldHaveBlocked: true };
    const h = runHeadline(page);
    expect(h).toMatchObject({ verdict: 'Flaky in the build', tone: 'bad', summary: '1 new test failed the build and passed in fresh JVMs: flaky' });
    expect(h.notes[0]).toMatch(/^Rerunning CI until it passes would merge a flaky test/);
    expect(h.notes[1]).toBe('A new test that fails every time is broken: fix it as any failing test.');
    expect(h.tests.map((t) => [t.title, t.line])).toEqual([
      ['CheckoutTest.adds', 'failed in the build, then passed 8 of 10 repetitions, each in a fresh JVM: flaky'],
      ['CheckoutTest.expires', 'failed in the build and every one of 10 repetitions, each in a fresh JVM: broken'],
    ]);
    expect(h.tests[0]!.reproduceCommand).toContain('--tests');
    const onlyBroken: RunPage = { ...withTestCases(page, [inBuild(broken)]), gate: { ...page.gate!, wouldHaveBlocked: false, candidates: [broken] } };
    expect(runHeadline(onlyBroken)).toMatchObject({ verdict: 'Broken in the build', summary: '1 new test failed the build and every repetition: broken' });
    // A new test that passed in the build but failed its repetitions, beside a broken one: flaky, named first, with its own line.
    const other = candidate(3, 'clears', [4]);
    const h2 = runHeadline({ ...onlyBroken, gate: { ...onlyBroken.gate!, wouldHaveBlocked: true, candidates: [broken, other] } });
    expect(h2).toMatchObject({ verdict: 'Flaky in the build', summary: '1 new test disagreed with itself in a build that failed on new tests: flaky' });
    expect(h2.tests.map((t) => t.line)).toEqual(['failed 1 of 10 repetitions, each in a fresh JVM; it passed in the build', 'failed in the build and every one of 10 repetitions, each in a fresh JVM: broken']);
  });

  it('says the gate did not run when no verdict was uploaded', () => {
    expect(runHeadline({ ...pageOf([]), gate: null })).toMatchObject({ verdict: 'Passed', notes: ['The stress gate did not run on this run (no verdict uploaded).'] });
  });
});

describe('the run page: what blocked, why, what now, first', () => {
  const html = render(pageOf([candidate(1, 'passes'), candidate(2, 'adds', [2, 5])]));

  it('puts the headline before the run facts and the candidates table, with the blocking test and its command', () => {
    const headline = html.indexOf('<section class="headline tone-bad"');
    expect(headline).toBeGreaterThan(-1);
    expect(headline).toBeLessThan(html.indexOf('id="run"'));
    expect(headline).toBeLessThan(html.indexOf('<table class="candidates"'));
    const article = html.slice(html.indexOf('<article class="blocking-test"'), html.indexOf('</article>'));
    expect(article).toContain('<h3><a href="/projects/demo/test-cases/00000000-0000-4000-8000-000000000002">CheckoutTest.adds</a></h3>');
    expect(article).toContain('<pre class="message">expected 2 but was 3</pre>');
    expect(article).toContain('<pre class="command"><code>./gradlew :app:test --tests &#39;com.shop.CheckoutTest.adds&#39; -PstressGate.repetitions=10 # 2</code></pre>');
    expect(article).toContain('<a href="#candidate-00000000-0000-4000-8000-000000000002">');
  });

  it('scopes each badge to what it judges: no bare "passed" beside "failed (blocked)"', () => {
    expect(html).not.toContain('failed (blocked)');
    expect(html).toContain('<span class="verdict">Blocked:</span>');
    expect(html).toContain('<dt>First pass (the build)</dt><dd>passed: none of its 0 test cases failed</dd>');
  });
});
