// Pure: what one repetition's JVM is started with: `java <JVM args> [gate options] -cp <test
// class path>:<runner jar> StressRunner <request>` and the request file the runner reads
// (orchestrator/jvm-runner, Request.java).
import type { JvmSpec, Selection } from './stress-target.js';

/** The runner's main class, in the runner jar. */
export const RUNNER_MAIN = 'dev.stressgate.jvm.StressRunner';

/** A command to start. */
export interface JvmCommand {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string | null>;
}

/** The command of one repetition JVM. */
export function jvmCommand(jvm: JvmSpec, runnerJar: string, requestFile: string, extraJvmArgs: readonly string[] = [], delimiter = ':'): JvmCommand {
  const classpath = jvm.classpath.includes(runnerJar) ? jvm.classpath : [...jvm.classpath, runnerJar];
  return {
    file: jvm.java,
    args: [...jvm.jvmArgs, ...extraJvmArgs, '-cp', classpath.join(delimiter), RUNNER_MAIN, requestFile],
    cwd: jvm.workingDir,
    env: jvm.environment,
  };
}

/** One value on one line: backslash, newline, carriage return and tab escaped. */
export function escapeValue(s: string): string {
  return s.replaceAll('\\', '\\\\').replaceAll('\n', '\\n').replaceAll('\r', '\\r').replaceAll('\t', '\\t');
}

/** The request file's text; `standby`: start up, then wait for `go` on standard input. */
export function requestText(selection: Selection, systemProperties: Record<string, string>, outFile: string, standby = false): string {
  const lines = [`kind ${selection.kind}`, `out ${escapeValue(outFile)}`];
  for (const [k, v] of Object.entries(systemProperties)) lines.push(`property ${escapeValue(k)}=${escapeValue(v)}`);
  switch (selection.kind) {
    case 'platform':
      for (const [k, v] of Object.entries(selection.configurationParameters)) lines.push(`config ${escapeValue(k)}=${escapeValue(v)}`);
      lines.push(`select ${escapeValue(selection.uniqueId)}`);
      break;
    case 'junit4':
      lines.push(`test ${escapeValue(selection.className)}\t${escapeValue(selection.name)}`);
      break;
    case 'testng':
      lines.push(`test ${[selection.className, selection.name, selection.method, String(selection.invocation)].map(escapeValue).join('\t')}`);
      break;
  }
  if (standby) lines.push('wait');
  return `${lines.join('\n')}\n`;
}
