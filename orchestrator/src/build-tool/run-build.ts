// Runs a build tool (Gradle or Maven) through execa. Failure is a value (exit code), never a throw,
// except when the tool cannot be started at all.
import { createWriteStream, mkdirSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import path from 'node:path';
import { execa } from 'execa';
import { BuildNotRunnableError } from '../base/errors.js';
import type { Logger } from '../base/log.js';

/** How one Gradle invocation ended. */
export interface BuildRun {
  exitCode: number;
  /** The ceiling timer interrupted the build. */
  interrupted: boolean;
  /** The run was cancelled (the options' signal aborted) and Gradle was told to stop. */
  cancelled?: boolean;
  wallClockMs: number;
}

/** How to run one Gradle invocation. */
export interface BuildRunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /**
   * Where Gradle's output goes: the user's terminal (first pass), or a log file (stress pass:
   * its output is ours, not the user's build, and would bury the report).
   */
  output: 'inherit' | { logFile: string };
  /** Interrupt the build after this many ms (the ceiling). */
  deadlineMs?: number;
  /** Grace after SIGINT before SIGTERM, and after SIGTERM before SIGKILL. */
  graceMs?: number;
  logger: Logger;
  /** Cancels the build like Ctrl-C (SIGINT, then SIGTERM and SIGKILL after the grace) when aborted. */
  signal?: AbortSignal;
}

/** Runs `executable args…`. */
export type BuildRunner = (executable: string, args: string[], options: BuildRunOptions) => Promise<BuildRun>;

/** The real runner. */
export const runBuild: BuildRunner = async (executable, args, options) => {
  const log = options.logger.child({ module: 'run-gradle' });
  const started = Date.now();
  log.debug({ executable, args }, 'gradle');
  const toLog = options.output !== 'inherit';
  const child = execa(executable, args, {
    cwd: options.cwd,
    env: options.env,
    extendEnv: false,
    reject: false,
    stdio: toLog ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    all: toLog,
    buffer: false,
    forceKillAfterDelay: false,
  });
  let logWritten: Promise<void> = Promise.resolve();
  if (options.output !== 'inherit' && child.all) {
    mkdirSync(path.dirname(options.output.logFile), { recursive: true });
    const log = createWriteStream(options.output.logFile);
    child.all.pipe(log);
    logWritten = finished(log);
  }
  let interrupted = false;
  let cancelled = false;
  let stopping = false;
  const timers: NodeJS.Timeout[] = [];
  const grace = options.graceMs ?? 15_000;
  // SIGINT to the Gradle client makes the daemon cancel the build (like Ctrl-C); the test JVM is
  // stopped and the XML written so far stays. Escalate if it does not exit.
  const stop = () => {
    if (stopping) return;
    stopping = true;
    child.kill('SIGINT');
    timers.push(setTimeout(() => child.kill('SIGTERM'), grace));
    timers.push(setTimeout(() => child.kill('SIGKILL'), grace * 2));
  };
  if (options.deadlineMs !== undefined) {
    timers.push(
      setTimeout(() => {
        interrupted = true;
        log.info({ deadlineMs: options.deadlineMs }, 'ceiling reached: interrupting gradle');
        stop();
      }, options.deadlineMs),
    );
  }
  const onAbort = () => {
    cancelled = true;
    log.info('cancelled: stopping gradle');
    stop();
  };
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  const result = await child;
  options.signal?.removeEventListener('abort', onAbort);
  for (const t of timers) clearTimeout(t);
  await logWritten;
  if (result.failed && result.exitCode === undefined && !result.isTerminated) {
    throw new BuildNotRunnableError(`could not run ${executable}: ${result.shortMessage ?? result.message}`);
  }
  const exitCode = result.exitCode ?? (result.isTerminated ? 130 : 1);
  log.debug({ exitCode, ms: Date.now() - started }, 'gradle finished');
  return { exitCode, interrupted: interrupted && !cancelled, cancelled, wallClockMs: Date.now() - started };
};
