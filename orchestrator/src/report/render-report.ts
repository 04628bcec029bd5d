// The prose report on stdout, in the RFC's shape: a section line, the counts, one aligned line a
// candidate, then warnings and the takeaway. Empty string when there is nothing to say.
import type { CandidateResult } from '../enforce/outcome.js';
import { formatDuration, formatLimit, plural, wrap } from './format.js';
import type { GateReport } from './gate-report.js';

/** The section line, as the RFC prints it. */
export const SECTION = 'Stress-testing new tests';

/** Renders the report; '' for not entitled and no candidates (a branch adding nothing prints nothing). */
export function renderReport(r: GateReport): string {
  const stop = r.stop;
  if (stop?.kind === 'not_entitled' || stop?.kind === 'no_candidates') return '';
  const lines = [SECTION];
  if (stop?.kind === 'first_pass_failed') {
    lines.push('  Skipped: the first pass failed, so no new test was stressed.');
  } else if (stop?.kind === 'not_configured') {
    lines.push(...warn(`The gate is on (${r.mode}) but no verdict API is configured (missing ${stop.missing.join(', ')}); nothing was stressed and the first pass's result stands.`));
  } else if (stop?.kind === 'server_unavailable') {
    lines.push(...warn(`No verdict from the verdict API (${stop.problem}); nothing was stressed and the first pass's result stands.`));
  } else if (stop?.kind === 'broken_results') {
    for (const e of stop.errors) lines.push(...warn(e));
    lines.push(...warn(`The gate cannot trust this run's test results, so it cannot tell which tests are new; nothing was stressed${r.mode === 'enforce' ? ' and this merge request is blocked' : ''}.`));
  } else if (r.guard) {
    lines.push(`  ${r.guard.reason}`);
  } else {
    lines.push(...candidateLines(r));
    const warnings = warningLines(r);
    if (warnings.length) lines.push('', ...warnings);
  }
  return `${lines.join('\n')}\n`;
}

function candidateLines(r: GateReport): string[] {
  const c = r.counts;
  const extra = [c.notStressed ? `${c.notStressed} not stressed` : '', c.errors ? `${plural(c.errors, 'error')}` : ''].filter(Boolean);
  const head = `  ${plural(c.examined, 'new test case')}, ${c.stressed} stressed, ${c.excluded} excluded${extra.map((e) => `, ${e}`).join('')}`;
  const labels = candidateLabels(r.candidates);
  const width = Math.max(...labels.map((l) => l.length));
  return [head, ...r.candidates.map((cand, i) => `  ${labels[i]!.padEnd(width)}   ${outcomeText(cand, r)}`)];
}

/** ":app CheckoutTest.appliesDiscount": the simple class name unless two candidates share it. */
export function candidateLabels(candidates: readonly CandidateResult[]): string[] {
  const simple = (s: string) => s.slice(s.lastIndexOf('.') + 1);
  const owners = new Map<string, Set<string>>();
  for (const c of candidates) {
    const key = `${c.module} ${simple(c.suite)}`;
    owners.set(key, (owners.get(key) ?? new Set()).add(c.suite));
  }
  return candidates.map((c) => {
    const suite = owners.get(`${c.module} ${simple(c.suite)}`)!.size > 1 ? c.suite : simple(c.suite);
    const label = `${suite}.${c.name}`;
    return c.module === ':' ? label : `${c.module} ${label}`;
  });
}

function outcomeText(c: CandidateResult, r: GateReport): string {
  const ran = c.recorded.length;
  const reps = ran < c.expected ? `${ran} of ${plural(c.expected, 'repetition')}` : plural(c.expected, 'repetition');
  switch (c.outcome) {
    case 'excluded':
      return `${formatDuration(c.durationMs)}, excluded (${r.slowLimitMs ? `slower than ${formatLimit(r.slowLimitMs)}` : 'too slow'})`;
    case 'passed':
      return `${reps}, passed${c.muted ? ' (muted)' : ''}`;
    case 'failed':
      return `${reps}, ${c.failures} failed${c.muted ? ' (muted: cannot fail the gate)' : ''}`;
    case 'not_stressed':
      return `${reps}, not stressed (${c.why})`;
    case 'error':
      return `${reps}, error (${c.why})`;
  }
}

function warningLines(r: GateReport): string[] {
  const out: string[] = [];
  const enforce = r.mode === 'enforce';
  const blocking = r.candidates.filter((c) => !c.muted && (c.outcome === 'failed' || c.outcome === 'error'));
  const sentences = blocking.map((c) => {
    const consequence = enforce ? 'and blocked this merge request.' : 'and would have blocked this merge request.';
    return c.outcome === 'failed'
      ? `${c.name} failed ${c.failures} of ${plural(c.recorded.length, 'repetition')} ${consequence}`
      : `${c.name} was expected to run ${c.expected} times and ran ${c.recorded.length}; the gate cannot vouch for it ${consequence}`;
  });
  if (!enforce && sentences.length) sentences[sentences.length - 1] += ' Pass --stress-new-tests enforce to make it blocking.';
  for (const s of sentences) out.push(...warn(s));
  for (const c of r.candidates.filter((x) => x.muted && x.outcome === 'failed')) {
    out.push(...warn(`${c.name} failed ${c.failures} of ${plural(c.recorded.length, 'repetition')}; it is muted, so it cannot fail the gate.`));
  }
  if (r.counts.notStressed) {
    const limit = r.ceilingSeconds ? `${formatLimit(r.ceilingSeconds * 1000, true)} ` : '';
    out.push(...warn(`The ${limit}ceiling cut the stress pass: ${plural(r.counts.notStressed, 'new test case')} ${r.counts.notStressed === 1 ? 'was' : 'were'} not stressed, so the gate says nothing about ${r.counts.notStressed === 1 ? 'it' : 'them'}.`));
  }
  for (const p of r.problems) out.push(...warn(p));
  return out;
}

function warn(text: string): string[] {
  return wrap(text, ' ! ', '   ');
}
