import { describe, expect, it } from '@jest/globals';
import MarkdownIt from 'markdown-it';
import { blockedByOrder, candidate, orderDependent, pageOf } from '../../test/support/stress-findings.js';
import type { GateCandidate } from '../run-page/run-page.js';
import { MAX_ORDER_FINDINGS_WITH_EVIDENCE } from './order-findings.js';
import { renderRunReport } from './render-markdown.js';

describe('the run report: order-dependent tests', () => {
  it('is its own section: a row a finding, the evidence and the command that runs the pair in order', () => {
    const md = renderRunReport(blockedByOrder(pageOf([candidate(1, 'stable'), orderDependent(2, 'adds'), orderDependent(3, 'saves', 'polluter', false)])));
    expect(md).toContain([
      '### Order-dependent tests',
      '',
      '2 new tests passed every repetition alone but depend on test order (the order probe ran them beside existing tests in shared JVMs; each finding was replayed in fresh JVMs):',
      '',
      '| Test | Module | Finding | Order (one JVM) | Replays failed | Effect |',
      '| --- | --- | --- | --- | --- | --- |',
      '| `com.shop.CheckoutTest.adds` | `:app` | victim of `CartTest.clears` | `CartTest.clears`, then `CheckoutTest.adds` | 2 of 3 | blocked this merge request |',
      "| `com.shop.CheckoutTest.saves` | `:app` | polluter of `LedgerTest.sums` | `CheckoutTest.saves`, then `LedgerTest.sums` | 2 of 3 | not blocking (the project's setting makes order findings report-only) |",
    ].join('\n'));
    expect(md).toContain('#### Why `com.shop.CheckoutTest.saves` is order-dependent: polluter\n\nPolluter: `LedgerTest.sums` failed right after it ran in the same JVM, in 2 of 3 replays of that order, each in a fresh JVM; `LedgerTest.sums` passes alone. Order: `CheckoutTest.saves`, then `LedgerTest.sums`. Seed `7`.');
    expect(md).toContain('`com.shop.LedgerTest.sums` in the last replay (it failed):\n\n```text\njava.lang.AssertionError: ledger not empty');
    expect(md).toContain('Run the pair in that order:\n\n```sh\nstress-orchestrator gradle --run-order clears --run-order adds\n```');
    // One table, parsed as one.
    expect(new MarkdownIt().render(md).match(/<table>/g)).toHaveLength(1);
  });

  it('says which probes checked less, and is absent when no probe found or missed anything', () => {
    const probe = orderDependent(1, 'x').orderProbe!;
    const quiet = { ...probe, orderDependent: false, findings: [], victims: 0 };
    const withProbe = (c: GateCandidate, p: GateCandidate['orderProbe']): GateCandidate => ({ ...c, orderProbe: p });
    expect(renderRunReport(pageOf([withProbe(candidate(1, 'stable'), quiet)]))).not.toContain('Order-dependent');
    const md = renderRunReport(pageOf([withProbe(candidate(1, 'slow'), { ...quiet, status: 'cut', partnersRun: 2 }), withProbe(candidate(2, 'lonely'), { ...quiet, status: 'not_run', why: 'the executor cannot choose an order' })]));
    expect(md).toContain('The order probe checked less for 2 new tests:\n\n- `com.shop.CheckoutTest.slow`: order probe cut: its budget or the wall-clock ceiling stopped it after 2 of 8 other tests');
    expect(md).toContain('- `com.shop.CheckoutTest.lonely`: order probe not run: the executor cannot choose an order; its order dependence was not checked.');
  });

  it('bounds the evidence and counts what it left to the run page; hostile names stay code', () => {
    const many = Array.from({ length: MAX_ORDER_FINDINGS_WITH_EVIDENCE + 3 }, (_, k) => orderDependent(k + 1, `t${k + 1}|<!--`));
    const md = renderRunReport(blockedByOrder(pageOf(many)));
    expect(md.match(/^#### Why /gm)).toHaveLength(MAX_ORDER_FINDINGS_WITH_EVIDENCE);
    expect(md).toContain('The evidence of 3 more order findings is on the run page.');
    expect(md).toContain('`com.shop.CheckoutTest.t1\\|<!--`');
    expect(new MarkdownIt().render(md)).not.toContain('<!--');
  });
});
