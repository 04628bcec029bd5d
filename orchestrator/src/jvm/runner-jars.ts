// The stress gate's JVM side (orchestrator/jvm-runner, built with Maven and shipped in this
// package): the runner jar (the stress runner, and the JUnit Platform listener of the first pass)
// and, beside it, the fork agent jar (Maven's JUnit 4 and TestNG forks).
import { access } from 'node:fs/promises';
import { constants } from 'node:fs';
import path from 'node:path';
import { PluginMissingError } from '../base/errors.js';
import { packageRoot } from '../base/package-root.js';

const RUNNER_JAR = path.join('jvm-runner', 'target', 'stress-gate-jvm-runner.jar');

/** The two jars. */
export interface RunnerJars {
  runner: string;
  agent: string;
}

/**
 * The jars: STRESS_GATE_RUNNER_JAR (the runner; the agent is its sibling), else the package's own
 * copies. Missing jars are a broken install, named.
 */
export async function runnerJars(env: NodeJS.ProcessEnv, root = packageRoot()): Promise<RunnerJars> {
  const explicit = env['STRESS_GATE_RUNNER_JAR'] || env['STRESS_GATE_JUNIT_RUNNER_JAR'];
  const runner = explicit ? path.resolve(explicit) : path.join(root, RUNNER_JAR);
  const agent = path.join(path.dirname(runner), 'stress-gate-jvm-runner-agent.jar');
  for (const jar of [runner, agent]) {
    try {
      await access(jar, constants.R_OK);
    } catch {
      throw new PluginMissingError(`the stress gate's JVM runner is not built: ${jar} does not exist (in a checkout: make plugin; or set STRESS_GATE_RUNNER_JAR)`);
    }
  }
  return { runner, agent };
}
