// The run page's headline: what the gate decided on the run, in words, and for each new test that
// decided it (blocked, or would have) its name, why it failed (signature and message, bounded) and
// the command that reruns it. The verdict's words are the runs list's badge words and the CLI's
// report's ("Blocked", "Would have blocked"). One verdict a run: a candidate's own outcome and the
// first pass are said elsewhere, each in words scoped to what it judges. Pure.
import { cut } from '../contract-markdown.js';
import { isOrderDependent, orderBlocking, shortName } from './order-probe.js';
import type { GateCandidate, RunPage } from './run-page.js';

/** The colour of a verdict, beside its words. */
export type Tone = 'bad' | 'warn' | 'ok' | 'info' | 'muted';

/** A test the headline names, with what the reader needs to act on it. */
export interface HeadlineTest {
  testCaseId: string;
  module: string;
  /** The class (suite) whole: `com.shop.CheckoutTest`. */
  suite: string;
  /** The simple class name and the test, as the CLI's report names it: `CheckoutTest.appliesDiscount`. */
  title: string;
  /** "failed 2 of 10 repetitions, each in a fresh JVM; it passed in the build". */
  line: string;
  /** Its failures by signature, at most MAX_SIGNATURES: the short form, the whole signature, how many. */
  signatures: { short: string; signature: string; count: number }[];
  /** Signatures left out of `signatures`. */
  moreSignatures: number;
  /** The first failure's message, bounded; null when it had none. */
  message: { text: string; cut: boolean; repetition: number } | null;
  reproduceCommand: string | null;
}

/** The headline. */
export interface RunHeadline {
  /** "Blocked", "Would have blocked", "Passed", "Incomplete"… */
  verdict: string;
  tone: Tone;
  /** "1 new test disagreed with itself". */
  summary: string;
  /** What it means and what to do now, a sentence each. */
  notes: string[];
  /** The tests that decided the verdict (or, when nothing blocked, the ones to look at), at most MAX_TESTS. */
  tests: HeadlineTest[];
  /** Tests of that kind left out of `tests`. */
  moreTests: number;
  /** The build's own failures, when the first pass failed: names only (the failures section has them). */
  firstPassFailures: string[];
}

/** Tests the headline names; the rest are counted. */
export const MAX_TESTS = 5;
/** Signatures a named test shows. */
export const MAX_SIGNATURES = 3;
/** A message's bound in the headline: characters and lines (the evidence below has it whole). */
export const MESSAGE_CHARS = 600;
export const MESSAGE_LINES = 8;

const GUARD_WORDS: Record<string, string> = { premise: 'premise', bulk_change: 'bulk change', candidate_cap: 'candidate cap', ceiling: 'wall-clock ceiling' };

/** "1 new test", "2 new tests". */
const newTests = (n: number): string => `${n} new ${n === 1 ? 'test' : 'tests'}`;
const themselves = (n: number): string => (n === 1 ? 'itself' : 'themselves');

/** The headline of a run. */
export function runHeadline(page: RunPage): RunHeadline {
  // The run's failed (unmuted) test cases: counted whole, named from the page's list of failures.
  const failedInBuild = page.failedTestCases.filter((t) => !t.muted);
  const failedCount = page.counts.failedUnmuted;
  const firstPassFailures = failedInBuild.slice(0, MAX_TESTS).map((t) => `${t.suite}.${t.name}`);
  const head = (h: Omit<RunHeadline, 'tests' | 'moreTests' | 'firstPassFailures'>, named: GateCandidate[] = []): RunHeadline => {
    const notes = page.status === 'failure' && page.gate?.outcome !== 'skipped' ? [...h.notes, `The build itself failed: ${failedWords(failedCount)} in its first pass (Failures, below).`] : h.notes;
    return { ...h, notes, tests: named.slice(0, MAX_TESTS).map((c) => headlineTest(c, page.gate?.mode ?? '')), moreTests: Math.max(0, named.length - MAX_TESTS), firstPassFailures };
  };
  const g = page.gate;
  if (g === null) {
    return page.status === 'failure'
      ? head({ verdict: 'Failed', tone: 'bad', summary: `${failedWords(failedCount)} in the build`, notes: ['The stress gate did not run on this run (no verdict uploaded).'] })
      : head({ verdict: 'Passed', tone: 'ok', summary: `all ${plural(page.counts.testCases, 'test')} passed in the build`, notes: ['The stress gate did not run on this run (no verdict uploaded).'] });
  }
  const failing = g.candidates.filter((c) => c.outcome === 'failed');
  const blocking = failing.filter((c) => !c.muted);
  const mutedFailing = failing.filter((c) => c.muted);
  // The build failed only on new tests, and the gate stressed them (the CLI's enforce/failed-in-build.ts):
  // each is flaky (it also passed in fresh JVMs) or broken (it failed every time); the build's failure stands.
  const failedIds = new Set(failedInBuild.map((t) => t.testCaseId));
  const inBuild = page.status === 'failure' ? g.candidates.filter((c) => !c.muted && failedIds.has(c.testCaseId) && c.repetitions.length > 0) : [];
  if (inBuild.length) {
    // A new test that passed in the build and failed its repetitions disagreed with itself too.
    const flaky = [...inBuild.filter((c) => c.repetitions.some((r) => r.status === 'success')), ...blocking.filter((c) => !failedIds.has(c.testCaseId))];
    const broken = inBuild.filter((c) => !flaky.includes(c)).length;
    const summary = flaky.length
      ? flaky.every((c) => failedIds.has(c.testCaseId))
        ? `${newTests(flaky.length)} failed the build and passed in fresh JVMs: flaky`
        : `${newTests(flaky.length)} disagreed with ${themselves(flaky.length)} in a build that failed on new tests: flaky`
      : `${newTests(broken)} failed the build and every repetition: broken`;
    const notes = [
      ...(flaky.length ? [`Rerunning CI until it passes would merge a flaky test: rerun ${flaky.length === 1 ? 'it' : 'each'} with the command below, fix the test or the code it tests, and push.`] : []),
      ...(broken ? [`${broken === 1 ? 'A new test that fails every time is broken' : `${broken} new tests fail every time (broken)`}: fix ${broken === 1 ? 'it' : 'them'} as any failing test.`] : []),
    ];
    const named = [...flaky, ...inBuild.filter((c) => !flaky.includes(c))];
    return { ...head({ verdict: flaky.length ? 'Flaky in the build' : 'Broken in the build', tone: 'bad', summary, notes }, named), tests: named.slice(0, MAX_TESTS).map((c) => headlineTest(c, g.mode, failedIds.has(c.testCaseId))) };
  }
  // Order-dependent tests are counted apart from failed ones: they passed every repetition alone.
  const ordered = g.candidates.filter(isOrderDependent);
  const orderBlockingHere = ordered.filter(orderBlocking);
  if (g.blocked || g.wouldHaveBlocked) {
    // Counted over every page of candidates; named from this one.
    const counted = g.failedCandidates ?? { failed: failing.length, unmuted: blocking.length };
    const orderN = g.orderProbes?.blocking ?? orderBlockingHere.length;
    const n = counted.unmuted || (orderN > 0 ? 0 : counted.failed) || blocking.length || (orderN > 0 ? 0 : failing.length);
    const disagreed = n > 0 ? `${newTests(n)} disagreed with ${themselves(n)}` : '';
    const dependent = orderN > 0 ? `${newTests(orderN)} ${orderN === 1 ? 'depends' : 'depend'} on test order` : '';
    const summary = [disagreed, dependent].filter(Boolean).join('; ') || `${newTests(0)} disagreed with themselves`;
    const they = n === 1 ? 'it' : 'they';
    const failedWhen = n > 0 ? `${n === 1 ? 'This new test' : 'These new tests'} failed when repeated in fresh JVMs, though ${they} passed in the build.` : '';
    const orderWhen = orderN > 0
      ? `${orderN === 1 ? 'A new test' : `${orderN} new tests`} passed every repetition alone, but failed right after another test in one JVM, or made an existing test fail right after ${orderN === 1 ? 'it' : 'them'}; each finding was replayed in fresh JVMs.`
      : '';
    const named = [...(blocking.length ? blocking : n > 0 ? failing : []), ...orderBlockingHere];
    const fix = [
      ...(n > 0
        ? [named.some((c) => !isOrderDependent(c) && c.reproduceCommand !== null)
          ? `Rerun ${n === 1 ? 'it' : 'each'} with the command below, fix the test or the code it tests, and push.`
          : `Read why ${n === 1 ? 'it' : 'each'} failed below, fix the test or the code it tests, and push.`]
        : []),
      ...(orderN > 0 ? ['Run each pair in its order with the command below, make the tests independent of each other (shared static state, files, system properties), and push.'] : []),
    ];
    const why = [failedWhen, orderWhen].filter(Boolean).join(' ');
    const told = g.blocked
      ? head({ verdict: 'Blocked', tone: 'bad', summary, notes: [`Enforce mode: the merge request is blocked. ${why}`, ...fix] }, named)
      : head({ verdict: 'Would have blocked', tone: 'warn', summary, notes: [`Report mode: the merge request was not blocked (--stress-new-tests enforce makes the gate block). ${why}`, ...fix] }, named);
    return { ...told, moreTests: Math.max(told.moreTests, n + orderN - told.tests.length) };
  }
  const unstressed = g.candidates.filter((c) => c.outcome === 'not_stressed' || c.outcome === 'error');
  const timing = g.candidates.filter((c) => c.outcome === 'passed' && c.timingSensitive !== null);
  // A modified test that disagreed with itself where modified tests are report-only: it did not block, and is said.
  const modifiedFailing = blocking.filter((c) => c.origin === 'modified');
  const aside = [
    ...(modifiedFailing.length ? [`${plural(modifiedFailing.length, 'modified test')} disagreed with ${themselves(modifiedFailing.length)} (a test this merge request changed; not blocking: the project's setting makes modified tests report-only).`] : []),
    ...(mutedFailing.length ? [`${plural(mutedFailing.length, 'muted test')} disagreed with ${themselves(mutedFailing.length)}; a muted test is stressed and recorded but cannot fail the gate.`] : []),
    ...(timing.length ? [`${plural(timing.length, 'test')} failed while ${timing.length === 1 ? 'its' : 'their'} repetitions ran side by side and passed run again alone (timing-sensitive: not blocking unless a project setting makes it).`] : []),
    ...(ordered.length ? [`${plural(ordered.length, 'new test')} ${ordered.length === 1 ? 'depends' : 'depend'} on test order (found by the order probe; not blocking: ${ordered.every((c) => c.muted) ? 'muted' : "the project's setting makes order findings report-only"}).`] : []),
  ];
  const worthALook = [...modifiedFailing, ...mutedFailing, ...timing, ...ordered];
  switch (g.outcome) {
    case 'passed':
      return head({ verdict: 'Passed', tone: 'ok', summary: passedSummary(g.stressed, modifiedFailing.length + mutedFailing.length + timing.length + ordered.length), notes: [...aside, ...(g.detection ? [g.detection.sentence] : [])] }, worthALook);
    case 'incomplete': {
      const n = unstressed.length || g.notStressed;
      return head({ verdict: 'Incomplete', tone: 'warn', summary: `the gate could not stress ${newTests(n)}`, notes: [`The gate says nothing about ${n === 1 ? 'it' : 'them'}: ${n === 1 ? 'it is' : 'they are'} not counted as passed. Nothing it stressed disagreed with itself.`, ...aside] }, worthALook);
    }
    case 'guarded': {
      const guard = g.guard ? GUARD_WORDS[g.guard.name] ?? g.guard.name : 'a guard';
      return head({ verdict: 'Guard fired', tone: 'info', summary: `the ${guard} guard stopped the gate, so nothing was stressed`, notes: g.guard ? [g.guard.reason] : [] });
    }
    case 'skipped':
      return head({ verdict: 'Skipped', tone: 'muted', summary: page.status === 'failure' ? 'the first pass failed, so no new test was stressed' : 'no new test was stressed', notes: page.status === 'failure' ? [`${failedWords(failedCount)} in the build (Failures, below); the build's failure stands.`] : [] });
    case 'gate_error':
      return head({ verdict: 'Gate error', tone: 'warn', summary: "the gate could not finish; the build's result stands", notes: ["This is the gate's own trouble, not your tests': nothing is counted as passed and nothing blocked."] });
    case 'cancelled':
      return head({ verdict: 'Cancelled', tone: 'muted', summary: 'the gate stopped before a verdict', notes: [] });
    case 'no_candidates':
      return head({ verdict: 'Nothing new', tone: 'muted', summary: 'no new test ran in this run, so the gate stressed nothing', notes: [] });
    case 'not_entitled':
      return head({ verdict: 'Not entitled', tone: 'muted', summary: "the account is not entitled to the stress gate; the build's result stands", notes: [] });
    default:
      return head({ verdict: g.outcome.replaceAll('_', ' '), tone: 'info', summary: 'the gate reported an outcome this page does not know', notes: aside }, worthALook);
  }
}

function passedSummary(stressed: number, notable: number): string {
  if (stressed === 0) return 'no new test needed stressing';
  return notable === 0 ? `${newTests(stressed)} passed every repetition, each in a fresh JVM` : `${newTests(stressed)} stressed; none blocks`;
}

/** One named test. */
function headlineTest(c: GateCandidate, mode: string, failedTheBuild = false): HeadlineTest {
  const failedInStrip = c.repetitions.filter((r) => r.status === 'failure').length;
  const ts = c.timingSensitive;
  const passedInStrip = c.repetitions.length - failedInStrip;
  const first = c.orderProbe?.findings[0];
  const line = isOrderDependent(c) && !failedTheBuild
    ? `passed ${c.repetitions.length} of ${plural(c.repetitions.length, 'repetition')} alone; order-dependent: ${first ? orderLine(first) : 'its findings are on the run page'}${c.orderProbe!.findings.length > 1 ? `, and ${c.orderProbe!.findings.length - 1} more` : ''}`
    : failedTheBuild
    ? passedInStrip
      ? `failed in the build, then passed ${passedInStrip} of ${plural(c.repetitions.length, 'repetition')}, each in a fresh JVM: flaky`
      : `failed in the build and every one of ${plural(c.repetitions.length, 'repetition')}, each in a fresh JVM: broken`
    : ts && failedInStrip === 0
    ? `failed ${ts.failures} of ${ts.repetitions} repetitions side by side and passed ${c.repetitions.filter((r) => r.status === 'success').length} run again alone: timing-sensitive${c.outcome === 'failed' && !c.muted ? `; the project's setting makes it ${mode === 'enforce' ? 'block' : 'count'}` : ''}`
    : `failed ${failedInStrip} of ${plural(c.repetitions.length, 'repetition')}, each in a fresh JVM; it passed in the build`;
  const groups = c.failureGroups;
  const message = isOrderDependent(c) && first ? boundedMessage(first.failure) : firstMessage(c);
  return {
    testCaseId: c.testCaseId,
    module: c.module,
    suite: c.suite,
    title: `${c.suite.slice(c.suite.lastIndexOf('.') + 1)}.${c.name}`,
    line: c.muted ? `${line} (muted: it cannot fail the gate)` : line,
    signatures: groups.slice(0, MAX_SIGNATURES).map((gr) => ({ short: gr.type !== null && gr.location !== null ? `${gr.type.slice(gr.type.lastIndexOf('.') + 1)} at ${gr.location}` : gr.signature, signature: gr.signature, count: gr.count })),
    moreSignatures: Math.max(0, groups.length - MAX_SIGNATURES),
    message,
    reproduceCommand: isOrderDependent(c) ? first?.reproduceCommand ?? null : c.reproduceCommand,
  };
}

/** "victim of CartTest.clears (failed 3 of 3 replays)". */
function orderLine(f: NonNullable<GateCandidate['orderProbe']>['findings'][number]): string {
  const replays = `${f.replayFailures} of ${f.replays} replays failed`;
  return f.role === 'victim' ? `failed right after ${shortName(f.other)} (${replays})` : `${shortName(f.other)} failed right after it (${replays})`;
}

/** The first failure's message (the first signature's failures first, in the CLI's order), cut to the headline's bound. */
function firstMessage(c: GateCandidate): HeadlineTest['message'] {
  const order = c.failureGroups.flatMap((g) => g.repetitions);
  const failures = [...c.failures].sort((a, b) => rank(order, a.repetition) - rank(order, b.repetition));
  return boundedMessage(failures.find((x) => (x.message !== null && x.message !== '') || x.kind === 'crash'));
}

/** A failure's message (or its crash) cut to the headline's bound; null when it has neither. */
function boundedMessage(f: GateCandidate['failures'][number] | undefined): HeadlineTest['message'] {
  if (!f || ((f.message === null || f.message === '') && f.kind !== 'crash')) return null;
  const text = f.message !== null && f.message !== '' ? f.message : `The test JVM crashed${f.signal ? ` (${f.signal})` : ''}${f.exitCode !== null ? `, exit code ${f.exitCode}` : ''}.`;
  const lines = text.split('\n');
  const byLines = lines.length > MESSAGE_LINES ? lines.slice(0, MESSAGE_LINES).join('\n') : text;
  const bounded = cut(byLines, MESSAGE_CHARS);
  return { text: bounded === byLines && byLines !== text ? `${byLines}\n…` : bounded, cut: bounded !== text, repetition: f.repetition };
}

const rank = (order: number[], repetition: number): number => {
  const i = order.indexOf(repetition);
  return i === -1 ? Number.MAX_SAFE_INTEGER : i;
};

function failedWords(n: number): string {
  return `${plural(n, 'test')} failed`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
