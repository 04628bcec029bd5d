// The one command that reruns a candidate the way the gate did, without a server: the CLI started
// as this one was (launcher.ts), the same build tool, `--stress-tests <the test> --repetitions N`,
// then `--` and the build's arguments, quoted so that sh, bash, dash, zsh and fish read it back
// word for word. The words and the quoting are the verdict API's (`#reproduce`), so the run page
// shows the same command, built by the server from these parts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REPRODUCE_REPETITIONS, reproduceCommand, type ReproduceLauncher } from '#reproduce';
import type { ReproduceParts, TestCaseIdentity } from '#contract';
import { packageRoot } from '../base/package-root.js';
import { launcherOf } from './launcher.js';

export { REPRODUCE_REPETITIONS, shellWord } from '#reproduce';

/** The command to print and the parts to upload. */
export interface Reproduction {
  reproduce: string;
  reproduceParts: ReproduceParts;
}

let version: string | undefined;

/** How this process was started, as seen from `projectDir`. */
export function currentLauncher(projectDir: string): ReproduceLauncher {
  const root = packageRoot();
  version ??= (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
  return launcherOf(root, projectDir, version);
}

/** The reproduce command of `id` and its parts. */
export function reproduction(
  tool: readonly string[],
  buildArgs: readonly string[],
  id: TestCaseIdentity,
  repetitions = REPRODUCE_REPETITIONS,
  launcher: ReproduceLauncher = currentLauncher(process.cwd()),
): Reproduction {
  const reproduceParts: ReproduceParts = { launcher, tool: [...tool], buildArgs: [...buildArgs], repetitions };
  return { reproduce: reproduceCommand(reproduceParts, id), reproduceParts };
}
