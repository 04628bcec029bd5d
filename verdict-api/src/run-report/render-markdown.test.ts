import { describe, expect, it } from '@jest/globals';
import MarkdownIt from 'markdown-it';
import type { RepetitionFailure } from '../contract.js';
import type { GateCandidate, RunPage, TestCaseRow } from '../run-page/run-page.js';
import { testCasesOf } from '../../test/support/stress-findings.js';
import { excerpt, groupedLine } from './failure-evidence.js';
import { renderRunReport } from './render-markdown.js';

const CASES: TestCaseRow[] = [
  { testCaseId: 'tc-1', module: ':app', suite: 'com.shop.CheckoutTest', name: 'appliesDiscount', status: 'success', durationMs: 4, isNew: true, muted: false },
  { testCaseId: 'tc-2', module: ':app', suite: 'com.shop.CartTest', name: 'retried', status: 'success', durationMs: 4, isNew: false, muted: false },
  { testCaseId: 'tc-3', module: ':app', suite: 'com.shop.CartTest', name: 'broken|pipe', status: 'failure', durationMs: 4, isNew: false, muted: true },
];
/** A run page; `over.testCases` are all of the run's test cases (counted and listed as runPage would). */
const page = (over: Partial<RunPage> = {}): RunPage => ({
  ...testCasesOf(over.testCases ?? CASES),
  runId: 'run-1',
  flakyNotShown: 0,
  branch: 'feature/checkout',
  commit: '0123456789abcdef0123',
  isCi: true,
  status: 'success',
  shards: 1,
  durationMs: 1000,
  startedAt: '2026-12-01 10:00:00',
  flaky: [
    { module: ':app', suite: 'com.shop.CartTest', name: 'retried', caughtBy: 'organic', failed: 1, repetitions: 2 },
    { module: ':app', suite: 'com.shop.CheckoutTest', name: 'appliesDiscount', caughtBy: 'stress_gate', failed: 3, repetitions: 10 },
  ],
  gate: { mode: 'report', outcome: 'failed', candidatesExamined: 1, stressed: 1, excluded: 0, notStressed: 0, guard: null, blocked: false, wouldHaveBlocked: true, shards: 1, stressPassMs: null, candidates: [], detection: null },
  ...over,
  ...(over.testCases ? testCasesOf(over.testCases) : {}),
});

describe('renderRunReport', () => {
  it('lists stress findings in the one flaky section, labelled by provenance', () => {
    expect(renderRunReport(page())).toBe(
      [
        '## Test run `run-1` on `feature/checkout` (`0123456789ab`)',
        '',
        '3 test cases: 2 passed, 1 failed, 0 skipped, 1 new.',
        '',
        '### Failed tests',
        '',
        '| Test | Module |',
        '| --- | --- |',
        '| `com.shop.CartTest.broken\\|pipe` (muted) | `:app` |',
        '',
        '### Flaky tests',
        '',
        '| Test | Module | Disagreed | Found by |',
        '| --- | --- | --- | --- |',
        '| `com.shop.CartTest.retried` | `:app` | failed 1 of 2 | this run (the build repeated it) |',
        '| `com.shop.CheckoutTest.appliesDiscount` | `:app` | failed 3 of 10 | stress gate: new test, deliberately repeated in fresh JVMs |',
        '',
      ].join('\n'),
    );
  });

  it('counts in the singular when there is one: a test case, a repetition, a line', () => {
    expect(renderRunReport(page({ flaky: [], testCases: page().testCases.slice(0, 1) }))).toContain('\n1 test case: 1 passed, 0 failed, 0 skipped, 1 new.\n');
    expect(groupedLine({ failureGroups: [], failures: [], failuresOmitted: 0 }, 1, 1)).toBe('1 of 1 repetition failed.');
    const thirteen = Array.from({ length: 13 }, (_, i) => `line ${i + 1}`).join('\n');
    expect(excerpt({ repetition: 1, kind: 'failure', type: 'java.lang.AssertionError', message: thirteen, stackTrace: null, framesOmitted: 0, stdoutTail: null, stderrTail: null, durationMs: 1, exitCode: null, signal: null, hsErrFile: null, truncated: false }).split('\n').at(-1)).toBe('… 1 more line');
  });

  it("shows an assertion message's lines, so the line that says what was expected is never lost", () => {
    const failure = (type: string, message: string): RepetitionFailure => ({ repetition: 1, kind: 'failure', type, message, stackTrace: null, framesOmitted: 0, stdoutTail: null, stderrTail: null, durationMs: 1, exitCode: null, signal: null, hsErrFile: null, truncated: false });
    // AssertJ's containsExactly: the message starts with a line break and says what was missing on its last lines.
    const assertj = '\nActual and expected should have same elements but actual had:\n  [1, 2]\nand expected had:\n  [1, 2, 3]\nexpecting:\n  [1, 2]\nto contain exactly (and in same order):\n  [1, 2, 3]\nbut could not find the following elements:\n  [3]\n';
    const text = excerpt(failure('java.lang.AssertionError', assertj));
    expect(text.split('\n').slice(0, 2)).toEqual(['java.lang.AssertionError:', 'Actual and expected should have same elements but actual had:']);
    expect(text.endsWith('but could not find the following elements:\n  [3]')).toBe(true);
    // One long line (a JSON document) is cut, and the line after it stays.
    const json = `{"items":[${Array.from({ length: 400 }, (_, i) => `{"sku":"A-${i}","qty":1}`).join(',')}]}`;
    const lines = excerpt(failure('org.opentest4j.AssertionFailedError', `${json}\nexpected: <30> but was: <27>`)).split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]!.length).toBe(300);
    expect(lines[0]!.endsWith('…')).toBe(true);
    expect(lines[1]).toBe('expected: <30> but was: <27>');
  });

  it('omits empty sections and never renders the gate verdict', () => {
    const text = renderRunReport(page({ flaky: [], testCases: [] }));
    expect(text).toBe('## Test run `run-1` on `feature/checkout` (`0123456789ab`)\n\n0 test cases: 0 passed, 0 failed, 0 skipped.\n');
    expect(renderRunReport(page())).not.toMatch(/block/i);
  });
});

const MARKER = '<!-- stress-gate -->';
const VERDICT = 'Stress gate: 1 new test disagreed with itself; this merge request is blocked.';
const TRACE = [
  'java.lang.AssertionError: expected 30 but was 27',
  '\tat org.junit.Assert.fail(Assert.java:89)',
  '\tat org.junit.Assert.assertEquals(Assert.java:645)',
  '\tat shop.CheckoutTest.appliesDiscount(CheckoutTest.java:42)',
  '\tat java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)',
  '\tat java.base/java.lang.reflect.Method.invoke(Method.java:580)',
  '\tat org.junit.runners.model.FrameworkMethod$1.runReflectiveCall(FrameworkMethod.java:59)',
  'Caused by: java.lang.IllegalStateException: cart closed',
  '\tat shop.Cart.total(Cart.java:7)',
].join('\n');

type Failure = GateCandidate['failures'][number];
const failure = (over: Partial<Failure> = {}): Failure => ({
  repetition: 2, kind: 'failure', type: 'java.lang.AssertionError', message: 'expected 30 but was 27', stackTrace: TRACE, framesOmitted: 23,
  stdoutTail: 'total=27', stderrTail: null, durationMs: 31, exitCode: null, signal: null, hsErrFile: null, truncated: false, ...over,
});
const candidate = (over: Partial<GateCandidate> = {}): GateCandidate => ({
  testCaseId: '00000000-0000-4000-8000-000000000001', module: ':app', suite: 'com.shop.CheckoutTest', name: 'appliesDiscount', muted: false, outcome: 'failed', method: null, timingSensitive: null,
  repetitions: Array.from({ length: 10 }, (_, i) => ({ repetition: i + 1, status: [2, 6, 10].includes(i + 1) ? 'failure' : 'success', durationMs: 30 })),
  failures: [failure(), failure({ repetition: 6 }), failure({ repetition: 10, type: 'java.lang.IllegalStateException', message: 'cart closed', stackTrace: 'java.lang.IllegalStateException: cart closed\n\tat shop.CheckoutTest.appliesDiscount(CheckoutTest.java:50)' })],
  failureGroups: [
    { signature: 'java.lang.AssertionError at shop.CheckoutTest.appliesDiscount(CheckoutTest.java:42)', type: 'java.lang.AssertionError', location: 'CheckoutTest.java:42', count: 2, repetitions: [2, 6] },
    { signature: 'java.lang.IllegalStateException at shop.CheckoutTest.appliesDiscount(CheckoutTest.java:50)', type: 'java.lang.IllegalStateException', location: 'CheckoutTest.java:50', count: 1, repetitions: [10] },
  ],
  failuresOmitted: 0,
  reproduceCommand: "./gradlew :app:test --tests 'com.shop.CheckoutTest.appliesDiscount' -PstressGate.repetitions=10",
  ...over,
});
const gate = (candidates: GateCandidate[]): NonNullable<RunPage['gate']> => ({
  mode: 'enforce', outcome: 'failed', candidatesExamined: candidates.length, stressed: candidates.length, excluded: 0, notStressed: 0, guard: null, blocked: true, wouldHaveBlocked: true,
  shards: 1, stressPassMs: 1000, detection: null, candidates,
});
const caught = (c: GateCandidate): RunPage['flaky'][number] => ({ module: c.module, suite: c.suite, name: c.name, caughtBy: 'stress_gate', failed: c.repetitions.filter((r) => r.status === 'failure').length, repetitions: c.repetitions.length });
const withEvidence = (candidates: GateCandidate[]) => page({ testCases: [], flaky: candidates.map(caught), gate: gate(candidates) });

describe('renderRunReport: why the gate caught a test', () => {
  it('says how it failed, grouped, the first failure with its top frames, and how to rerun it', () => {
    const text = renderRunReport(withEvidence([candidate()]));
    expect(text.slice(text.indexOf('#### '))).toBe(
      [
        '#### Why `com.shop.CheckoutTest.appliesDiscount` failed under the stress gate',
        '',
        '3 of 10 repetitions failed, 2 distinct: `AssertionError` at `CheckoutTest.java:42` (2x), `IllegalStateException` at `CheckoutTest.java:50` (1x).',
        '',
        'First failure, repetition 2 (31ms):',
        '',
        '```text',
        'java.lang.AssertionError: expected 30 but was 27',
        '\tat org.junit.Assert.fail(Assert.java:89)',
        '\tat org.junit.Assert.assertEquals(Assert.java:645)',
        '\tat shop.CheckoutTest.appliesDiscount(CheckoutTest.java:42)',
        '\tat java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)',
        '\tat java.base/java.lang.reflect.Method.invoke(Method.java:580)',
        '\t… 3 more lines on the run page',
        '```',
        '',
        'Rerun it as the gate did:',
        '',
        '```sh',
        "./gradlew :app:test --tests 'com.shop.CheckoutTest.appliesDiscount' -PstressGate.repetitions=10",
        '```',
        '',
      ].join('\n'),
    );
  });

  it("keeps the test's own line in the excerpt when an assertion library's frames come first", () => {
    const jupiter = [
      'org.opentest4j.AssertionFailedError: expected: <30> but was: <27>',
      ...['build', 'buildAndThrow', 'failNotEqual', 'assertEquals', 'assertEquals', 'assertEquals'].map((m, i) => `\tat org.junit.jupiter.api.Assert${i}.${m}(Assert${i}.java:1${i})`),
      '\tat shop.CheckoutTest.appliesDiscount(CheckoutTest.java:42)',
      '\t... 40 more',
    ].join('\n');
    const first = failure({ type: 'org.opentest4j.AssertionFailedError', message: 'expected: <30> but was: <27>', stackTrace: jupiter });
    const text = renderRunReport(withEvidence([candidate({ failures: [first], failureGroups: [{ signature: 's', type: 'org.opentest4j.AssertionFailedError', location: 'CheckoutTest.java:42', count: 1, repetitions: [2] }] })]));
    expect(text).toContain(
      [
        '```text',
        'org.opentest4j.AssertionFailedError: expected: <30> but was: <27>',
        '\tat org.junit.jupiter.api.Assert0.build(Assert0.java:10)',
        '\tat org.junit.jupiter.api.Assert1.buildAndThrow(Assert1.java:11)',
        '\tat org.junit.jupiter.api.Assert2.failNotEqual(Assert2.java:12)',
        '\t… 3 lines',
        '\tat shop.CheckoutTest.appliesDiscount(CheckoutTest.java:42)',
        '\t… 1 more line on the run page',
        '```',
      ].join('\n'),
    );
  });

  it('words a crash, omitted evidence and a client that sent no groups', () => {
    const crash = failure({ repetition: 4, kind: 'crash', type: null, message: null, stackTrace: null, stderrTail: 'a\nb\n#  SIGSEGV (0xb) at pc=0x0\n# An error report file is saved as /tmp/hs_err_pid7.log', exitCode: 134, signal: 'SIGABRT', hsErrFile: '/tmp/hs_err_pid7.log', durationMs: 2500 });
    const text = renderRunReport(withEvidence([candidate({ failures: [crash], failureGroups: [], failuresOmitted: 1, reproduceCommand: null })]));
    expect(text).toContain('3 of 10 repetitions failed. Evidence of 1 more failed repetition was left out by the bound.\n');
    expect(text).toContain("First failure, repetition 4 (2.5s): the test JVM crashed (exit code 134, `SIGABRT`); the JVM's crash log: `/tmp/hs_err_pid7.log`:\n\n```text\na\nb\n#  SIGSEGV (0xb) at pc=0x0\n# An error report file is saved as /tmp/hs_err_pid7.log\n```\n");
    expect(text).not.toContain('Rerun it');
  });

  it('shows nothing more for a caught test without evidence (an older client), nor for organic findings', () => {
    const bare = candidate({ failures: [], failureGroups: [], reproduceCommand: null });
    expect(renderRunReport(withEvidence([bare]))).not.toContain('####');
    expect(renderRunReport(page())).not.toContain('####');
  });

  it('keeps the evidence within its bounds however much the CLI sent: ten tests at most, 30,000 characters', () => {
    const huge = (i: number) =>
      candidate({
        testCaseId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        name: `t${i}`,
        failures: [failure({ message: 'm\n'.repeat(2000), stackTrace: `${'x'.repeat(16_000)}\n`.repeat(1) })],
        reproduceCommand: 'r'.repeat(8192),
      });
    const many = Array.from({ length: 15 }, (_, i) => huge(i));
    const text = renderRunReport(withEvidence(many));
    const section = text.slice(text.indexOf('#### '));
    expect(section.length).toBeLessThanOrEqual(30_000 + 200);
    const shown = section.match(/^#### /gm)!.length;
    expect(shown).toBeLessThanOrEqual(10);
    expect(section).toContain(`Why ${15 - shown} more tests failed under the stress gate is on the run page.`);
    const few = renderRunReport(withEvidence(Array.from({ length: 12 }, (_, i) => candidate({ testCaseId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, name: `t${i}` }))));
    expect(few.match(/^#### /gm)).toHaveLength(10);
    expect(few).toContain('Why 2 more tests failed under the stress gate is on the run page.');
  });
});

describe('renderRunReport: hostile text from the tests', () => {
  const HOSTILE = [
    '<!-- swallow the rest',
    '-->',
    '</details><details open><summary>fake verdict: passed</summary>',
    '<script>alert(1)</script><img src=x onerror=alert(2)>',
    '@octocat @org/team',
    '[click](https://evil.example) ![pixel](https://evil.example/p.png) https://evil.example',
    '| fake | row |',
    '```\n# Stress gate passed\n```',
    '````` fence',
    'line one\nline two\r\n## heading\n- list',
    'back\\slash \\| pipe',
  ].join(' ');
  const hostileFailure = failure({ message: HOSTILE, type: 'x.<!--Evil', stackTrace: `x.<!--Evil: ${HOSTILE}\n\tat ${HOSTILE}\n\`\`\`\`\`\`\n-->` });
  const hostile = candidate({
    module: ':app<!--',
    suite: 'shop.`Evil`<!--',
    name: `n|ame\n<!-- ${HOSTILE}`,
    failures: [hostileFailure],
    failureGroups: [{ signature: HOSTILE, type: 'x.<!--Evil', location: `${HOSTILE}`.slice(0, 500), count: 1, repetitions: [2] }, { signature: HOSTILE, type: null, location: null, count: 2, repetitions: [6, 10] }],
    reproduceCommand: `./gradlew test --tests '${HOSTILE}' \`\`\`\`\`\`\`\n-->`,
  });
  const report = renderRunReport(page({ branch: `feature/<!--${HOSTILE}`, commit: '<!--abcdef', testCases: [{ testCaseId: 'x', module: hostile.module, suite: hostile.suite, name: hostile.name, status: 'failure', durationMs: 1, isNew: true, muted: false }], flaky: [caught(hostile)], gate: gate([hostile]) }));
  // The comment as the CLI posts it: the marker, the server's report, then the CLI's own report with its verdict.
  const comment = `${MARKER}\n${report}\n${VERDICT}\n`;
  // Raw HTML on: what GitHub and GitLab parse before they sanitise.
  const tokens = new MarkdownIt({ html: true, linkify: true }).parse(comment, {});
  const inlines = tokens.filter((t) => t.type === 'inline').flatMap((t) => t.children!);

  it('keeps the marker the only HTML, and the verdict line a paragraph of its own at the end', () => {
    const html = tokens.filter((t) => t.type === 'html_block' || t.type === 'html_inline');
    expect(html.map((t) => t.content.trim())).toEqual([MARKER]);
    expect(inlines.filter((t) => t.type === 'html_inline')).toEqual([]);
    const last = tokens.filter((t) => t.type === 'inline').at(-1)!;
    expect(last.content).toBe(VERDICT);
    expect(tokens[tokens.indexOf(last) - 1]!.type).toBe('paragraph_open');
  });

  it('never lets test text become a link, an image, emphasis, a heading of its own or a list', () => {
    expect(inlines.filter((t) => /^(link|image|em|strong|s)_?/.test(t.type) && t.type !== 'softbreak')).toEqual([]);
    expect(tokens.filter((t) => t.type === 'bullet_list_open')).toEqual([]);
    const headings = tokens.filter((t, i) => t.type === 'inline' && tokens[i - 1]!.type === 'heading_open').map((t) => t.children!.filter((c) => c.type === 'text').map((c) => c.content).join('|'));
    expect(headings).toEqual(['Test run | on | (|)', 'Failed tests', 'Flaky tests', 'Why | failed under the stress gate']);
    // Plain text outside code holds none of the hostile characters: everything from the run is code.
    const text = inlines.filter((t) => t.type === 'text').map((t) => t.content).join(' ');
    for (const bad of ['<', '>', '@', '[', '`', 'evil']) expect([bad, text.includes(bad)]).toEqual([bad, false]);
  });

  it('keeps both tables whole: one row per test, every row its cells', () => {
    expect(tokens.filter((t) => t.type === 'table_open')).toHaveLength(2);
    const rows = tokens.filter((t) => t.type === 'tr_open').length;
    expect(rows).toBe(2 + 2);
    const cellsPerRow: number[] = [];
    tokens.forEach((t) => {
      if (t.type === 'tr_open') cellsPerRow.push(0);
      if (t.type === 'td_open' || t.type === 'th_open') cellsPerRow[cellsPerRow.length - 1]!++;
    });
    expect(cellsPerRow).toEqual([2, 2, 4, 4]);
    const names = inlines.filter((t) => t.type === 'code_inline').map((t) => t.content);
    expect(names).toContain(`shop.\`Evil\`<!--.n|ame <!-- ${HOSTILE.replace(/\r\n?|\n/g, ' ')}`);
  });

  it('puts the message, top frames and reproduce command in balanced fences that hold them verbatim', () => {
    const fences = tokens.filter((t) => t.type === 'fence');
    expect(fences.map((t) => t.info)).toEqual(['text', 'sh']);
    // Its lines are cut to 300 characters: the first line's start, and a later line whole.
    expect(fences[0]!.content.startsWith(`x.<!--Evil: ${HOSTILE.slice(0, 200)}`)).toBe(true);
    expect(fences[0]!.content).toContain('\n- list back\\slash \\| pipe\n');
    expect(fences[1]!.content).toBe(`${hostile.reproduceCommand!.replaceAll('\r\n', '\n')}\n`);
    // Each fence is longer than any backtick run it holds, and every line of the source that starts
    // with backticks lies inside one of the two fences (opened and closed by the parser).
    for (const f of fences) expect(f.markup.length).toBeGreaterThan(Math.max(0, ...(f.content.match(/`+/g) ?? []).map((r) => r.length)));
    const lines = comment.split('\n');
    const fenced = (i: number) => fences.some((f) => i >= f.map![0] && i < f.map![1]);
    expect(lines.map((l, i) => (/^\s*`{3,}/.test(l) ? fenced(i) : true)).every(Boolean)).toBe(true);
  });
});
