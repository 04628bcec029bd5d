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

/** A test class path with the runner jar at its end, unless it is in it already. */
export const withRunner = (classpath: readonly string[], runnerJar: string): string[] => (classpath.includes(runnerJar) ? [...classpath] : [...classpath, runnerJar]);

/** The command of one repetition JVM. */
export function jvmCommand(jvm: JvmSpec, runnerJar: string, requestFile: string, extraJvmArgs: readonly string[] = [], delimiter = ':'): JvmCommand {
  const classpath = withRunner(jvm.classpath, runnerJar);
  return {
    file: jvm.java,
    args: [...jvm.jvmArgs, ...extraJvmArgs, '-cp', classpath.join(delimiter), RUNNER_MAIN, requestFile],
    cwd: jvm.workingDir,
    env: jvm.environment,
  };
}

/** Where a crashing JVM writes its hs_err file: `dir`, rather than the build's working directory (unless the build set one). */
export function errorFileArgs(jvmArgs: readonly string[], dir: string, join: (...parts: string[]) => string): string[] {
  return jvmArgs.some((a) => a.startsWith('-XX:ErrorFile=')) ? [] : [`-XX:ErrorFile=${join(dir, 'hs_err_pid%p.log')}`];
}

/** One value on one line: backslash, newline, carriage return and tab escaped. */
export function escapeValue(s: string): string {
  return s.replaceAll('\\', '\\\\').replaceAll('\n', '\\n').replaceAll('\r', '\\r').replaceAll('\t', '\\t');
}

/** What one JVM runs: its selections (one kind, run in this order), the platform's configuration and the fork's system properties. */
export interface RunnerRequest {
  selections: readonly Selection[];
  configurationParameters: Record<string, string>;
  systemProperties: Record<string, string>;
  /** The order probe: each selection on its own, in order, a repeated one run again (`order sequence`). */
  sequence?: boolean;
  /** false: the runner does not describe its JVM (`describe no`: it then loads no management classes). */
  describe?: boolean;
}

/** The request file's text. */
export function requestText(request: RunnerRequest, outFile: string): string {
  const kind = request.selections[0]?.kind ?? 'junit4';
  const lines = [`kind ${kind}`, `out ${escapeValue(outFile)}`, ...(request.sequence ? ['order sequence'] : []), ...(request.describe === false ? ['describe no'] : [])];
  for (const [k, v] of Object.entries(request.systemProperties)) lines.push(`property ${escapeValue(k)}=${escapeValue(v)}`);
  if (kind === 'platform') for (const [k, v] of Object.entries(request.configurationParameters)) lines.push(`config ${escapeValue(k)}=${escapeValue(v)}`);
  // A selection repeated (two occurrences of one Parameterized name) is asked for once.
  const asked = new Set<string>();
  for (const s of request.selections) {
    const line =
      s.kind === 'platform'
        ? `select ${escapeValue(s.uniqueId)}`
        : s.kind === 'junit4'
          ? `test ${escapeValue(s.className)}\t${escapeValue(s.name)}`
          : `test ${[s.className, s.name, s.method, String(s.invocation)].map(escapeValue).join('\t')}`;
    if (request.sequence || !asked.has(line)) lines.push(line);
    asked.add(line);
  }
  return `${lines.join('\n')}\n`;
}
