// Runs a build tool (Gradle or Maven) through execa. Failure is a value (exit code), never a throw,
// except when the tool cannot be started at all.
import { createWriteStream, mkdirSync } from 'node:fs';
import { finished } from 'node:stream/promises';
import path from 'node:path';
import { execa } from 'execa';
import { BuildNotRunnableError } from '../base/errors.js';
import type { Logger } from '../base/log.js';

/** How one build tool invocation ended. */
export interface BuildRun {
  exitCode: number;
  /** The ceiling timer interrupted the build. */
  interrupted: boolean;
  /** The run was cancelled (the options' signal aborted) and the build tool was told to stop. */
  cancelled?: boolean;
  wallClockMs: number;
}

/** How to run one build tool invocation. */
export interface BuildRunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /**
   * Where the build's output goes: the user's terminal (first pass), or a log file (stress pass:
   * its output is ours, not the user's build, and would bury the report).
   */
  output: 'inherit' | { logFile: string };
  /** Interrupt the build after this many ms (the ceiling). */
  deadlineMs?: number;
  /** The build is killed when it has not exited this long twice over after SIGINT. */
  graceMs?: number;
  logger: Logger;
  /** Cancels the build like Ctrl-C (SIGINT, then SIGKILL after twice the grace) when aborted. */
  signal?: AbortSignal;
}

/** Runs `executable args…`. */
export type BuildRunner = (executable: string, args: string[], options: BuildRunOptions) => Promise<BuildRun>;

/** The real runner. */
export const runBuild: BuildRunner = async (executable, args, options) => {
  const log = options.logger.child({ module: 'run-build' });
  const started = Date.now();
  log.debug({ executable, args }, 'build');
  const toLog = options.output !== 'inherit';
  const grace = options.graceMs ?? 15_000;
  // The ceiling (execa's timeout) and a cancelled CI job (its cancelSignal) stop the build the way
  // Ctrl-C does: SIGINT to the Gradle client makes the daemon cancel the build, the test JVM stops
  // and the XML written so far stays; Maven runs its shutdown hooks. A build that has not exited
  // after twice the grace is killed (execa's forceKillAfterDelay).
  const child = execa(executable, args, {
    cwd: options.cwd,
    env: options.env,
    extendEnv: false,
    reject: false,
    stdio: toLog ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    all: toLog,
    buffer: false,
    killSignal: 'SIGINT',
    forceKillAfterDelay: grace * 2,
    ...(options.deadlineMs !== undefined ? { timeout: options.deadlineMs } : {}),
    ...(options.signal ? { cancelSignal: options.signal } : {}),
  });
  let logWritten: Promise<void> = Promise.resolve();
  if (options.output !== 'inherit' && child.all) {
    mkdirSync(path.dirname(options.output.logFile), { recursive: true });
    const log = createWriteStream(options.output.logFile);
    child.all.pipe(log);
    logWritten = finished(log);
  }
  const result = await child;
  await logWritten;
  if (result.timedOut) log.info({ deadlineMs: options.deadlineMs }, 'ceiling reached: the build was interrupted');
  if (result.isCanceled) log.info('cancelled: the build was stopped');
  if (result.failed && result.exitCode === undefined && !result.isTerminated) {
    throw new BuildNotRunnableError(`could not run ${executable}: ${result.shortMessage ?? result.message}`);
  }
  const exitCode = result.exitCode ?? (result.isTerminated ? 130 : 1);
  log.debug({ exitCode, ms: Date.now() - started }, 'build finished');
  return { exitCode, interrupted: result.timedOut && !result.isCanceled, cancelled: result.isCanceled, wallClockMs: Date.now() - started };
};
