// The order probe's JVMs: each sequence is one fresh JVM, started as its target's JVM (the build's
// test JVM, jvm/stress-target.ts), whose runner runs each step on its own, in order, a repeated
// test again (`order sequence`, Request.java), up to `concurrency` JVMs at a time, within a
// deadline. What each step did is read back from the step lines of the results.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import type { SequenceRun, SequencesOutcome, StepResult } from '../repetitions/sequence-run.js';
import type { FailureDetail } from '../repetitions/stress-pass-result.js';
import type { JvmExit, JvmLauncher } from './launch-jvm.js';
import { tail } from './read-repetition.js';
import { parseRunnerLog, type RunnerLog } from './runner-log.js';
import { errorFileArgs, jvmCommand, requestText } from './runner-request.js';
import { selects, selectorText, type JvmSpec, type Selection } from './stress-target.js';

/** One JVM of the probe: its steps in order, and how it starts. */
export interface Sequence {
  steps: Selection[];
  jvm: JvmSpec;
  configurationParameters: Record<string, string>;
  /** The folder of its files, under the run's output dir (a readable name). */
  folder: string;
}

export interface SequencesInput {
  sequences: readonly Sequence[];
  runnerJar: string;
  outputDir: string;
  concurrency: number;
  /** From the round's start; null: none. */
  deadlineMs: number | null;
  launch: JvmLauncher;
  signal?: AbortSignal | undefined;
}

/** Runs every sequence; never throws for a JVM's trouble (its steps did not run, with why). */
export async function runSequences(input: SequencesInput): Promise<SequencesOutcome> {
  const started = Date.now();
  const stop = new AbortController();
  let cut = false;
  let cancelled = false;
  let jvms = 0;
  const timer = input.deadlineMs === null ? undefined : setTimeout(() => {
    cut = !cancelled;
    stop.abort();
  }, Math.max(0, input.deadlineMs));
  const onAbort = () => {
    cancelled = true;
    stop.abort();
  };
  if (input.signal?.aborted) onAbort();
  else input.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const limit = pLimit(Math.max(1, input.concurrency));
    const runs = await Promise.all(
      input.sequences.map((s) =>
        limit(async (): Promise<SequenceRun> => {
          const dir = path.join(input.outputDir, s.folder);
          if (stop.signal.aborted) return { dir, steps: s.steps.map(() => ({ status: 'not_run', why: 'the probe stopped before this JVM started', killed: true })) };
          jvms++;
          return runOne(s, dir, input, stop.signal);
        }),
      ),
    );
    return { runs, cut, cancelled, jvms, wallClockMs: Date.now() - started };
  } finally {
    clearTimeout(timer);
    input.signal?.removeEventListener('abort', onAbort);
  }
}

async function runOne(s: Sequence, dir: string, input: SequencesInput, stop: AbortSignal): Promise<SequenceRun> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const files = { request: path.join(dir, 'request.txt'), results: path.join(dir, 'results.jsonl'), stdout: path.join(dir, 'stdout.log'), stderr: path.join(dir, 'stderr.log') };
  await writeFile(files.request, requestText({ selections: s.steps, configurationParameters: s.configurationParameters, systemProperties: s.jvm.systemProperties, sequence: true }, files.results));
  const errorFile = errorFileArgs(s.jvm.jvmArgs, dir, path.join);
  const exit = await input.launch(jvmCommand(s.jvm, input.runnerJar, files.request, errorFile, path.delimiter), files, stop).done;
  const text = await readFile(files.results, 'utf8').catch(() => '');
  const output = { stdoutTail: await tail(files.stdout), stderrTail: await tail(files.stderr) };
  return { dir, steps: readSteps(s.steps, text, files.results, exit, output) };
}

/** Pure: each step's result from the results text (split at its step lines) and how the JVM ended. */
export function readSteps(steps: readonly Selection[], text: string, file: string, exit: JvmExit, output: Pick<FailureDetail, 'stdoutTail' | 'stderrTail'>): StepResult[] {
  const chunks: string[][] = steps.map(() => []);
  const head: string[] = [];
  let at = -1;
  for (const line of text.split('\n')) {
    const step = /^\{"event":"step","index":(\d+)\}$/.exec(line.trim());
    if (step) at = Number(step[1]);
    else (at >= 0 && at < chunks.length ? chunks[at]! : head).push(line);
  }
  const before = parseRunnerLog(head.join('\n'), file);
  // The last step that began: a JVM that died took that step with it.
  const last = chunks.reduce((n, c, i) => (c.length ? i : n), at);
  return steps.map((selection, i) => {
    const log = parseRunnerLog(chunks[i]!.join('\n'), file);
    const mine = log.finished.find((r) => selects(selection, r));
    if (mine?.status === 'skipped') return { status: 'skipped' };
    if (mine?.status === 'success') return { status: 'success', durationMs: mine.durationMs };
    if (mine) {
      const f = mine.failure;
      return { status: 'failure', durationMs: mine.durationMs, failure: { kind: 'failure', type: f?.type ?? null, message: f?.message ?? null, trace: f?.trace ?? null, ...output, exitCode: null, signal: null, hsErrFile: null } };
    }
    if (exit.killed) return { status: 'not_run', why: 'the gate stopped its JVM (the probe\'s budget or the ceiling)', killed: true };
    if (i === last && log.started.some((t) => selects(selection, t))) {
      return { status: 'failure', durationMs: 0, failure: { kind: 'crash', type: null, message: null, trace: null, ...output, exitCode: exit.exitCode, signal: exit.signal, hsErrFile: null } };
    }
    return { status: 'not_run', why: whyNotRun(selection, log, before, exit), killed: false };
  });
}

function whyNotRun(selection: Selection, log: RunnerLog, before: RunnerLog, exit: JvmExit): string {
  const said = log.unrunnable.find((u) => u.selector === selectorText(selection)) ?? [...log.unrunnable, ...before.unrunnable].find((u) => u.selector === null);
  if (said) return said.cause;
  if (exit.startError) return `the JVM could not be started: ${exit.startError}`;
  return `the JVM ended (${exit.signal ? `signal ${exit.signal}` : `code ${exit.exitCode}`}) before this step`;
}
