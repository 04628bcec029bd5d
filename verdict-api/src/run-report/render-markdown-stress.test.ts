import { describe, expect, it } from '@jest/globals';
import MarkdownIt from 'markdown-it';
import { candidate, invocations, pageOf, SUITE, timingSensitive } from '../../test/support/stress-findings.js';
import { renderRunReport } from './render-markdown.js';

const rowsOf = (text: string) => new MarkdownIt().parse(text, {}).filter((t) => t.type === 'tr_open').length;
const flakyTable = (text: string) => text.slice(text.indexOf('### Flaky tests'), text.indexOf('\n\n', text.indexOf('| --- |')));

describe('renderRunReport: the new invocations of one method are one line', () => {
  it('shows a method with 100 new invocations as one row with its count and failing invocations; each failing one says why', () => {
    const text = renderRunReport(pageOf(invocations(100, { 37: [2, 5, 9], 81: [4] })));
    expect(flakyTable(text).split('\n').slice(4)).toEqual([
      '| `com.shop.CheckoutTest.adds(int)` | `:app` | 100 invocations, 10 repetitions each, 2 failed: `[37]` 3 of 10, `[81]` 1 of 10; 98 passed | stress gate: new test, deliberately repeated in fresh JVMs |',
    ]);
    expect(rowsOf(text)).toBe(1 + 1);
    expect(text.match(/^#### .*$/gm)).toEqual([
      '#### Why `com.shop.CheckoutTest.adds(int)[37]` failed under the stress gate',
      '#### Why `com.shop.CheckoutTest.adds(int)[81]` failed under the stress gate',
    ]);
    expect(text).toContain('3 of 10 repetitions failed, 1 distinct: `AssertionError` at `CheckoutTest.java:42` (3x).');
    expect(text).toContain(`./gradlew :app:test --tests '${SUITE}.adds' -PstressGate.repetitions=10 # 81`);
    // No line of the comment names a passing invocation.
    expect(text).not.toContain('adds(int)[1]');
    expect(text).not.toContain('[50]');
  });

  it('stays one bounded row when every one of 100 invocations failed: ten named, the rest counted, ten explained', () => {
    const all = Object.fromEntries(Array.from({ length: 100 }, (_, k) => [k + 1, [1]]));
    const text = renderRunReport(pageOf(invocations(100, all)));
    expect(rowsOf(text)).toBe(1 + 1);
    const row = flakyTable(text).split('\n')[4]!;
    expect(row).toContain('100 invocations, 10 repetitions each, 100 failed: `[1]` 1 of 10, `[2]` 1 of 10,');
    expect(row).toContain('`[10]` 1 of 10, and 90 more |');
    expect(row.length).toBeLessThan(600);
    expect(text.match(/^#### /gm)).toHaveLength(10);
    expect(text).toContain('Why 90 more tests failed under the stress gate is on the run page.');
    expect(text.length).toBeLessThan(40_000);
  });

  it('orders invocations by index, counts other outcomes, and leaves a lone invocation of a method a row of its own', () => {
    const group = invocations(12, { 10: [1], 2: [3] });
    group[4]!.outcome = 'not_stressed';
    group[4]!.repetitions = group[4]!.repetitions.slice(0, 3);
    const lone = candidate(50, 'other[1]', [4]);
    const text = renderRunReport(pageOf([...group, lone]));
    expect(flakyTable(text).split('\n').slice(4)).toEqual([
      '| `com.shop.CheckoutTest.adds(int)` | `:app` | 12 invocations, 10 repetitions each, 2 failed: `[2]` 1 of 10, `[10]` 1 of 10; 9 passed; 1 not stressed | stress gate: new test, deliberately repeated in fresh JVMs |',
      '| `com.shop.CheckoutTest.other[1]` | `:app` | failed 1 of 10 | stress gate: new test, deliberately repeated in fresh JVMs |',
    ]);
  });

  it('keeps a hostile invocation index inside its code span and the table whole', () => {
    const group = [candidate(1, 'adds[1: <!-- | ` x]', [2]), candidate(2, 'adds[2: ok]')];
    const text = renderRunReport(pageOf(group));
    const tokens = new MarkdownIt({ html: true }).parse(text, {});
    expect(tokens.filter((t) => t.type === 'html_block' || t.type === 'html_inline')).toEqual([]);
    const cells: number[] = [];
    tokens.forEach((t) => {
      if (t.type === 'tr_open') cells.push(0);
      if (t.type === 'td_open' || t.type === 'th_open') cells[cells.length - 1]!++;
    });
    expect(cells).toEqual([4, 4]);
    expect(tokens.flatMap((t) => t.children ?? []).filter((t) => t.type === 'code_inline').map((t) => t.content)).toContain('[1: <!-- | ` x]');
  });
});

describe('renderRunReport: a timing-sensitive test', () => {
  it('says it failed side by side and passed alone, not blocking, with its evidence and reproduce command', () => {
    const text = renderRunReport(pageOf([timingSensitive(1, 'waits')]));
    expect(flakyTable(text).split('\n').slice(4)).toEqual([
      '| `com.shop.CheckoutTest.waits` | `:app` | failed 2 of 10 side by side, passed 10 alone: timing-sensitive | stress gate: new test, deliberately repeated in fresh JVMs; not blocking (a project setting makes it block) |',
    ]);
    expect(text.slice(text.indexOf('#### '))).toBe(
      [
        '#### Why `com.shop.CheckoutTest.waits` failed side by side under the stress gate',
        '',
        'Failed 2 of 10 side by side, passed 10 alone: timing-sensitive; not blocking (a project setting makes it block).',
        '',
        '2 of 10 repetitions failed side by side, 1 distinct: `TimeoutException` at `CheckoutTest.java:9` (2x).',
        '',
        'First failure, repetition 3 side by side (5s):',
        '',
        '```text',
        'java.util.concurrent.TimeoutException: waited 5 s',
        '\tat com.shop.CheckoutTest.waits(CheckoutTest.java:9)',
        '```',
        '',
        'Rerun it as the gate did:',
        '',
        '```sh',
        `./gradlew :app:test --tests '${SUITE}.waits'`,
        '```',
        '',
      ].join('\n'),
    );
  });

  it('says it blocked when the project setting made it block', () => {
    const enforce = renderRunReport(pageOf([timingSensitive(1, 'waits', 'failed')], 'enforce'));
    expect(enforce).toContain("| failed 2 of 10 side by side, passed 10 alone: timing-sensitive | stress gate: new test, deliberately repeated in fresh JVMs; blocked this merge request (the project's setting makes a timing-sensitive test block) |");
    expect(enforce).not.toContain('not blocking');
    expect(renderRunReport(pageOf([timingSensitive(1, 'waits', 'failed')], 'report'))).toContain("would have blocked this merge request (the project's setting makes a timing-sensitive test block)");
  });

  it('counts a timing-sensitive invocation in its method’s line, and still explains it', () => {
    const group = [...invocations(3), timingSensitive(4, 'adds(int)[4]')];
    const text = renderRunReport(pageOf(group));
    expect(flakyTable(text).split('\n').slice(4)).toEqual([
      '| `com.shop.CheckoutTest.adds(int)` | `:app` | 4 invocations, 10 repetitions each, 1 timing-sensitive (failed side by side, passed alone; not blocking): `[4]`; 3 passed | stress gate: new test, deliberately repeated in fresh JVMs |',
    ]);
    expect(text).toContain('#### Why `com.shop.CheckoutTest.adds(int)[4]` failed side by side under the stress gate');
  });
});
