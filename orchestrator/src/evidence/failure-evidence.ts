// Pure: why a candidate failed, as the author reads it and the verdict API stores it: each failed
// repetition (the exception's type and message, the trace trimmed to the test's own frames, the
// JVM's output tail; for a JVM that died, its exit code or signal and its hs_err file), and the
// failures grouped by signature ("3 failed, 2 distinct"). Every field is cut to FAILURE_BOUNDS and
// says so (truncated); failures and groups beyond their bounds are counted, never dropped silently.
import { FAILURE_BOUNDS, type FailureGroup, type RepetitionFailure } from '#contract';
import { cut, framesShown } from '#markdown';
import { plural } from '../format/format.js';
import type { RecordedRepetition } from '../repetitions/stress-pass-result.js';
import { trimTrace } from './trim-trace.js';

/** What a failed candidate carries. */
export interface CandidateEvidence {
  failures: RepetitionFailure[];
  groups: FailureGroup[];
  /** Failed repetitions left out by the bound (FAILURE_BOUNDS.failuresPerCase). */
  failuresOmitted: number;
  /** Groups left out by the bound (FAILURE_BOUNDS.groupsPerCase). */
  groupsOmitted: number;
}

/** The last lines of an output tail kept per failure. */
const TAIL_LINES = 40;
/** Characters a line of a message or trace keeps when the whole is over its bound. */
const LONG_LINE = 1000;

/** The evidence of one candidate's repetitions (none when nothing failed). */
export function failureEvidence(suite: string, recorded: readonly RecordedRepetition[]): CandidateEvidence | null {
  const failed = recorded.filter((r) => r.status === 'failure');
  if (failed.length === 0) return null;
  const all = failed.map((r) => oneFailure(suite, r));
  const byKey = new Map<string, FailureGroup>();
  for (const f of all) {
    const g = byKey.get(f.signature) ?? { signature: f.signature, type: f.failure.type, location: f.location, count: 0, repetitions: [] };
    g.count++;
    g.repetitions.push(f.failure.repetition);
    byKey.set(f.signature, g);
  }
  const groups = [...byKey.values()].sort((a, b) => b.count - a.count || a.repetitions[0]! - b.repetitions[0]!);
  return {
    failures: all.slice(0, FAILURE_BOUNDS.failuresPerCase).map((f) => f.failure),
    groups: groups.slice(0, FAILURE_BOUNDS.groupsPerCase),
    failuresOmitted: Math.max(0, all.length - FAILURE_BOUNDS.failuresPerCase),
    groupsOmitted: Math.max(0, groups.length - FAILURE_BOUNDS.groupsPerCase),
  };
}

function oneFailure(suite: string, r: RecordedRepetition): { failure: RepetitionFailure; signature: string; location: string | null } {
  const d = r.failure;
  let truncated = false;
  const bound = (s: string | null | undefined, max: number, nonEmpty = false): string | null => {
    if (s === null || s === undefined) return null;
    const whole = s.toWellFormed();
    if (nonEmpty && whole === '') return null;
    if (whole.length > max) truncated = true;
    return cut(whole, max);
  };
  // One long line (a whole JSON document in a message) must not push out the lines after it:
  // "expected: <30> but was: <27>" is often the second line.
  const boundLines = (s: string | null | undefined, max: number): string | null => {
    if (!s || s.length <= max) return bound(s, max);
    truncated = true;
    return bound(s.replace(new RegExp(`[^\\r\\n]{${LONG_LINE + 1},}`, 'g'), (line) => cut(line, LONG_LINE)), max);
  };
  const tail = (s: string | null | undefined): string | null => {
    const t = lastLines(s);
    if (t?.cut) truncated = true;
    return t ? bound(t.text, FAILURE_BOUNDS.outputTail) : null;
  };
  const trimmed = d?.trace ? trimTrace(d.trace, suite) : null;
  const crash = d?.kind === 'crash' || r.crashed === true;
  const type = bound(d?.type, FAILURE_BOUNDS.type, true);
  const frame = trimmed?.testFrame ?? null;
  const location = frame ? (/\(([^()]*:\d+)\)$/.exec(frame)?.[1] ?? null) : null;
  const signature = crash
    ? `JVM crash (${d?.signal ?? (d?.exitCode !== null && d?.exitCode !== undefined ? `exit code ${d.exitCode}` : 'no result')})`
    : type || frame ? `${type ?? 'a failure'}${frame ? ` at ${frame}` : ''}` : 'a failure with no details recorded';
  const failure: RepetitionFailure = {
    repetition: r.repetition,
    kind: crash ? 'crash' : 'failure',
    type,
    message: boundLines(d?.message, FAILURE_BOUNDS.message),
    stackTrace: boundLines(trimmed?.trace, FAILURE_BOUNDS.stackTrace),
    framesOmitted: trimmed?.framesOmitted ?? 0,
    stdoutTail: tail(d?.stdoutTail),
    stderrTail: tail(d?.stderrTail),
    durationMs: r.durationMs,
    exitCode: crash && d?.exitCode !== null && d?.exitCode !== undefined ? Math.max(-1000, Math.min(1000, d.exitCode)) : null,
    signal: crash ? bound(d?.signal, FAILURE_BOUNDS.signal, true) : null,
    hsErrFile: crash ? bound(d?.hsErrFile, FAILURE_BOUNDS.hsErrFile, true) : null,
    truncated: false,
  };
  failure.truncated = truncated;
  return { failure, signature: cut(signature.toWellFormed(), FAILURE_BOUNDS.signature), location: location ? cut(location, FAILURE_BOUNDS.location) : null };
}

/** The last TAIL_LINES lines within the bound, cut from the start (a tail keeps its latest lines, closest to the failure). */
function lastLines(s: string | null | undefined): { text: string; cut: boolean } | null {
  if (!s) return null;
  const lines = s.toWellFormed().replace(/\n$/, '').split('\n');
  const kept = lines.slice(-TAIL_LINES).join('\n');
  if (lines.length <= TAIL_LINES && kept.length <= FAILURE_BOUNDS.outputTail) return { text: kept, cut: false };
  let from = Math.max(0, kept.length - FAILURE_BOUNDS.outputTail + 1);
  // A low surrogate at the cut would leave half a character: start after it.
  if (/[\udc00-\udfff]/.test(kept[from] ?? '')) from++;
  return { text: `…${kept.slice(from)}`, cut: true };
}

/** "3 failed, 2 distinct: AssertionError at CheckoutTest.java:42 (2x), JVM crash (exit code 3) (1x)". */
export function groupsLine(e: CandidateEvidence, failed: number): string {
  const simple = (g: FailureGroup) => (g.location ? `${(g.type ?? 'failure').slice((g.type ?? '').lastIndexOf('.') + 1)} at ${g.location}` : g.signature);
  const distinct = e.groups.length + e.groupsOmitted;
  if (distinct === 1) return failed === 1 ? `1 failed: ${simple(e.groups[0]!)}` : `${failed} failed, all alike: ${simple(e.groups[0]!)}`;
  const list = e.groups.map((g) => `${simple(g)} (${g.count}x)`).join(', ');
  const more = e.groupsOmitted ? `, and ${e.groupsOmitted} more` : '';
  return `${failed} failed, ${distinct} distinct: ${list}${more}`;
}

/** Top frames of the first failure shown in the report (the JSON report and the run page have them all). */
const SHOWN_FRAMES = 5;
/** Lines of a crashed JVM's last output shown in the report. */
const OUTPUT_LINES = 5;
/** Lines of a message shown in the report: enough for AssertJ's "expecting … to contain … but could not find …". */
const MESSAGE_LINES = 12;
/** Characters of a message line shown in the report. */
const MESSAGE_LINE_CHARS = 200;

/**
 * The first failure as the report shows it (plain text, from the test: the caller renders it
 * safely): the exception and its message, then its top frames and the test's own line
 * (`location`, its group's); for a JVM that died, how it ended, its hs_err file and its last
 * output lines.
 */
export function firstFailureText(f: RepetitionFailure, location: string | null = null): string {
  const lines: string[] = [];
  if (f.kind === 'crash') {
    lines.push(f.signal ? `its JVM was killed by ${f.signal}` : f.exitCode !== null ? `its JVM exited with code ${f.exitCode}` : 'its JVM died');
    lines.push(f.hsErrFile ? `the JVM wrote ${f.hsErrFile}` : 'no hs_err_pid*.log was written');
    const out = (f.stderrTail ?? f.stdoutTail ?? '').replace(/\n$/, '');
    if (out) lines.push('last output:', ...out.split('\n').slice(-OUTPUT_LINES).map((l) => `  ${l}`));
    return lines.join('\n');
  }
  const message = messageLines(f.message ?? '');
  // AssertJ's messages start with a line break: the type stands alone, the message below it.
  const inline = message.length > 0 && !/^\s*(\r\n?|\n)/.test(f.message!);
  lines.push(`${f.type ?? 'failure'}${inline ? `: ${message[0]}` : message.length > 0 ? ':' : ''}`, ...message.slice(inline ? 1 : 0));
  const frames = (f.stackTrace ?? '').split('\n').filter((l) => /^\s+at /.test(l)).map((l) => `    ${l.trim()}`);
  const shown = framesShown(frames, SHOWN_FRAMES, location, (n) => `    … ${plural(n, 'frame')}`);
  lines.push(...shown.lines);
  const more = shown.left + f.framesOmitted;
  if (more > 0) lines.push(`    … ${plural(more, 'more frame')}`);
  return lines.join('\n');
}

/** A message's lines as the report shows them: blank ones around it dropped, each cut to a width, at most MESSAGE_LINES. */
function messageLines(message: string): string[] {
  const all = message.replace(/^(\s*(\r\n?|\n))+|(\r\n?|\n)\s*$/g, '').split(/\r\n?|\n/);
  if (all.length === 1 && all[0] === '') return [];
  const shown = all.slice(0, MESSAGE_LINES).map((l) => cut(l, MESSAGE_LINE_CHARS));
  if (all.length > MESSAGE_LINES) shown.push(`… ${plural(all.length - MESSAGE_LINES, 'more line')} of the message`);
  return shown;
}
