import { describe, expect, it } from '@jest/globals';
import { DEFAULT_STRESS_PARAMETERS } from '../contract.js';
import { blockedByOrder, candidate, orderDependent, pageOf } from '../../test/support/stress-findings.js';
import { RunPageView } from '../web/run-page.js';
import { findingLine, orderProbeFacts, orderVerdict, orderWords, probeLine } from './order-probe.js';
import { runHeadline } from './run-headline.js';
import type { RunPage } from './run-page.js';

const render = (page: RunPage) => String(RunPageView({ frame: { title: 'Run mr-1', project: 'demo', account: 'a', csrf: 'x' }, page, stress: DEFAULT_STRESS_PARAMETERS, first: true }));

describe('the order probe in words', () => {
  it('says a victim, a polluter, their order and their replays', () => {
    const v = orderDependent(1, 'adds').orderProbe!.findings[0]!;
    const p = orderDependent(2, 'saves', 'polluter').orderProbe!.findings[0]!;
    expect(findingLine(v)).toBe('victim: it failed right after CartTest.clears ran in its JVM, in 2 of 3 replays of that order, each in a fresh JVM');
    expect(orderWords(v)).toBe('CartTest.clears, then CheckoutTest.adds');
    expect(findingLine(p, (s) => `<${s}>`)).toBe('polluter: <LedgerTest.sums> failed right after it ran in the same JVM, in 2 of 3 replays of that order, each in a fresh JVM; <LedgerTest.sums> passes alone');
    expect(orderWords(p)).toBe('CheckoutTest.saves, then LedgerTest.sums');
    expect(findingLine({ ...p, otherPassesAlone: false })).toMatch(/; LedgerTest\.sums also failed alone, so the order may not be the cause$/);
  });

  it('says what a cut probe and a probe not run left unchecked', () => {
    const probe = orderDependent(1, 'adds').orderProbe!;
    expect(probeLine(probe)).toBe('order probe: ran beside 8 of 8 other tests (2 of 5 classes of its module sampled), seed 7');
    expect(probeLine({ ...probe, status: 'cut', partnersRun: 3, why: null })).toBe('order probe cut: its budget or the wall-clock ceiling stopped it after 3 of 8 other tests (2 of 5 classes of its module sampled), seed 7; the orders not run were not checked');
    expect(probeLine({ ...probe, status: 'not_run', why: 'no other test ran in its JVM' })).toBe('order probe not run: no other test ran in its JVM; its order dependence was not checked');
  });

  it('says whether the findings blocked: the setting, the mode, a mute', () => {
    expect(orderVerdict(orderDependent(1, 'adds'), 'enforce')).toBe('blocked this merge request');
    expect(orderVerdict(orderDependent(1, 'adds'), 'report')).toBe('would have blocked this merge request (report mode)');
    expect(orderVerdict(orderDependent(1, 'adds', 'victim', false), 'enforce')).toBe("not blocking (the project's setting makes order findings report-only)");
    expect(orderVerdict({ ...orderDependent(1, 'adds'), muted: true }, 'enforce')).toBe('not blocking (muted)');
  });

  it('counts the run: order-dependent apart, and every bound that bit', () => {
    expect(orderProbeFacts({ orderDependent: 0, blocking: 0, victims: 0, polluters: 0, cut: 0, notRun: 0 })).toBeNull();
    expect(orderProbeFacts({ orderDependent: 1, blocking: 1, victims: 1, polluters: 0, cut: 2, notRun: 1 })).toBe('1 new test order-dependent (1 finding as victim, 0 as polluter), 1 blocking; cut by its budget or the ceiling for 2 candidates; not run for 1 candidate');
  });
});

describe('the run headline with order-dependent tests', () => {
  it('counts them apart from failed tests and names them with their finding and the --run-order command', () => {
    const page = blockedByOrder(pageOf([candidate(1, 'broken', [3]), orderDependent(2, 'adds'), orderDependent(3, 'saves', 'polluter')]));
    const h = runHeadline(page);
    expect(h).toMatchObject({ verdict: 'Blocked', summary: '1 new test disagreed with itself; 2 new tests depend on test order' });
    expect(h.notes[0]).toContain('2 new tests passed every repetition alone, but failed right after another test in one JVM');
    expect(h.notes).toContain('Run each pair in its order with the command below, make the tests independent of each other (shared static state, files, system properties), and push.');
    expect(h.tests.map((t) => t.title)).toEqual(['CheckoutTest.broken', 'CheckoutTest.adds', 'CheckoutTest.saves']);
    expect(h.tests[1]).toMatchObject({
      line: 'passed 10 of 10 repetitions alone; order-dependent: failed right after CartTest.clears (2 of 3 replays failed)',
      message: { text: 'cart not empty' },
      reproduceCommand: 'stress-orchestrator gradle --run-order clears --run-order adds',
    });
  });

  it('says "1 new test depends on test order" when only an order finding blocked', () => {
    const h = runHeadline(blockedByOrder(pageOf([candidate(1, 'stable'), orderDependent(2, 'adds')])));
    expect(h).toMatchObject({ verdict: 'Blocked', summary: '1 new test depends on test order', moreTests: 0 });
    expect(h.notes[0]).toBe('Enforce mode: the merge request is blocked. A new test passed every repetition alone, but failed right after another test in one JVM, or made an existing test fail right after it; each finding was replayed in fresh JVMs.');
    expect(runHeadline(blockedByOrder(pageOf([orderDependent(2, 'adds')], 'report')))).toMatchObject({ verdict: 'Would have blocked', summary: '1 new test depends on test order' });
  });

  it('passes with a note when the project made order findings report-only', () => {
    const h = runHeadline(pageOf([candidate(1, 'stable'), orderDependent(2, 'adds', 'victim', false)]));
    expect(h).toMatchObject({ verdict: 'Passed', summary: '2 new tests stressed; none blocks' });
    expect(h.notes[0]).toBe("1 new test depends on test order (found by the order probe; not blocking: the project's setting makes order findings report-only).");
    expect(h.tests.map((t) => t.title)).toEqual(['CheckoutTest.adds']);
  });
});

describe('the run page with an order-dependent candidate', () => {
  it('shows its own outcome, each finding with the other test, order, replays, seed, evidence and command, not the stress command', () => {
    const html = render(blockedByOrder(pageOf([orderDependent(1, 'adds'), orderDependent(2, 'saves', 'polluter', false)])));
    expect(html).toContain('<span class="badge bad">order-dependent</span> passed 10 of 10 repetitions alone; 1 order finding (1 as victim) <span class="badge bad">blocked this merge request</span>');
    expect(html).toContain('<span class="badge warn">order-dependent</span>');
    expect(html).toContain('<dt>Order</dt><dd>CartTest.clears, then CheckoutTest.adds (one JVM)</dd>');
    expect(html).toContain('<dt>Other test alone</dt><dd>passes in a fresh JVM of its own</dd>');
    expect(html).toContain('<dt>Replays</dt><dd>2 of 3 failed</dd><dt>Seed</dt><dd><code>7</code></dd>');
    expect(html).toContain('<summary>Why LedgerTest.sums failed (last replay)</summary>');
    expect(html).toContain('<pre class="message">cart not empty</pre>');
    expect(html).toContain('<pre><code>stress-orchestrator gradle --run-order clears --run-order adds</code></pre>');
    expect(html).not.toContain('--stress-tests adds');
  });

  it('says a cut probe and a probe not run below the strip', () => {
    const base = candidate(1, 'slow');
    const cut = { ...base, orderProbe: { ...orderDependent(1, 'slow').orderProbe!, status: 'cut' as const, partnersRun: 2, orderDependent: false, findings: [], victims: 0 } };
    const html = render(pageOf([cut]));
    expect(html).toContain('<div class="order-probe" data-order-probe="cut"><p class="bound">order probe cut: its budget or the wall-clock ceiling stopped it after 2 of 8 other tests');
  });
});
