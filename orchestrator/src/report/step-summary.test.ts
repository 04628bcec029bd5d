import { describe, expect, it } from '@jest/globals';
import MarkdownIt from 'markdown-it';
import { candidate, classifyCandidate, gateReport, reps } from '../../test/support/builders.js';
import type { FailureDetail, RecordedRepetition } from '../repetitions/stress-pass-result.js';
import { renderStepSummary } from './step-summary.js';

const HOSTILE = 'x` | <!-- <script>alert(1)</script> ```\n# heading [link](javascript:alert(1)) ![img](http://e/x.png) @someone **bold** --> |';
const failing = (message: string): FailureDetail => ({
  kind: 'failure', type: `java.lang.AssertionError${HOSTILE}`, message, trace: `java.lang.AssertionError: ${message}\n\tat com.shop.CheckoutTest.appliesDiscount(CheckoutTest.java:42)`,
  stdoutTail: HOSTILE, stderrTail: null, exitCode: null, signal: null, hsErrFile: null,
});
const recorded = (message: string): RecordedRepetition[] => reps(10, [3]).map((r) => (r.status === 'failure' ? { ...r, failure: failing(message) } : r));

/** The summary parsed as GitHub would (markdown-it with raw HTML on, as permissive as it gets). */
function parse(md: string) {
  return new MarkdownIt({ html: true, linkify: true }).parse(md, {});
}

describe('the job summary', () => {
  it('keeps a hostile test name and message in code: no HTML, link, image, heading or emphasis from the test; the verdict and the table survive', () => {
    const c = classifyCandidate(candidate(`appliesDiscount${HOSTILE}`), recorded(`expected 30 but was 27 ${HOSTILE}`), false);
    c.reproduce = `npx stress-orchestrator gradle test --stress-tests ':app com.shop.CheckoutTest.${HOSTILE}' --repetitions 50`;
    const md = renderStepSummary(gateReport('enforce', [c, classifyCandidate(candidate('clearsCart'), reps(10), false)]));
    const tokens = parse(md);
    const all = tokens.flatMap((t) => [t, ...(t.children ?? [])]);
    // Nothing from the test became markup: no HTML, no link, no image, no heading beyond ours, no emphasis.
    expect(all.filter((t) => t.type === 'html_block' || t.type === 'html_inline')).toEqual([]);
    expect(all.filter((t) => t.type === 'image')).toEqual([]);
    expect(all.filter((t) => t.type === 'link_open').map((t) => t.attrGet('href'))).toEqual([]);
    expect(tokens.filter((t) => t.type === 'heading_open')).toHaveLength(1);
    expect(all.filter((t) => t.type === 'em_open')).toEqual([]);
    // One table of header + 2 rows, 4 cells each.
    expect(tokens.filter((t) => t.type === 'tr_open')).toHaveLength(3);
    expect(tokens.filter((t) => t.type === 'td_open' || t.type === 'th_open')).toHaveLength(12);
    // The fences hold the text unchanged, and the verdict is the last paragraph, in bold.
    const fences = tokens.filter((t) => t.type === 'fence').map((t) => t.content);
    expect(fences.some((f) => f.includes(`expected 30 but was 27 ${HOSTILE.split('\n')[0]}`))).toBe(true);
    expect(fences).toContain(`${c.reproduce}\n`);
    const paragraphs = tokens.filter((t) => t.type === 'inline').map((t) => t.content);
    expect(paragraphs.at(-1)).toBe('**Blocked**: a new test disagreed with itself.');
    expect(all.filter((t) => t.type === 'strong_open')).toHaveLength(1);
  });

  it('shows the first failure\'s message and top frames, and the reproduce command', () => {
    const c = classifyCandidate(candidate('appliesDiscount'), recorded('expected 30 but was 27'), false);
    c.reproduce = "npx stress-orchestrator gradle test --stress-tests ':app com.shop.CheckoutTest.appliesDiscount' --repetitions 50";
    const md = renderStepSummary(gateReport('enforce', [c]));
    expect(md).toContain('First failure, repetition 3:');
    expect(md).toContain('expected 30 but was 27');
    expect(md).toContain('at com.shop.CheckoutTest.appliesDiscount(CheckoutTest.java:42)');
    expect(md).toContain("```sh\nnpx stress-orchestrator gradle test --stress-tests ':app com.shop.CheckoutTest.appliesDiscount' --repetitions 50\n```");
  });

  it('names the class as well as the method in each finding: two inherited tests of different classes never read alike', () => {
    const inherited = (suite: string) => classifyCandidate(candidate('failsEveryThirdInvocation', { suite, testCaseId: suite }), recorded('expected 30 but was 27'), false);
    const md = renderStepSummary(gateReport('enforce', [inherited('dev.example.FlakyCounterTest'), inherited('dev.example.SlowCounterTest')]));
    expect(md).toContain('> ⚠️ `FlakyCounterTest.failsEveryThirdInvocation` failed 1 of 10 repetitions and blocked this merge request.\n');
    expect(md).toContain('> ⚠️ `SlowCounterTest.failsEveryThirdInvocation` failed 1 of 10 repetitions and blocked this merge request.\n');
  });

  it('says a build that failed on a flaky new test failed on it, not that the gate would have blocked', () => {
    const flaky = { ...classifyCandidate(candidate('appliesDiscount', { firstPassStatus: 'failure' }), reps(10, [4]), false), failedInBuild: 'flaky' as const };
    const md = renderStepSummary(gateReport('enforce', [flaky], null, { firstPass: { exitCode: 1, passed: false, testCases: 3, failures: 1, maskedFailures: 0 }, blocked: false, wouldHaveBlocked: true, exitCode: 1 }));
    expect(md).toContain('The build failed on 1 new test. The gate stressed it');
    expect(md).toContain('is flaky: it failed in the build, then passed 9 of 10 repetitions, each in a fresh JVM.');
    expect(md).toContain('**The build failed, and a new test is flaky**');
    expect(md).not.toContain('Would have blocked');
  });
});
