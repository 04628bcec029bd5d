import { describe, expect, it } from '@jest/globals';
import { DEFAULT_STRESS_PARAMETERS } from '../contract.js';
import type { RunPage } from '../run-page/run-page.js';
import { id, invocations, pageOf, timingSensitive } from '../../test/support/stress-findings.js';
import { RunPageView } from './run-page.js';

const render = (page: RunPage) => String(RunPageView({ frame: { title: 'Run mr-1', project: 'demo', account: 'a', csrf: 'x' }, page, stress: DEFAULT_STRESS_PARAMETERS, first: true }));
/** The part of the page from `start` to the end of the element that starts there. */
const section = (html: string, heading: string) => html.slice(html.indexOf(heading), html.indexOf('</section>', html.indexOf(heading)));
const gateTable = (html: string) => section(html, 'id="gate"');
const flakyTable = (html: string) => section(html, 'id="flaky"');

describe('the run page: the new invocations of one method are one row', () => {
  const html = render(pageOf(invocations(100, { 37: [2, 5, 9], 81: [4] })));

  it('gives the method one row of the gate table, with its count and failing invocations', () => {
    const gate = gateTable(html);
    expect(gate.match(/<tr data-/g)).toHaveLength(1);
    expect(gate).toContain('<tr data-group="adds(int)"><td data-label="Candidate">com.shop.CheckoutTest.adds(int) <span class="badge info">100 invocations</span></td><td data-label="Outcome">100 invocations, 10 repetitions each, 2 failed: [37] 3 of 10, [81] 1 of 10; 98 passed</td>');
  });

  it('shows each failing invocation with its strip and why it failed, and lists the passing ones behind a disclosure', () => {
    const gate = gateTable(html);
    expect(gate.match(/<div class="invocation" data-candidate="[^"]*"/g)).toEqual(['<div class="invocation" data-candidate="adds(int)[37]"', '<div class="invocation" data-candidate="adds(int)[81]"']);
    const inv37 = gate.slice(gate.indexOf('data-candidate="adds(int)[37]"'), gate.indexOf('data-candidate="adds(int)[81]"'));
    expect(inv37).toContain(`<a href="/projects/demo/test-cases/${id(37)}">adds(int)[37]</a>`);
    expect(inv37.match(/<details class="failure"/g)).toHaveLength(3);
    expect(inv37).toContain('3 failed, 1 distinct:');
    expect(inv37).toContain('# 37</code></pre>');
    expect(gate).toContain('<details class="invocations"><summary>The other 98 invocations: passed</summary>');
    expect(gate.match(/<li><a href="\/projects\/demo\/test-cases\/[^"]+">adds\(int\)\[\d+\]<\/a> {2}passed 10 of 10<\/li>/g)).toHaveLength(98);
  });

  it('gives the method one row of the flaky section', () => {
    const flaky = flakyTable(html);
    expect(flaky.match(/<tr/g)).toHaveLength(1 + 1);
    expect(flaky).toContain('<tr data-group="adds(int)"><td data-label="Test">com.shop.CheckoutTest.adds(int)</td><td data-label="Module"><code>:app</code></td><td data-label="Disagreed">100 invocations, 10 repetitions each, 2 failed: [37] 3 of 10, [81] 1 of 10; 98 passed</td>');
  });

  it('escapes a hostile invocation name', () => {
    const page = pageOf([...invocations(1), { ...invocations(2, { 2: [1] })[1]!, name: 'adds(int)[2: <script>alert(1)</script>]' }]);
    const out = render(page);
    expect(out).not.toContain('<script>');
    expect(out).toContain('[2: &lt;script&gt;alert(1)&lt;/script&gt;] 1 of 10');
  });
});

describe('the run page: a timing-sensitive test', () => {
  it('says it failed side by side and passed alone, not blocking, with its side-by-side evidence and reproduce command', () => {
    const html = render(pageOf([timingSensitive(1, 'waits')]));
    const gate = gateTable(html);
    expect(gate).toContain('<span class="badge ok">passed alone</span> failed 2 of 10 side by side, passed 10 alone: timing-sensitive <span class="badge warn">not blocking (a project setting makes it block)</span>');
    // The strip is the alone run: ten passes, none opens a failure.
    const strip = gate.slice(gate.indexOf('<ol class="strip"'), gate.indexOf('</ol>'));
    expect(strip.match(/<li class="ok"/g)).toHaveLength(10);
    expect(strip).not.toContain('<details');
    expect(gate).toContain('2 failed side by side, 1 distinct:');
    expect(gate).toContain(`<details class="failure" id="failure-${id(1)}-3"><summary>#3 failure 5.0 s (side by side)</summary>`);
    expect(gate).toContain(`<a href="#failure-${id(1)}-7">#7</a>`);
    expect(gate).toContain('<pre class="message">waited 5 s</pre>');
    expect(gate).toContain('<pre><code>./gradlew :app:test --tests &#39;com.shop.CheckoutTest.waits&#39;</code></pre>');
    expect(flakyTable(html)).toContain('<td data-label="Disagreed">failed 2 of 10 side by side, passed 10 alone: timing-sensitive</td><td data-label="Found by"><span class="badge warn">caught by the stress gate: new test, deliberately repeated in fresh JVMs</span> <span class="badge info">not blocking (a project setting makes it block)</span></td>');
  });

  it('says it blocked when the project setting made it block', () => {
    const html = render(pageOf([timingSensitive(1, 'waits', 'failed')], 'enforce'));
    expect(html).toContain("<span class=\"badge bad\">blocked this merge request (the project&#39;s setting makes a timing-sensitive test block)</span>");
    expect(html).not.toContain('not blocking');
  });
});
