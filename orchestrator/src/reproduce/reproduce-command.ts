// Pure: the one command that reruns a candidate the way the gate did, without a server: the same
// build tool and build arguments, then `--stress-tests <the test> --repetitions N`, quoted for a
// POSIX shell so that it can be pasted as printed.
import type { TestCaseIdentity } from '#contract';
import { selectorOf } from './test-selector.js';

/** Repetitions the printed command asks for: enough to see a 1-in-10 flake with 99% confidence. */
export const REPRODUCE_REPETITIONS = 50;

/** `npx stress-orchestrator <tool…> <build args…> --stress-tests '<test>' --repetitions 50`. */
export function reproduceCommand(tool: readonly string[], buildArgs: readonly string[], id: TestCaseIdentity, repetitions = REPRODUCE_REPETITIONS): string {
  return ['npx', 'stress-orchestrator', ...tool, ...buildArgs, '--stress-tests', selectorOf(id), '--repetitions', String(repetitions)].map(shellQuote).join(' ');
}

/** One word for a POSIX shell: bare when it is plainly safe, else single-quoted. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_/.:=@%+,-]+$/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
