// What one repetition JVM left: for each candidate it ran, a recorded repetition (a result, or a
// failure when the JVM died under it), or why the runner could not run it, in the runner's own
// words (the engines it saw, the class it could not load) or from how the JVM ended.
import { open, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FailureDetail, RecordedRepetition } from '../repetitions/stress-pass-result.js';
import type { JvmExit } from './launch-jvm.js';
import { parseRunnerLog, type JvmFacts, type RunnerLog, type RunnerPhases } from './runner-log.js';
import { selects, selectorText, type TargetMember } from './stress-target.js';

/** The files of one repetition JVM. */
export interface RepetitionFiles {
  dir: string;
  request: string;
  results: string;
  stdout: string;
  stderr: string;
}

/** What one candidate of the JVM got. */
export type MemberReading =
  | { kind: 'recorded'; repetition: RecordedRepetition }
  /** It ran and was skipped (an assumption failed, or ignored): absent, like a missing result. */
  | { kind: 'skipped' }
  /** The gate stopped the JVM (ceiling, cancellation, a stopped pass): not the test's doing. */
  | { kind: 'killed' }
  /** It did not run, and why (`cause` never names the test: the same cause in several candidates is one cause). */
  | { kind: 'unrunnable'; cause: string };

/** What one JVM left. */
export interface JvmReading {
  members: MemberReading[];
  /** The runner's description of its own JVM, when it wrote one. */
  facts: JvmFacts | null;
  /** When its main began, its tests were discovered and finished, when it said. */
  phases: RunnerPhases | null;
}

/** The most bytes of a JVM's output read back for its tail. */
const TAIL_BYTES = 16 * 1024;

/** Reads what the JVM of repetition `k` left for each of `members`. */
export async function readRepetition(members: readonly TargetMember[], k: number, files: RepetitionFiles, exit: JvmExit, java: string): Promise<JvmReading> {
  const log = parseRunnerLog(await readFile(files.results, 'utf8').catch(() => ''), files.results);
  const readings: MemberReading[] = [];
  let output: Pick<FailureDetail, 'stdoutTail' | 'stderrTail'> | undefined;
  const outputOnce = async () => (output ??= { stdoutTail: await tail(files.stdout), stderrTail: await tail(files.stderr) });
  for (const m of members) {
    const mine = log.finished.filter((r) => selects(m.selection, r))[m.occurrence - 1];
    if (mine) {
      if (mine.status === 'skipped') {
        readings.push({ kind: 'skipped' });
        continue;
      }
      const repetition: RecordedRepetition = { repetition: k, status: mine.status, durationMs: mine.durationMs };
      if (mine.status === 'failure') {
        repetition.failure = { kind: 'failure', type: mine.failure?.type ?? null, message: mine.failure?.message ?? null, trace: mine.failure?.trace ?? null, ...(await outputOnce()), exitCode: null, signal: null, hsErrFile: null };
      }
      readings.push({ kind: 'recorded', repetition });
    } else if (exit.killed) {
      readings.push({ kind: 'killed' });
    } else if (log.started.some((s) => selects(m.selection, s))) {
      // It started and never finished: its JVM died under it (System.exit, an OOM kill, a crash).
      const failure: FailureDetail = { kind: 'crash', type: null, message: null, trace: null, ...(await outputOnce()), exitCode: exit.exitCode, signal: exit.signal, hsErrFile: await hsErrFile(files.dir, exit.pid) };
      readings.push({ kind: 'recorded', repetition: { repetition: k, status: 'failure', durationMs: 0, crashed: true, failure } });
    } else {
      readings.push({ kind: 'unrunnable', cause: await causeOf(m, log, exit, files, java) });
    }
  }
  return { members: readings, facts: log.jvm, phases: log.phases };
}

/** Why a candidate did not run: the runner's words when it said, else how its JVM ended. */
async function causeOf(m: TargetMember, log: RunnerLog, exit: JvmExit, files: RepetitionFiles, java: string): Promise<string> {
  const said = log.unrunnable.find((u) => u.selector === selectorText(m.selection)) ?? log.unrunnable.find((u) => u.selector === null);
  if (said) return said.cause;
  if (exit.startError) return `${java} could not be started: ${exit.startError}`;
  if (log.started.length || log.finished.length) return 'the runner ran other tests of its JVM but not this one';
  const how = exit.signal ? `signal ${exit.signal}` : `code ${exit.exitCode}`;
  const line = await firstErrorLine(files.stderr);
  if (exit.exitCode === 0 && !exit.signal) return `the runner found no such test and said nothing of why${line ? ` (stderr: ${line})` : ''}`;
  return `the JVM exited with ${how} before the test ran${line ? `: ${line}` : ''}`;
}

/** The first line of a JVM's stderr that says what went wrong (the JVM's own "Error: …", an exception), bounded. */
async function firstErrorLine(file: string): Promise<string | null> {
  const text = (await tail(file)) ?? '';
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('WARNING:') && !l.startsWith('Picked up '));
  const line = lines.find((l) => /error|exception|unrecognized|could not|cannot/i.test(l)) ?? lines[0];
  return line ? (line.length > 300 ? `${line.slice(0, 300)}…` : line) : null;
}

/** The last TAIL_BYTES of a file, from a line start when it was cut; null when empty or absent. */
export async function tail(file: string): Promise<string | null> {
  const handle = await open(file, 'r').catch(() => null);
  if (!handle) return null;
  try {
    const size = (await handle.stat()).size;
    if (size === 0) return null;
    const length = Math.min(size, TAIL_BYTES);
    const buf = Buffer.alloc(length);
    await handle.read(buf, 0, length, size - length);
    const text = buf.toString('utf8');
    return size > length ? text.slice(text.indexOf('\n') + 1) : text;
  } finally {
    await handle.close();
  }
}

async function hsErrFile(dir: string, pid: number | null): Promise<string | null> {
  if (pid === null) return null;
  const file = path.join(dir, `hs_err_pid${pid}.log`);
  return (await stat(file).catch(() => null)) ? file : null;
}
