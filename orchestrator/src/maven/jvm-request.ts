// What one stress repetition's JVM runs: the java command line that reproduces a Surefire fork
// (its JVM, argLine, classpath, working directory, environment) and the runner's request file
// (system properties, JUnit configuration parameters, the unique IDs to select). Pure.
import path from 'node:path';
import type { ForkConfig } from './fork-log.js';

/** The runner's main class, in the listener jar. */
export const RUNNER_MAIN = 'dev.stressgate.junit.StressRunner';

// Properties the JVM itself sets, or Surefire's booter: the fresh JVM has its own.
const JVM_OWN = /^(java\.(vm|runtime|specification|vendor|version|class\.version|home|library\.path)|sun\.|jdk\.|os\.|user\.(dir|home|name)$|line\.separator$|file\.separator$|path\.separator$|native\.encoding$|stressGate\.|surefire\.real\.class\.path$|java\.class\.path$)/;

/** The java executable, its arguments and where and how it runs. */
export interface JvmCommand {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

/** The fork's java executable. */
export const forkJava = (fork: ForkConfig): string => path.join(fork.javaHome, 'bin', 'java');

/** Pure: the command of one repetition of `fork`, with the request file `requestFile` (and the gate's class-sharing options). */
export function jvmCommand(fork: ForkConfig, runnerJar: string, requestFile: string, extraJvmArgs: readonly string[] = []): JvmCommand {
  const entries = fork.testClassPath.split(path.delimiter).filter((e) => e !== '');
  for (const extra of [fork.launcherJar, runnerJar]) if (extra && !entries.includes(extra)) entries.push(extra);
  return {
    file: forkJava(fork),
    args: [...fork.inputArguments, ...extraJvmArgs, '-cp', entries.join(path.delimiter), RUNNER_MAIN, requestFile],
    cwd: fork.userDir,
    env: { ...fork.environment },
  };
}

/** One line value, escaped so that it stays one line (backslash, newline, carriage return). */
function escape(s: string): string {
  return s.replaceAll('\\', '\\\\').replaceAll('\n', '\\n').replaceAll('\r', '\\r');
}

/**
 * Pure: the request file's text. System properties are set by the runner before the launcher
 * starts, as Surefire's booter sets them; configuration parameters that are only system
 * properties (the platform falls back to those anyway) are left out.
 */
export function requestText(fork: ForkConfig, uniqueIds: readonly string[], outFile: string): string {
  const lines = [`out ${escape(outFile)}`];
  for (const [k, v] of Object.entries(fork.systemProperties)) if (!JVM_OWN.test(k)) lines.push(`property ${escape(k)}=${escape(v)}`);
  for (const [k, v] of Object.entries(fork.configurationParameters)) {
    if (fork.systemProperties[k] !== v) lines.push(`config ${escape(k)}=${escape(v)}`);
  }
  for (const id of uniqueIds) lines.push(`select ${escape(id)}`);
  return `${lines.join('\n')}\n`;
}
