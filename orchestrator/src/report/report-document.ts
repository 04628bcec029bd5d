// The gate's report as one structure of sentences: what the terminal report and the job summary
// both render, so they can never say different things. Pure.
import type { CandidateResult } from '../enforce/outcome.js';
import { firstFailureText, groupsLine } from '../evidence/failure-evidence.js';
import { formatDuration, formatLimit, plural } from '../format/format.js';
import { code, rich, type Piece, type Rich } from './rich-text.js';
import type { GateReport } from './gate-report.js';
import { detectionPower, detectionSentence } from './detection-power.js';
import { NO_PARTNERS } from '../repetitions/order-probe-result.js';
import { HALTED_WHY } from '../repetitions/stress-pass-result.js';
import { candidateLabels, classAndName, reportRows, timingWords, type ReportRow } from './report-rows.js';

export { candidateLabels };

/** The section line, as the RFC prints it. */
export const SECTION = 'Stress-testing new tests';

/** The section line of a mode: `--stress-tests` stresses the tests named, new or not. */
export const sectionFor = (mode: GateReport['mode']): string => (mode === 'local' ? 'Stress-testing tests' : SECTION);

/** One sentence of the report; `warning` ones are the gate speaking up. */
export interface Sentence {
  text: Rich;
  warning: boolean;
}

/** A candidate that failed: why, and the command that reruns it. */
export interface Finding {
  /** "CheckoutTest.appliesDiscount failed 3 of 10 repetitions and blocked this merge request." */
  sentence: Rich;
  /** "3 failed, 2 distinct: AssertionError at CheckoutTest.java:42 (2x), …" (test text: in code). */
  groups: string | null;
  /** The first failure: its repetition, and its text from the test (exception, message, top frames). */
  first: { repetition: number; text: string } | null;
  /** Failures the evidence's bound left out. */
  omitted: number;
  reproduce: string | null;
  /** How `first` is introduced, when not as a repetition's ("Failure of X in the last replay"). */
  firstLabel?: string;
  /** Where the JVM's files are, when the finding names them. */
  files?: string;
}

/** The report, before it is laid out for a terminal or for Markdown. */
export interface ReportDocument {
  mode: GateReport['mode'];
  /** What stopped the gate, or the guard that fired: printed in place of the candidate list. */
  lead: Sentence[];
  /** "3 new test cases, 2 stressed, 1 excluded", or null when there is no list. */
  counts: string | null;
  rows: ReportRow[];
  /** The candidates that failed, blocking ones first, then the timing-sensitive ones that did not block. */
  findings: Finding[];
  /** How the stress pass ran: "10 repetitions in 2 JVMs at a time", or null when it did not run. */
  pass: string | null;
  /** Where a repetition JVM's time went: "Per JVM on average: start 24 ms, …", or null. */
  jvmTime: string | null;
  /** How the order probe ran: "3 new tests beside 41 other tests in 3 JVMs (seed 12), 4.2s", or null when it did not run. */
  probe: string | null;
  /** Warnings after the findings: cuts, the gate's own problems. */
  warnings: Rich[];
  /** The run page in the dashboard (server URL + path), when the run was uploaded. */
  runPage: string | null;
  /** How strong the clean results are, said once (null when nothing passed). */
  detection: string | null;
}

/** The dashboard address of a run's page: the server URL plus /projects/:project/runs/:runId. */
export function runPageUrl(serverUrl: string | undefined, project: string | undefined, runId: string): string | null {
  if (!serverUrl || !project) return null;
  return `${serverUrl.replace(/\/+$/, '')}/projects/${encodeURIComponent(project)}/runs/${encodeURIComponent(runId)}`;
}

/** The document; null when there is nothing to say (not entitled, no candidates). */
export function reportDocument(r: GateReport, runPage: string | null = null): ReportDocument | null {
  const stop = r.stop;
  const diffLines = diffWords(r);
  if (stop?.kind === 'not_entitled' || (stop?.kind === 'no_candidates' && diffLines.length === 0)) return null;
  const doc: ReportDocument = { mode: r.mode, lead: [], counts: null, rows: [], findings: [], pass: null, jvmTime: null, probe: null, warnings: [], detection: null, runPage };
  const stands = "nothing was stressed and the first pass's result stands";
  const say = (text: string, warning = true) => doc.lead.push({ text: [text], warning });
  // What the diff found leads; that it could not be had is a warning, after the results when there are any.
  for (const line of diffLines) doc.lead.push(line);
  if (stop?.kind === 'no_candidates') {
    say('No new or modified test to stress.', false);
    return doc;
  }
  switch (stop?.kind) {
    case 'first_pass_failed':
      say('Skipped: the first pass failed, so no new test was stressed.', false);
      return doc;
    case 'not_configured':
      say(`The gate is on (${r.mode}) but no verdict API is configured (missing ${stop.missing.join(', ')}); ${stands}.`);
      return doc;
    case 'server_unavailable':
      say(`No verdict from the verdict API (${stop.problem}); ${stands}.`);
      return doc;
    case 'broken_results':
      for (const e of stop.errors) say(e);
      say(`The gate cannot trust this run's test results, so it cannot tell which tests are new; ${stands}.`);
      return doc;
    case 'gate_error':
      say(`The gate could not run: ${stop.problem}. This is the gate's own trouble, not your tests': ${stands}.`);
      return doc;
    case 'cancelled':
      say(`Cancelled by ${stop.signal}: the gate stopped${r.stressPass ? ' during the stress pass' : ''}; no verdict.`);
      return doc;
  }
  if (r.guard) {
    say(r.guard.reason, false);
    return doc;
  }
  const inBuild = r.candidates.filter((cand) => cand.firstPassStatus === 'failure' && !cand.muted);
  if (!r.firstPass.passed && inBuild.length) {
    const n = inBuild.length;
    say(`The build failed on ${r.mode === 'local' ? `${plural(n, 'test')} named here` : plural(n, 'new test')}. The gate stressed ${n === 1 ? 'it' : 'them'}, each repetition in a fresh JVM; the build's failure stands.`, false);
  }
  const c = r.counts;
  const unstressed = c.notStressed + c.errors;
  const order = c.orderDependent ? `, ${c.orderDependent} order-dependent` : '';
  const extra = `${order}${unstressed ? `, ${unstressed} not stressed${c.errors ? ` (${c.errors} by a gate error)` : ''}` : ''}`;
  const modified = r.candidates.filter((cand) => cand.origin === 'modified').length;
  const examined = r.mode === 'local' ? plural(c.examined, 'test case') : modified ? `${plural(c.examined - modified, 'new test case')} and ${modified} modified` : plural(c.examined, 'new test case');
  doc.counts = `${examined}, ${c.stressed} stressed, ${c.excluded} excluded${extra}`;
  doc.rows = reportRows(r);
  doc.pass = passWords(r.stressPass, r.candidates.reduce((n, cand) => n + cand.recorded.length, 0));
  doc.jvmTime = doc.pass ? jvmTimeWords(r.stressPass) : null;
  doc.probe = probeWords(r);
  doc.findings = findings(r);
  const diffWarnings = diffLines.filter((l) => l.warning);
  doc.lead = doc.lead.filter((l) => !diffWarnings.includes(l));
  doc.warnings = [...warnings(r), ...diffWarnings.map((l) => l.text)];
  const power = detectionPower(r.candidates);
  doc.detection = power ? detectionSentence(power) : null;
  return doc;
}

/**
 * "10 repetitions in 2 JVMs at a time": each repetition one fresh JVM. Said otherwise when the
 * JVMs started were not one a repetition: the new invocations of one method share theirs ("1010
 * repetitions in 20 JVMs"), and a candidate that failed side by side ran again alone ("then 10
 * JVMs again alone …: 30 JVMs in all").
 */
/**
 * "Per JVM on average: start 24 ms, discovery 15 ms, tests 35 ms, exit 8 ms": whether the tests or
 * the JVMs around them are slow (start: to the runner's main; discovery: finding the selected
 * tests); null when no JVM said.
 */
export function jvmTimeWords(p: GateReport['stressPass']): string | null {
  const t = p?.perJvmMs;
  if (!t) return null;
  const ms = (x: number) => (x >= 10_000 ? formatDuration(x) : `${x} ms`);
  return `Per JVM on average: start ${ms(t.start)}, discovery ${ms(t.discovery)}, tests ${ms(t.tests)}, exit ${ms(t.exit)}`;
}

export function passWords(p: GateReport['stressPass'], repetitions = p?.jvms ?? 0): string | null {
  if (!p || p.jvms === undefined || p.jvms === 0) return null;
  const at = p.jvmsAtATime ?? 1;
  const gradle = p.executor === 'gradle' ? ' (Gradle executor)' : '';
  const alone = p.jvmsAlone ?? 0;
  if (repetitions === p.jvms && alone === 0) return `${plural(p.jvms, 'repetition')} ${at > 1 ? `in ${at} JVMs at a time` : 'one JVM at a time'}${gradle}`;
  const first = `${plural(p.jvms - alone, 'JVM')}${at > 1 ? `, ${at} at a time` : ''}`;
  const took = p.aloneMs ? ` (${formatDuration(p.aloneMs)} of the pass's ${formatDuration(p.wallClockMs)})` : '';
  const then = alone ? `, then ${plural(alone, 'JVM')} again alone for what failed side by side${took}: ${p.jvms} JVMs in all` : '';
  return `${plural(repetitions, 'repetition')} in ${first}${then}${gradle}`;
}

/** "Order probe (seed 123): 3 new tests, 41 pairs in 3 JVMs, 4.2s": each pair a new test run right before and right after another. */
function probeWords(r: GateReport): string | null {
  const p = r.orderProbe;
  if (!p || p.why !== null) return null;
  return `Order probe (seed ${p.seed}): ${plural(p.candidates, 'new test')}, ${plural(p.pairs, 'pair')} in ${plural(p.jvms, 'JVM')}, ${formatDuration(p.wallClockMs)}${p.cut ? ` (its ${formatDuration(p.budgetMs)} budget cut it)` : ''}`;
}

/** What the probe could not do, and what failed beside a new test without being confirmed. */
function probeWarnings(r: GateReport): Rich[] {
  const out: Rich[] = [];
  const p = r.orderProbe;
  if (!p) return out;
  const names = testNames(r.candidates);
  if (p.why === NO_PARTNERS) out.push([`The order probe had nothing to run: ${p.why}.`]);
  else if (p.why !== null) out.push([`The order probe did not run: ${p.why}. The new tests' order dependence is unknown.`]);
  r.candidates.forEach((c, i) => {
    const o = c.orderProbe;
    if (!o) return;
    if (o.status === 'cut' && p.why === null) out.push([code(names[i]!), ` was not fully probed for order dependence: ${o.why}.`]);
    if (o.status === 'not_run' && p.why === null) out.push([code(names[i]!), ` was not probed for order dependence: ${o.why}.`]);
    if (o.classPartnersLeftOut) out.push([code(names[i]!), ` ran beside a sample of its class: ${plural(o.classPartnersLeftOut, 'other test')} of its class did not run beside it.`]);
    for (const note of o.notes) out.push([code(names[i]!), ` (order probe): ${note}.`]);
  });
  return out;
}

/**
 * How a sentence names each candidate: its row's label without the module ("CheckoutTest.appliesDiscount"),
 * so that inherited tests of two classes never read alike; with the module when two would.
 */
export function testNames(candidates: readonly CandidateResult[]): string[] {
  const names = classAndName(candidates);
  const labels = candidateLabels(candidates);
  const seen = new Map<string, number>();
  for (const n of names) seen.set(n, (seen.get(n) ?? 0) + 1);
  return names.map((n, i) => (seen.get(n)! > 1 ? labels[i]! : n));
}

/** The failed candidates, blocking first, each with why and how to rerun it; then the timing-sensitive ones that passed alone. */
function findings(r: GateReport): Finding[] {
  const failed = [...r.candidates.filter((c) => !c.muted && c.outcome === 'failed'), ...r.candidates.filter((c) => c.muted && c.outcome === 'failed')];
  const lastBlocking = failed.filter((c) => !c.muted).length - 1;
  const names = new Map(testNames(r.candidates).map((n, i) => [r.candidates[i]!, n]));
  // A build that failed blocks by itself: the gate only says what its new tests did.
  const blocks = r.mode === 'enforce' && r.firstPass.passed ? 'blocked' : 'would have blocked';
  const out = failed.map((c, i): Finding => {
    const name = code(names.get(c)!);
    if (c.failedInBuild) return { ...evidenceOf(c), sentence: failedInBuildWords(name, c) };
    const of = c.timingSensitive ? `${c.failures} of ${plural(c.timingSensitive.repetitions, 'repetition')} side by side (it passed all ${c.recorded.length} again alone: timing-sensitive)` : `${c.failures} of ${plural(c.recorded.length, 'repetition')}`;
    const sentence = c.muted
      ? rich`${name} failed ${of}; it is muted, so it cannot fail the gate.`
      : c.origin === 'modified' && r.diff?.modifiedBlocks === false && r.mode !== 'local'
        ? rich`${name}, a test this merge request modified, failed ${of}. Modified tests are report-only in this project, so it does not block this merge request (a project setting makes them block).`
      : r.mode === 'local'
        ? rich`${name} failed ${of}.`
        : rich`${name} failed ${of} and ${blocks} this merge request.${r.mode === 'report' && i === lastBlocking ? ' Pass --stress-new-tests enforce to make it blocking.' : ''}`;
    return { ...evidenceOf(c), sentence: c.mismatch ? [...sentence, ` ${everyTimeWords(c.mismatch)}`] : sentence };
  });
  const timing = r.candidates.filter((c) => c.outcome === 'passed' && c.timingSensitive);
  const orderBlocks = r.orderProbe?.blocks ?? true;
  const order = r.candidates
    .filter((c) => c.outcome === 'order_dependent')
    .flatMap((c) =>
      (c.orderProbe?.findings ?? []).map((f): Finding => {
        const name = code(names.get(c)!);
        const other = code(`${f.other.suite.slice(f.other.suite.lastIndexOf('.') + 1)}.${f.other.name}`);
        const verdict = c.muted
          ? 'it is muted, so it cannot fail the gate.'
          : r.mode === 'local'
            ? ''
            : !orderBlocks
              ? 'Order findings are report-only in this project, so it does not block this merge request.'
              : `It ${blocks} this merge request.${r.mode === 'report' ? ' Pass --stress-new-tests enforce to make it blocking.' : ''}`;
        const what =
          f.role === 'victim'
            ? rich`${name} is order-dependent: it passed every repetition alone, and fails right after ${other} (${f.replayFailures} of ${plural(f.replays, 'fresh JVM')} that ran ${other} then it; seed ${String(r.orderProbe?.seed ?? c.orderProbe?.seed ?? '')}): ${other} leaves state behind that it depends on. ${verdict}`
            : rich`${name} is order-dependent: it breaks ${other}, an existing test, which fails right after it (${f.replayFailures} of ${plural(f.replays, 'fresh JVM')} that ran it then ${other}; seed ${String(r.orderProbe?.seed ?? c.orderProbe?.seed ?? '')}) and passes alone. ${verdict}`;
        const failure = f.evidence;
        return {
          sentence: what,
          groups: null,
          first: failure ? { repetition: f.replays, text: firstFailureText(failure) } : null,
          omitted: 0,
          reproduce: f.reproduce ?? null,
          firstLabel: `Failure of ${f.role === 'victim' ? names.get(c)! : `${f.other.suite.slice(f.other.suite.lastIndexOf('.') + 1)}.${f.other.name}`} in the last replay`,
          files: f.dir,
        };
      }),
    );
  return [
    ...out,
    ...order,
    ...timing.map((c): Finding => ({
      ...evidenceOf({ ...c, evidence: c.timingSensitive!.evidence, failures: c.timingSensitive!.failures }),
      sentence: rich`${code(names.get(c)!)} ${timingWords(c)} (a timeout or a race under load, probably a real flake): it passed all ${plural(c.recorded.length, 'repetition')} run again alone, so it does not ${r.mode === 'local' ? 'count as failed' : 'block this merge request (a project setting makes it block)'}.`,
    })),
  ];
}

/** What the diff changed about the candidates: day one, the renamed tests, why it was skipped. */
function diffWords(r: GateReport): { text: Rich; warning: boolean }[] {
  const out: { text: Rich; warning: boolean }[] = [];
  const d = r.diff;
  if (d?.dayOne) {
    out.push({ text: [`This project has no default-branch history yet: the candidates are the test methods this merge request adds, new (from the diff) against ${d.ref ?? 'its base'}.`], warning: false });
  }
  const renamed = r.renamed ?? [];
  for (const t of renamed.slice(0, 20)) {
    const simple = (s: string) => s.slice(s.lastIndexOf('.') + 1);
    const from = t.from.suite === t.suite ? t.from.name : `${simple(t.from.suite)}.${t.from.name}`;
    out.push({ text: rich`${code(`${simple(t.suite)}.${t.name}`)} was not stressed: renamed from ${code(from)}, same body, whose history it keeps.`, warning: false });
  }
  if (renamed.length > 20) out.push({ text: [`…and ${renamed.length - 20} more renamed tests, not stressed (the JSON report and the run page list them all).`], warning: false });
  if (d && d.status === 'skipped' && !d.quiet && d.why) out.push({ text: [`Modified and renamed test detection was skipped: ${d.why}.`], warning: true });
  return out;
}

/** A new test that failed the build: flaky (it also passed in fresh JVMs, with the counts) or broken. */
function failedInBuildWords(name: Piece, c: CandidateResult): Rich {
  const reps = c.recorded.length;
  const passed = reps - c.failures;
  return c.failedInBuild === 'flaky'
    ? rich`${name} is flaky: it failed in the build, then passed ${passed} of ${plural(reps, 'repetition')}, each in a fresh JVM.${c.failures === 0 ? " Its failure is in the build's output." : ''} Rerunning CI until it passes would merge a flaky test.`
    : rich`${name} is broken: it failed in the build and every one of ${plural(reps, 'repetition')}, each in a fresh JVM: fix it as any failing test.`;
}

/** What a finding shows of a candidate's failures: grouped, the first one, and the command that reruns it. */
function evidenceOf(c: Pick<CandidateResult, 'evidence' | 'failures' | 'reproduce'>): Omit<Finding, 'sentence'> {
  const e = c.evidence;
  const first = e?.failures[0];
  return {
    groups: e ? groupsLine(e, c.failures) : null,
    // A failure the executor caught nothing of (no exception, not a crash) has no first failure to show.
    first: first && (first.kind === 'crash' || first.type !== null || first.message !== null || first.stackTrace !== null) ? { repetition: first.repetition, text: firstFailureText(first, e?.groups.find((g) => g.repetitions.includes(first.repetition))?.location ?? null) } : null,
    omitted: e?.failuresOmitted ?? 0,
    reproduce: c.reproduce ?? null,
  };
}

/** A candidate that failed every repetition although it passed in the build: what the gate compared. */
function everyTimeWords(differences: readonly string[]): string {
  return differences.length
    ? `It failed every repetition although it passed in the build, and its repetitions' JVM differed from the build's: ${differences.join('; ')}.`
    : "It failed every repetition although it passed in the build. The gate sees no difference between its repetitions' JVM and the build's (class path, JVM arguments, system properties, environment, working directory): it may depend on a test that ran before it in the build's JVM, or on something of the build the gate cannot see.";
}

function warnings(r: GateReport): Rich[] {
  const out: Rich[] = [];
  // Modified tests left out so that a guard would not refuse the new ones (decide-on-verdict.ts).
  const leftOut = r.candidates.filter((c) => c.leftOutBy !== undefined && c.outcome === 'not_stressed');
  if (leftOut.length) {
    out.push([`${plural(leftOut.length, 'modified test')} ${leftOut.length === 1 ? 'was' : 'were'} not stressed: ${leftOut[0]!.leftOutBy}. The new tests were stressed without them; the gate says nothing about the modified ones.`]);
  }
  // `--stress-tests` stresses the tests it names, new or not.
  const testCase = r.mode === 'local' ? 'test case' : 'new test case';
  if (r.counts.notStressed && r.stressPass?.stoppedAtFailure) {
    const n = r.counts.notStressed;
    out.push([`Stopped at the first failure, as --until-failure asks: ${plural(n, 'test case')} did not run all ${n === 1 ? 'its' : 'their'} repetitions.`]);
  } else if (r.counts.notStressed - leftOut.length > 0) {
    const limit = r.ceilingSeconds ? `${formatLimit(r.ceilingSeconds * 1000, true)} ` : '';
    const n = r.counts.notStressed - leftOut.length;
    out.push([`The ${limit}ceiling cut the stress pass: ${plural(n, testCase)} ${n === 1 ? 'was' : 'were'} not stressed, so the gate says nothing about ${n === 1 ? 'it' : 'them'}.`]);
  }
  if (r.counts.errors) {
    const n = r.counts.errors;
    out.push([`The gate could not stress ${plural(n, testCase)} (its own trouble, not the test's); ${n === 1 ? 'it is' : 'they are'} not counted as passed and cannot block this merge request.`]);
  }
  const alone = r.stressPass?.confirmedAlone ?? 0;
  if (alone) {
    out.push([`${plural(alone, testCase)} failed while ${alone === 1 ? 'its' : 'their'} repetitions ran side by side, so ${alone === 1 ? 'it' : 'they'} ran again alone, one JVM at a time; the outcome above is from that run.`]);
  }
  if (r.stressPass?.fallback) out.push([`The direct executor could not run (${r.stressPass.fallback}); Gradle ran the repetitions one at a time.`]);
  const halted = r.stressPass?.halted;
  if (halted) {
    const rest = r.candidates.filter((c) => c.why === HALTED_WHY).length;
    out.push([`The stress pass stopped early: its first ${plural(halted.targets, 'JVM')} ran none of their tests, all for one reason: ${halted.cause}. ${rest ? `The other ${plural(rest, testCase)} ${rest === 1 ? 'was' : 'were'} not run, so the ceiling was not spent on JVMs that could find no test. ` : ''}This is the gate's own trouble: nothing is counted as passed, and nothing can block this merge request.`]);
  }
  // A gate error that is a mismatch: every difference the gate saw, which the row only begins.
  const names = testNames(r.candidates);
  r.candidates.forEach((c, i) => {
    if (c.outcome === 'error' && c.mismatch?.length) out.push([code(names[i]!), ` ${everyTimeWords(c.mismatch)}`]);
  });
  out.push(...probeWarnings(r));
  out.push(...r.problems.map((p) => [p]));
  return out;
}
