// The gate's report as one structure of sentences: what the terminal report and the job summary
// both render, so they can never say different things. Pure.
import type { CandidateResult } from '../enforce/outcome.js';
import { firstFailureText, groupsLine } from '../evidence/failure-evidence.js';
import { formatDuration, formatLimit, plural } from '../format/format.js';
import { code, rich, type Rich } from './rich-text.js';
import type { GateReport } from './gate-report.js';
import { detectionPower, detectionSentence } from './detection-power.js';

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
}

/** The report, before it is laid out for a terminal or for Markdown. */
export interface ReportDocument {
  mode: GateReport['mode'];
  /** What stopped the gate, or the guard that fired: printed in place of the candidate list. */
  lead: Sentence[];
  /** "3 new test cases, 2 stressed, 1 excluded", or null when there is no list. */
  counts: string | null;
  rows: { label: string; repetitions: string; outcome: string; candidate: CandidateResult }[];
  /** The candidates that failed, blocking ones first. */
  findings: Finding[];
  /** How the stress pass ran: "10 repetitions in 2 JVMs at a time", or null when it did not run. */
  pass: string | null;
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
  if (stop?.kind === 'not_entitled' || stop?.kind === 'no_candidates') return null;
  const doc: ReportDocument = { mode: r.mode, lead: [], counts: null, rows: [], findings: [], pass: null, warnings: [], detection: null, runPage };
  const stands = "nothing was stressed and the first pass's result stands";
  const say = (text: string, warning = true) => doc.lead.push({ text: [text], warning });
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
  const c = r.counts;
  const unstressed = c.notStressed + c.errors;
  const extra = unstressed ? `, ${unstressed} not stressed${c.errors ? ` (${c.errors} by a gate error)` : ''}` : '';
  doc.counts = `${plural(c.examined, r.mode === 'local' ? 'test case' : 'new test case')}, ${c.stressed} stressed, ${c.excluded} excluded${extra}`;
  const labels = candidateLabels(r.candidates);
  doc.rows = r.candidates.map((cand, i) => ({ label: labels[i]!, ...outcomeWords(cand, r), candidate: cand }));
  doc.pass = passWords(r.stressPass);
  doc.findings = findings(r);
  doc.warnings = warnings(r);
  const power = detectionPower(r.candidates);
  doc.detection = power ? detectionSentence(power) : null;
  return doc;
}

/** "10 repetitions in 2 JVMs at a time": each repetition is one fresh JVM of one Test task. */
export function passWords(p: GateReport['stressPass']): string | null {
  if (!p || p.jvms === undefined || p.jvms === 0) return null;
  const at = p.jvmsAtATime ?? 1;
  const how = at > 1 ? `in ${at} JVMs at a time` : 'one JVM at a time';
  return `${plural(p.jvms, 'repetition')} ${how}${p.executor === 'gradle' ? ' (Gradle executor)' : ''}`;
}

/** ":app CheckoutTest.appliesDiscount": the simple class name unless two candidates share it. */
export function candidateLabels(candidates: readonly CandidateResult[]): string[] {
  const names = classAndName(candidates);
  return candidates.map((c, i) => (c.module === ':' ? names[i]! : `${c.module} ${names[i]}`));
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

/** "CheckoutTest.appliesDiscount", or "com.shop.CheckoutTest.appliesDiscount" when two classes of a module share the simple name. */
function classAndName(candidates: readonly CandidateResult[]): string[] {
  const simple = (s: string) => s.slice(s.lastIndexOf('.') + 1);
  const owners = new Map<string, Set<string>>();
  for (const c of candidates) {
    const key = `${c.module} ${simple(c.suite)}`;
    owners.set(key, (owners.get(key) ?? new Set()).add(c.suite));
  }
  return candidates.map((c) => `${owners.get(`${c.module} ${simple(c.suite)}`)!.size > 1 ? c.suite : simple(c.suite)}.${c.name}`);
}

function outcomeWords(c: CandidateResult, r: GateReport): { repetitions: string; outcome: string } {
  const ran = c.recorded.length;
  const repetitions = c.outcome === 'excluded' ? formatDuration(c.durationMs) : ran < c.expected ? `${ran} of ${plural(c.expected, 'repetition')}` : plural(c.expected, 'repetition');
  switch (c.outcome) {
    case 'excluded':
      return { repetitions, outcome: `excluded (${r.slowLimitMs ? `slower than ${formatLimit(r.slowLimitMs)}` : 'too slow'})` };
    case 'passed':
      return { repetitions, outcome: `passed${c.muted ? ' (muted)' : ''}` };
    case 'failed':
      return { repetitions, outcome: `${c.failures} failed${c.crashed ? ` (${crashWords(c.crashed)})` : ''}${c.muted ? ' (muted: cannot fail the gate)' : ''}` };
    case 'not_stressed':
      return { repetitions, outcome: `not stressed (${c.why})` };
    case 'error':
      return { repetitions, outcome: `not stressed (gate error: ${c.why})` };
  }
}

function crashWords(n: number): string {
  return n === 1 ? 'its JVM died once' : `its JVM died ${n} times`;
}

/** The failed candidates, blocking first, each with why and how to rerun it. */
function findings(r: GateReport): Finding[] {
  const failed = [...r.candidates.filter((c) => !c.muted && c.outcome === 'failed'), ...r.candidates.filter((c) => c.muted && c.outcome === 'failed')];
  const lastBlocking = failed.filter((c) => !c.muted).length - 1;
  const names = new Map(testNames(r.candidates).map((n, i) => [r.candidates[i]!, n]));
  return failed.map((c, i) => {
    const name = code(names.get(c)!);
    const of = `${c.failures} of ${plural(c.recorded.length, 'repetition')}`;
    const sentence = c.muted
      ? rich`${name} failed ${of}; it is muted, so it cannot fail the gate.`
      : r.mode === 'local'
        ? rich`${name} failed ${of}.`
        : rich`${name} failed ${of} and ${r.mode === 'enforce' ? 'blocked' : 'would have blocked'} this merge request.${r.mode === 'report' && i === lastBlocking ? ' Pass --stress-new-tests enforce to make it blocking.' : ''}`;
    const e = c.evidence;
    const first = e?.failures[0];
    return {
      sentence,
      groups: e ? groupsLine(e, c.failures) : null,
      // A failure the executor caught nothing of (no exception, not a crash) has no first failure to show.
      first: first && (first.kind === 'crash' || first.type !== null || first.message !== null || first.stackTrace !== null) ? { repetition: first.repetition, text: firstFailureText(first, e?.groups.find((g) => g.repetitions.includes(first.repetition))?.location ?? null) } : null,
      omitted: e?.failuresOmitted ?? 0,
      reproduce: c.reproduce ?? null,
    };
  });
}

function warnings(r: GateReport): Rich[] {
  const out: Rich[] = [];
  // `--stress-tests` stresses the tests it names, new or not.
  const testCase = r.mode === 'local' ? 'test case' : 'new test case';
  if (r.counts.notStressed && r.stressPass?.stoppedAtFailure) {
    const n = r.counts.notStressed;
    out.push([`Stopped at the first failure, as --until-failure asks: ${plural(n, 'test case')} did not run all ${n === 1 ? 'its' : 'their'} repetitions.`]);
  } else if (r.counts.notStressed) {
    const limit = r.ceilingSeconds ? `${formatLimit(r.ceilingSeconds * 1000, true)} ` : '';
    const n = r.counts.notStressed;
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
  out.push(...r.problems.map((p) => [p]));
  return out;
}
