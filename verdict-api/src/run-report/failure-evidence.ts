// Why each test the stress gate caught failed, for the run report's flaky section: its failures
// grouped by signature, the first failure's message and top frames, and the command that reruns it
// (built by the server from the uploaded parts and the stored identity: read-evidence.ts);
// for a timing-sensitive test, its side-by-side failures and that it passed alone.
// Bounded, so a merge-request comment stays well inside the hosts' limits (GitHub: 65,536
// characters); the run page has the rest. Pure.
import { formatDuration, type RepetitionFailure } from '../contract.js';
import type { GateCandidate, RunPage } from '../run-page/run-page.js';
import { findingTiming, timingSensitiveLine, timingSensitiveVerdict, type TimingSensitiveFacts } from '../run-page/timing-sensitive.js';
import { code, codeBlock, cut, framesShown } from '../contract-markdown.js';

/** Tests whose evidence the report shows; the others are counted and left to the run page. */
export const MAX_TESTS_WITH_EVIDENCE = 10;
/** Characters of evidence the report holds at most, over all tests. */
export const MAX_EVIDENCE_CHARS = 30_000;
const MESSAGE_LINES = 12;
const MESSAGE_CHARS = 1_000;
const TRACE_LINES = 5;
const LINE_CHARS = 300;

/** The evidence section of `page` (Markdown ending in a newline), or '' when no caught test has any. */
export function failureEvidence(page: RunPage): string {
  const candidates = page.gate?.candidates ?? [];
  const caught = page.flaky
    .filter((f) => f.caughtBy === 'stress_gate')
    .map((f) => ({ f, c: candidates.find((c) => c.module === f.module && c.suite === f.suite && c.name === f.name) }))
    .filter((x): x is { f: RunPage['flaky'][number]; c: GateCandidate } => x.c !== undefined && hasEvidence(x.c));
  if (caught.length === 0) return '';
  const parts: string[] = [];
  let used = 0;
  let shown = 0;
  for (const { f, c } of caught) {
    const part = testEvidence(c, f.failed, f.repetitions, findingTiming(f), page.gate?.mode);
    if (shown === MAX_TESTS_WITH_EVIDENCE || used + part.length > MAX_EVIDENCE_CHARS) break;
    parts.push(part);
    used += part.length;
    shown++;
  }
  const left = caught.length - shown;
  if (left > 0) parts.push(`Why ${left} more ${left === 1 ? 'test' : 'tests'} failed under the stress gate is on the run page.\n`);
  return parts.join('\n');
}

const hasEvidence = (c: GateCandidate) => c.failures.length > 0 || c.failureGroups.length > 0 || c.reproduceCommand !== null;

function testEvidence(c: GateCandidate, failed: number, repetitions: number, timing: TimingSensitiveFacts | null, mode: string | undefined): string {
  const where = timing ? ' side by side' : '';
  const line = groupedLine(c, failed, repetitions, where);
  const out = [`#### Why ${code(`${c.suite}.${c.name}`)} failed${where} under the stress gate`, ''];
  if (timing) out.push(`${capitalised(timingSensitiveLine(timing))}; ${timingSensitiveVerdict(timing, mode)}.`, '');
  out.push(line, '');
  const first = c.failures[0];
  if (first) {
    out.push(`${firstFailureLine(first, where)}:`, '', codeBlock(excerpt(first, c.failureGroups.find((g) => g.repetitions.includes(first.repetition))?.location ?? null)));
  }
  if (c.reproduceCommand !== null) out.push('Rerun it as the gate did:', '', codeBlock(c.reproduceCommand, 'sh'));
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "3 of 10 repetitions failed, 2 distinct: `AssertionError` at `CheckoutTest.java:42` (2x), …" (`where`: " side by side"). */
export function groupedLine(c: Pick<GateCandidate, 'failureGroups' | 'failures' | 'failuresOmitted'>, failed: number, repetitions: number, where = ''): string {
  const head = `${failed} of ${repetitions} ${repetitions === 1 ? 'repetition' : 'repetitions'} failed${where}`;
  const omitted = c.failuresOmitted > 0 ? ` Evidence of ${c.failuresOmitted} more failed ${c.failuresOmitted === 1 ? 'repetition' : 'repetitions'} was left out by the bound.` : '';
  if (c.failureGroups.length === 0) return `${head}.${omitted}`;
  const groups = c.failureGroups.map((g) => `${groupLabel(g)} (${g.count}x)`).join(', ');
  return `${head}, ${c.failureGroups.length} distinct: ${groups}.${omitted}`;
}

/** A group as a reader scans it: the exception's simple name at its place in test code. */
export function groupLabel(g: GateCandidate['failureGroups'][number]): string {
  if (g.type === null || g.location === null) return code(g.signature);
  return `${code(g.type.slice(g.type.lastIndexOf('.') + 1))} at ${code(g.location)}`;
}

function firstFailureLine(f: RepetitionFailure, where: string): string {
  const took = formatDuration(f.durationMs);
  if (f.kind === 'failure') return `First failure, repetition ${f.repetition}${where} (${took})`;
  const how = [f.exitCode !== null ? `exit code ${f.exitCode}` : null, f.signal !== null ? code(f.signal) : null].filter(Boolean).join(', ');
  const hsErr = f.hsErrFile !== null ? `; the JVM's crash log: ${code(f.hsErrFile)}` : '';
  return `First failure, repetition ${f.repetition}${where} (${took}): the test JVM crashed${how ? ` (${how})` : ''}${hsErr}`;
}

/** The first failure as Java prints it, bounded: `type: message`, then the top frames and the test's own line (`location`). */
export function excerpt(f: RepetitionFailure, location: string | null = null): string {
  const message = f.message ?? '';
  const header = f.type !== null ? (message !== '' ? `${f.type}: ${message}` : f.type) : message;
  // AssertJ's messages start with a line break: the type stands alone, the message below it.
  const display = f.type !== null && /^\s*(\r\n?|\n)/.test(message) ? `${f.type}:\n${message.replace(/^(\s*(\r\n?|\n))+/, '')}` : header;
  const lines = bounded(display.replace(/(\r\n?|\n)\s*$/, ''), MESSAGE_LINES, MESSAGE_CHARS);
  // Java's trace opens with the same `type: message` (the message may span lines): the frames follow it.
  let trace = (f.stackTrace ?? '').replace(/\r\n?/g, '\n');
  const said = header.replace(/\r\n?/g, '\n');
  if (said !== '' && trace.startsWith(said)) trace = trace.slice(said.length);
  else if (f.type !== null && trace.startsWith(f.type)) trace = trace.slice(trace.indexOf('\n') + 1 || trace.length);
  const frames = trace.split('\n').filter((l) => l.trim() !== '');
  const shown = framesShown(frames, TRACE_LINES, location, (n) => `\t… ${n} ${n === 1 ? 'line' : 'lines'}`);
  lines.push(...shown.lines.map((l) => cut(l, LINE_CHARS)));
  if (shown.left > 0) lines.push(`\t… ${shown.left} more ${shown.left === 1 ? 'line' : 'lines'} on the run page`);
  if (lines.length === 0 && f.stderrTail) lines.push(...bounded(f.stderrTail.split(/\r\n?|\n/).slice(-TRACE_LINES).join('\n'), TRACE_LINES, MESSAGE_CHARS));
  return lines.length === 0 ? '(no message, no stack trace)' : lines.join('\n');
}

function bounded(text: string, maxLines: number, maxChars: number): string[] {
  if (text === '') return [];
  // Each line is cut before the whole: one long line (a JSON document) must not push out the
  // lines after it, such as "expected: <30> but was: <27>".
  const all = text.split(/\r\n?|\n/).map((l) => cut(l, LINE_CHARS));
  const lines = cut(all.slice(0, maxLines).join('\n'), maxChars).split('\n');
  if (all.length > maxLines) lines.push(`… ${all.length - maxLines} more ${all.length - maxLines === 1 ? 'line' : 'lines'}`);
  return lines;
}
