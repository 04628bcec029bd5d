// Starts one repetition JVM (the adapter of the direct executor): its standard output and error to
// files of its own, its environment exactly the build's test JVM's, killed at once when `stop`
// aborts (ceiling or cancellation: a test JVM stopped by the gate has nothing to save). Standard
// input is at its end, as Gradle's test worker has it: a test that reads System.in gets end of
// input at once instead of waiting for the ceiling (Surefire's fork uses its standard input as the
// booter's command channel, which a test that passed cannot have been reading).
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import type { JvmCommand } from './runner-request.js';

/** How one JVM ended: its exit code or signal, or why it never started; `killed` when stopped by the gate. */
export interface JvmExit {
  exitCode: number | null;
  signal: string | null;
  killed: boolean;
  startError: string | null;
  pid: number | null;
}

/** Where its output goes. */
export interface JvmOutput {
  stdout: string;
  stderr: string;
}

/** A started JVM. */
export interface StartedJvm {
  done: Promise<JvmExit>;
}

/** Starts a JVM; never throws: a failed start is a value. */
export type JvmLauncher = (cmd: JvmCommand, output: JvmOutput, stop: AbortSignal) => StartedJvm;

/** The real launcher (node:child_process). */
export const launchJvm: JvmLauncher = (cmd, output, stop) => {
  if (stop.aborted) return { done: Promise.resolve({ exitCode: null, signal: null, killed: true, startError: null, pid: null }) };
  const out = openSync(output.stdout, 'a');
  const err = openSync(output.stderr, 'a');
  const env = Object.fromEntries(Object.entries(cmd.env).filter((e): e is [string, string] => e[1] !== null));
  const child = spawn(cmd.file, cmd.args, { cwd: cmd.cwd, env, stdio: ['ignore', out, err] });
  let killed = false;
  const onStop = () => {
    killed = true;
    child.kill('SIGKILL');
  };
  stop.addEventListener('abort', onStop, { once: true });
  const done = new Promise<JvmExit>((resolve) => {
    let ended = false;
    const end = (exit: Omit<JvmExit, 'killed' | 'pid'>) => {
      if (ended) return;
      ended = true;
      stop.removeEventListener('abort', onStop);
      closeSync(out);
      closeSync(err);
      resolve({ ...exit, killed, pid: child.pid ?? null });
    };
    child.once('error', (e) => end({ exitCode: null, signal: null, startError: e.message }));
    child.once('exit', (code, signal) => end({ exitCode: code, signal, startError: null }));
  });
  return { done };
};
