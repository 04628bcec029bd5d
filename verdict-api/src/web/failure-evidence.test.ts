import { describe, expect, it } from '@jest/globals';
import { DEFAULT_STRESS_PARAMETERS } from '../contract.js';
import type { GateCandidate, RunPage } from '../run-page/run-page.js';
import { RunPageView } from './run-page.js';
import { testCasesOf } from '../../test/support/stress-findings.js';

const ID = '00000000-0000-4000-8000-0000000000aa';
const HOSTILE = '<script>alert(1)</script><img src=x onerror=alert(2)> </details><details open><summary>fake</summary> <!-- swallow --> " onmouseover="alert(3) \' & &amp; @octocat [x](https://evil.example)';

type Failure = GateCandidate['failures'][number];
const failure = (over: Partial<Failure>): Failure => ({
  repetition: 2, kind: 'failure', type: 'java.lang.AssertionError', message: 'expected 30 but was 27', stackTrace: 'java.lang.AssertionError: expected 30 but was 27\n\tat shop.CheckoutTest.appliesDiscount(CheckoutTest.java:42)',
  framesOmitted: 23, stdoutTail: 'total=27', stderrTail: null, durationMs: 31, exitCode: null, signal: null, hsErrFile: null, truncated: false, ...over,
});
const candidate = (over: Partial<GateCandidate> = {}): GateCandidate => ({
  testCaseId: ID, module: ':app', suite: 'shop.CheckoutTest', name: 'appliesDiscount', muted: false, outcome: 'failed', method: null, timingSensitive: null,
  repetitions: Array.from({ length: 10 }, (_, i) => ({ repetition: i + 1, status: [2, 6, 10].includes(i + 1) ? 'failure' : 'success', durationMs: 31 })),
  failures: [
    failure({}),
    failure({ repetition: 6, message: '', stdoutTail: null, truncated: true }),
    failure({ repetition: 10, kind: 'crash', type: null, message: null, stackTrace: null, framesOmitted: 0, stdoutTail: null, stderrTail: '# A fatal error has been detected', exitCode: 134, signal: 'SIGABRT', hsErrFile: '/tmp/hs_err_pid7.log' }),
  ],
  failureGroups: [
    { signature: 'java.lang.AssertionError at shop.CheckoutTest.appliesDiscount(CheckoutTest.java:42)', type: 'java.lang.AssertionError', location: 'CheckoutTest.java:42', count: 2, repetitions: [2, 6] },
    { signature: 'JVM crash (SIGABRT)', type: null, location: null, count: 1, repetitions: [10] },
  ],
  failuresOmitted: 0,
  reproduceCommand: "./gradlew :app:test --tests 'shop.CheckoutTest.appliesDiscount'",
  ...over,
});
const page = (c: GateCandidate): RunPage => ({
  runId: 'r1', branch: 'feature/x', commit: 'c0ffee', isCi: true, status: 'success', shards: 1, durationMs: 1000, startedAt: '2026-12-01 10:00:00', ...testCasesOf([]),
  flaky: [{ module: c.module, suite: c.suite, name: c.name, caughtBy: 'stress_gate', failed: 3, repetitions: 10 }],
  flakyNotShown: 0,
  gate: { mode: 'enforce', outcome: 'failed', candidatesExamined: 1, stressed: 1, excluded: 0, notStressed: 0, guard: null, blocked: true, wouldHaveBlocked: true, shards: 1, stressPassMs: 2000, detection: null, candidates: [c] },
});
const render = (c: GateCandidate) => String(RunPageView({ frame: { title: 'Run r1', project: 'demo', account: 'a', csrf: 'x' }, page: page(c), stress: DEFAULT_STRESS_PARAMETERS, first: true }));
const strip = (html: string) => html.slice(html.indexOf('<ol class="strip"'), html.indexOf('</ol>', html.indexOf('<ol class="strip"')) + 5);

describe('the run page: why a candidate failed', () => {
  const html = render(candidate());

  it('opens each failed repetition of the strip in place, without JavaScript', () => {
    const items = strip(html).split('<li ').slice(1);
    expect(items).toHaveLength(10);
    expect(items.filter((li) => li.includes('<details')).length).toBe(3);
    expect(items[1]).toContain(`<details class="failure" id="failure-${ID}-2"><summary>#2 fail 31 ms</summary>`);
    expect(items[1]).toContain('<pre class="message">expected 30 but was 27</pre>');
    expect(items[1]).toContain('<pre>java.lang.AssertionError: expected 30 but was 27\n\tat shop.CheckoutTest.appliesDiscount(CheckoutTest.java:42)</pre>');
    expect(items[1]).toContain('23 frames beyond the test&#39;s own left out.');
    expect(items[1]).toContain('<pre>total=27</pre>');
    expect(items[0]).toBe('class="ok" title="repetition 1: pass, 31 ms">#1 pass 31 ms</li>');
    expect(html).not.toMatch(/<script/);
  });

  it('tells an empty message from none, and says what a crash left', () => {
    const [, , , , , six, , , , ten] = strip(html).split('<li ').slice(1);
    expect(six).toContain('<dt>Message</dt><dd>empty</dd>');
    expect(six).toContain('Some of its text was cut to the bounds by the CLI.');
    expect(ten).toContain('The test JVM crashed');
    expect(ten).toContain('<dt>Exit code</dt><dd>134</dd><dt>Signal</dt><dd>SIGABRT</dd><dt>hs_err file</dt><dd><code>/tmp/hs_err_pid7.log</code></dd>');
    expect(ten).toContain('<dt>Message</dt><dd>none</dd>');
    expect(ten).toContain('<pre># A fatal error has been detected</pre>');
  });

  it('groups the failures with links to each, and gives the reproduce command', () => {
    expect(html).toContain('3 failed, 2 distinct:');
    expect(html).toContain(`<code title="java.lang.AssertionError at shop.CheckoutTest.appliesDiscount(CheckoutTest.java:42)">AssertionError</code> at <code>CheckoutTest.java:42</code>`);
    expect(html).toContain(`<a href="#failure-${ID}-2">#2</a>`);
    expect(html).toContain(`<a href="#failure-${ID}-10">#10</a>`);
    expect(html).toContain("<pre><code>./gradlew :app:test --tests &#39;shop.CheckoutTest.appliesDiscount&#39;</code></pre>");
  });

  it('lists evidence the strip has no repetition for, and what the bound left out', () => {
    const c = candidate({ failures: [failure({ repetition: 11 })], failuresOmitted: 4 });
    const out = render(c);
    expect(out).toContain(`<details class="failure" id="failure-${ID}-11"><summary>#11 failure 31 ms (not in the strip)</summary>`);
    expect(out).toContain('Evidence of 4 more failed repetitions was left out by the bound (1 kept).');
  });

  it('says where the page’s bounds cut: a text cut, failures like these not shown, signatures left out, repetitions counted', () => {
    const groups = [{ signature: 'java.lang.AssertionError at x', type: 'java.lang.AssertionError', location: 'CheckoutTest.java:42', count: 14, repetitions: Array.from({ length: 14 }, (_, i) => i + 1) }];
    const c = candidate({ failures: [{ ...failure({}), cut: { stackTrace: { shown: 4_000, of: 16_384 }, stderrTail: { shown: 1_000, of: 4_096 } } }], failureGroups: groups, failuresNotShown: 13, failureGroupsNotShown: 2 });
    const out = render(c);
    expect(out).toContain('truncated: the top, 4,000 of 16,384 characters, shown.');
    expect(out).toContain('Evidence shown for 1 of the 14 failures stored, the first of each signature first: 13 more failures like this, counted in the signatures above.');
    expect(out).toContain('2 more signatures not shown (the page shows 1).');
    expect(out).toContain('#10</span> and 4 more)');
  });

  it('renders hostile test text as text only: no tag, script, comment or attribute of its own', () => {
    const shaped = (text: string) =>
      render(
        candidate({
          name: text,
          suite: text,
          failures: [failure({ type: text, message: text, stackTrace: text, stdoutTail: text, stderrTail: text }), failure({ repetition: 10, kind: 'crash', signal: text.slice(0, 32), hsErrFile: text })],
          failureGroups: [{ signature: text, type: text, location: text, count: 2, repetitions: [2, 10] }],
          reproduceCommand: text,
        }),
      );
    const out = shaped(HOSTILE);
    // The same elements as with harmless text: test text added none.
    const tags = (s: string) => (s.match(/<\/?[a-z][a-z0-9]*/g) ?? []).sort().join(' ');
    expect(tags(out)).toBe(tags(shaped('harmless text')));
    for (const bad of ['<script', '<img', '<!--', '</details><details open>', '" onmouseover="', 'onerror=alert(2)>']) expect([bad, out.includes(bad)]).toEqual([bad, false]);
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(out).toContain('&lt;/details&gt;&lt;details open&gt;');
  });
});
