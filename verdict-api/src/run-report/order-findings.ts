// The run report's section on the order probe, for the merge-request comment: each new test found
// order-dependent (it passed every repetition alone, but failed right after another test in one
// JVM, or made an existing test fail right after it) as its own outcome, each finding with its
// role, the other test, the order, the replays, whether the other test passes alone, the seed, the
// failing test's evidence (as a failed repetition's: failure-evidence.ts) and the command that runs
// the pair in that order; then each probe a bound cut or that did not run. Bounded like the
// evidence of failed tests; the run page has the rest. Every text from the run goes through
// contract-markdown.ts. Pure.
import { code, codeBlock } from '../contract-markdown.js';
import { findingLine, isOrderDependent, orderVerdict, orderWords, probeLine, shortName } from '../run-page/order-probe.js';
import type { RunPage } from '../run-page/run-page.js';
import { excerpt } from './failure-evidence.js';

/** Findings whose evidence the report shows; the others are counted and left to the run page. */
export const MAX_ORDER_FINDINGS_WITH_EVIDENCE = 10;
/** Characters of order evidence the report holds at most. */
export const MAX_ORDER_EVIDENCE_CHARS = 15_000;
/** Probes cut or not run that the report names; the others are counted. */
export const MAX_PROBE_LINES = 10;

/** The section's lines (none when no order probe found or missed anything on this page and in the run). */
export function orderFindingsSection(page: RunPage): string[] {
  const g = page.gate;
  if (!g) return [];
  const cell = (s: string) => code(s, { in: 'table' });
  const ordered = g.candidates.filter(isOrderDependent);
  const partial = g.candidates.filter((c) => c.orderProbe && c.orderProbe.status !== 'probed');
  const counts = g.orderProbes;
  const total = Math.max(counts?.orderDependent ?? 0, ordered.length);
  const missed = Math.max((counts?.cut ?? 0) + (counts?.notRun ?? 0), partial.length);
  if (total === 0 && missed === 0) return [];
  const lines = ['', '### Order-dependent tests', ''];
  if (total > 0) {
    lines.push(
      `${total} new ${total === 1 ? 'test' : 'tests'} passed every repetition alone but ${total === 1 ? 'depends' : 'depend'} on test order (the order probe ran ${total === 1 ? 'it' : 'them'} beside existing tests in shared JVMs; each finding was replayed in fresh JVMs):`,
      '',
      '| Test | Module | Finding | Order (one JVM) | Replays failed | Effect |',
      '| --- | --- | --- | --- | --- | --- |',
    );
    for (const c of ordered) {
      const effect = orderVerdict(c, g.mode);
      for (const f of c.orderProbe!.findings) {
        const role = f.role === 'victim' ? `victim of ${cell(shortName(f.other))}` : `polluter of ${cell(shortName(f.other))}`;
        lines.push(`| ${cell(`${c.suite}.${c.name}`)} | ${cell(c.module)} | ${role} | ${orderWords(f, cell)} | ${f.replayFailures} of ${f.replays} | ${effect} |`);
      }
      const left = c.orderProbe!.findingsNotShown + c.orderProbe!.findingsOmitted;
      if (left > 0) lines.push(`| ${cell(`${c.suite}.${c.name}`)} | ${cell(c.module)} | ${left} more ${left === 1 ? 'finding' : 'findings'} not shown | | | ${effect} |`);
    }
    if (total > ordered.length) lines.push('', `${total - ordered.length} more order-dependent ${total - ordered.length === 1 ? 'test is' : 'tests are'} on the run page.`);
    lines.push(...evidence(page));
  }
  if (missed > 0) {
    lines.push('', `The order probe checked less for ${missed} new ${missed === 1 ? 'test' : 'tests'}:`, '');
    for (const c of partial.slice(0, MAX_PROBE_LINES)) lines.push(`- ${code(`${c.suite}.${c.name}`)}: ${probeLine(c.orderProbe!)}.`);
    if (missed > Math.min(partial.length, MAX_PROBE_LINES)) lines.push(`- and ${missed - Math.min(partial.length, MAX_PROBE_LINES)} more (the run page lists them).`);
  }
  return lines;
}

/** Each finding's evidence and command, bounded. */
function evidence(page: RunPage): string[] {
  const findings = (page.gate?.candidates ?? []).filter(isOrderDependent).flatMap((c) => c.orderProbe!.findings.map((f) => ({ c, f })));
  const parts: string[] = [];
  let used = 0;
  for (const { c, f } of findings) {
    const failing = f.role === 'victim' ? `${c.suite}.${c.name}` : `${f.other.suite}.${f.other.name}`;
    const out = [
      `#### Why ${code(`${c.suite}.${c.name}`)} is order-dependent: ${f.role}`,
      '',
      `${capitalised(findingLine(f, code))}. Order: ${orderWords(f, code)}. Seed ${code(c.orderProbe!.seed)}.`,
      '',
      `${code(failing)} in the last replay (${f.failure.kind === 'crash' ? 'the test JVM crashed' : 'it failed'}):`,
      '',
      codeBlock(excerpt(f.failure)),
    ];
    if (f.reproduceCommand !== null) out.push('Run the pair in that order:', '', codeBlock(f.reproduceCommand, 'sh'));
    const part = out.join('\n').replace(/\n+$/, '');
    if (parts.length === MAX_ORDER_FINDINGS_WITH_EVIDENCE || used + part.length > MAX_ORDER_EVIDENCE_CHARS) break;
    parts.push(part);
    used += part.length;
  }
  const left = findings.length - parts.length;
  if (left > 0) parts.push(`The evidence of ${left} more order ${left === 1 ? 'finding' : 'findings'} is on the run page.`);
  return parts.flatMap((p) => ['', p]);
}

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
