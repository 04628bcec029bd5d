// The one command that reruns a gate candidate without a server, as words and as one line to paste.
// Both sides build it with this module: the CLI for its report, the server for the run page and the
// run report from the stored test identity and the parts the CLI uploaded (never uploaded text).
// The orchestrator imports it as `#reproduce` (its build copies the compiled module). Pure, and
// self-contained: the copy has no neighbours to import.

/** The npm package the command runs. */
export const PACKAGE_NAME = '@stress-gate/orchestrator';
/** The command the package installs. */
export const BIN_NAME = 'stress-orchestrator';
/** Repetitions the printed command asks for: enough to see a 1-in-10 flake with 99% confidence. */
export const REPRODUCE_REPETITIONS = 50;

/**
 * How the CLI was started, and so how the author starts it again: `local`, installed in the
 * project (node_modules/.bin; `npx --no` runs that one and never installs), or `package`, anything
 * else (the npx cache, a global install, a checkout), run as the scoped package at its version.
 */
export type ReproduceLauncher = { kind: 'local' } | { kind: 'package'; version: string };

/** What the command is made of besides the test: how the CLI is started, the build tool, the build's arguments. */
export interface ReproduceParts {
  launcher: ReproduceLauncher;
  /** The build tool as the CLI's first words: `gradle`, `mvn`, `./mvnw` (with `--maven-executable <path>`). */
  tool: readonly string[];
  /** The build's arguments, passed after `--` so that none is read as the CLI's own option. */
  buildArgs: readonly string[];
  repetitions: number;
}

/** A test case's identity: module (`:` for the root), class, test name. */
export interface ReproduceIdentity {
  module: string;
  suite: string;
  name: string;
}

/** The words that start the CLI. */
export function launcherWords(launcher: ReproduceLauncher): string[] {
  return launcher.kind === 'local' ? ['npx', '--no', BIN_NAME] : ['npx', '-p', `${PACKAGE_NAME}@${launcher.version}`, BIN_NAME];
}

/** `<launcher> <tool…> --stress-tests <test> --repetitions N -- <build args…>`, as words. */
export function reproduceWords(parts: ReproduceParts, id: ReproduceIdentity): string[] {
  const build = parts.buildArgs.length > 0 ? ['--', ...parts.buildArgs] : [];
  return [...launcherWords(parts.launcher), ...parts.tool, '--stress-tests', selectorOf(id), '--repetitions', String(parts.repetitions), ...build];
}

/**
 * `<launcher> <tool…> --run-order <first> --run-order <second> -- <build args…>`: the order
 * probe's pair, run once in that order in one fresh JVM (`parts.repetitions` is not used).
 */
export function orderReproduceWords(parts: ReproduceParts, order: readonly ReproduceIdentity[]): string[] {
  const build = parts.buildArgs.length > 0 ? ['--', ...parts.buildArgs] : [];
  return [...launcherWords(parts.launcher), ...parts.tool, ...order.flatMap((id) => ['--run-order', selectorOf(id)]), ...build];
}

/** The order command as one line (see `reproduceCommand`). */
export function orderReproduceCommand(parts: ReproduceParts, order: readonly ReproduceIdentity[]): string {
  return orderReproduceWords(parts, order).map(shellWord).join(' ');
}

/** The command as one line that sh, bash, dash, zsh and fish all read back as `reproduceWords`. */
export function reproduceCommand(parts: ReproduceParts, id: ReproduceIdentity): string {
  return reproduceWords(parts, id).map(shellWord).join(' ');
}

/**
 * The selector (`--stress-tests`) that names exactly `id`: `[<module> ]<class>.<name>`, with `*` and
 * `\` escaped by `\`. A control character (a newline in a display name) or white space at either
 * end becomes `*`, which matches any run of characters: the command stays on one line, and the CLI's
 * trimming of the selector cannot change what it names.
 */
export function selectorOf(id: ReproduceIdentity): string {
  const escape = (s: string) => s.replaceAll('\\', '\\\\').replaceAll('*', '\\*');
  const text = `${id.module === ':' ? '' : `${id.module} `}${escape(id.suite)}.${escape(id.name)}`;
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, '*').replace(/^\s+|\s+$/g, '*');
}

/** Characters a word may hold unquoted in every one of the shells (no `%`: fish's `%self`; `=` not first: zsh's `=cmd`). */
const BARE = /^[A-Za-z0-9_/.:@+,-][A-Za-z0-9_/.:=@+,-]*$/;

/**
 * One word for sh, bash, dash, zsh and fish: bare when plainly safe, else single-quoted, with each
 * `'` and `\` written as `"'"` and `"\\"` outside the single quotes. fish reads `\\` and `\'` inside
 * single quotes as escapes (POSIX shells read nothing there); in double quotes every one of them
 * reads `\\` as one backslash and `'` as itself, and adjacent quoted parts make one word.
 */
export function shellWord(word: string): string {
  if (BARE.test(word)) return word;
  if (word === '') return "''";
  return word
    .split(/(['\\])/)
    .filter((part) => part !== '')
    .map((part) => (part === "'" ? `"'"` : part === '\\' ? '"\\\\"' : `'${part}'`))
    .join('');
}
