// Starts one repetition JVM (the adapter of the direct executor): its output to a log file, its
// environment exactly the Test task's, killed at once when `stop` aborts (ceiling or cancel).
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';

/** How one JVM ended: its exit code, or the reason it never started; `killed` when stopped by us. */
export interface JvmExit {
  exitCode: number | null;
  killed: boolean;
  startError: string | null;
}

/** What to start. */
export interface JvmLaunch {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string | null>;
  logFile: string;
  stop: AbortSignal;
}

/** Starts a JVM; never throws: a failed start is a value. */
export type JvmRunner = (launch: JvmLaunch) => Promise<JvmExit>;

/** The real runner (node:child_process; SIGKILL: a test JVM stopped by the gate has nothing to save). */
export const runJvm: JvmRunner = (launch) =>
  new Promise((resolve) => {
    if (launch.stop.aborted) return resolve({ exitCode: null, killed: true, startError: null });
    const fd = openSync(launch.logFile, 'a');
    const env = Object.fromEntries(Object.entries(launch.env).filter((e): e is [string, string] => e[1] !== null));
    const child = spawn(launch.file, launch.args, { cwd: launch.cwd, env, stdio: ['ignore', fd, fd] });
    let killed = false;
    const onStop = () => {
      killed = true;
      child.kill('SIGKILL');
    };
    launch.stop.addEventListener('abort', onStop, { once: true });
    let ended = false;
    const done = (exit: JvmExit) => {
      if (ended) return;
      ended = true;
      launch.stop.removeEventListener('abort', onStop);
      closeSync(fd);
      resolve(exit);
    };
    child.once('error', (e) => done({ exitCode: null, killed, startError: e.message }));
    child.once('exit', (code) => done({ exitCode: code, killed, startError: null }));
  });
