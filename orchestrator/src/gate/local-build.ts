// What the local commands (`--stress-tests`, `--run-order`) share: no server and no quarantine, the
// user's build run as given (the first pass) and read, then the command's own work, then the build
// adapter settled and its temp dir removed. A first pass that cannot be read, or a cancelled run,
// ends the command with its exit code.
import { rm } from 'node:fs/promises';
import type { ToolFlags } from '../args/parse-args.js';
import { resolveConfig, type Config } from '../config/config.js';
import { booleanEnv } from '../config/environment.js';
import type { FirstPass } from '../first-pass/first-pass.js';
import type { BuildAdapter } from './build-adapter.js';
import { cancelled, exitCodeForSignal } from './cancellation.js';
import type { GateDeps } from './gate-deps.js';

/** Exit code when a named test could not be stressed or run (the gate's own trouble, as the report says). */
export const NOT_STRESSED_EXIT_CODE = 70;

/** Runs the build, then `then` with its first pass; returns `then`'s exit code, or the run's when it cannot go on. */
export async function withLocalBuild(
  flags: ToolFlags,
  buildArgs: readonly string[],
  deps: GateDeps,
  then: (first: FirstPass, build: BuildAdapter, config: Config) => Promise<number>,
): Promise<number> {
  const config = resolveConfig({ ...flags, mode: 'off' }, { ...deps.env, STRESS_NEW_TESTS: '' }, null, deps.cwd, deps.build);
  const build = await deps.build.prepare(deps, config.projectDir);
  try {
    const first = await build.firstPass(buildArgs, { isMuted: () => false, isSkipped: () => false, skippedTests: [], now: deps.now, ...(deps.signal ? { signal: deps.signal } : {}) });
    for (const note of first.notes) deps.err(`stress-gate: note: ${note}\n`);
    const signal = cancelled(deps.signal);
    if (signal) return exitCodeForSignal(signal);
    const trouble = first.readProblem ?? (first.settings ? first.errors[0] : (first.unreported ?? 'the build tool did not report the build'));
    if (trouble) {
      deps.err(`stress-orchestrator: the build's test results cannot be read: ${trouble}\n`);
      return NOT_STRESSED_EXIT_CODE;
    }
    return await then(first, build, config);
  } finally {
    await build.settle?.();
    if (!booleanEnv(deps.env, 'STRESS_GATE_KEEP_TEMP')) await rm(build.workDir, { recursive: true, force: true }).catch(() => undefined);
  }
}
