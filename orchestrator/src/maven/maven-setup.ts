// Where Maven and the JUnit Platform runner jar are, and the per-invocation temp dir.
import { access, mkdir, mkdtemp } from 'node:fs/promises';
import { constants } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PluginMissingError } from '../errors.js';
import { packageRoot } from '../gradle/gradle-setup.js';

// Built by `make plugin` (mvn package in orchestrator/junit-platform-runner) and shipped in the package.
const RUNNER_JAR = path.join('junit-platform-runner', 'target', 'stress-gate-junit-platform-runner.jar');

/** The per-invocation files of a Maven run. */
export interface MavenSetup {
  workDir: string;
  /** The listener + runner jar, put on every fork's test classpath. */
  runnerJar: string;
  /** Where the listener writes one file per fork in the first pass. */
  forkLogDir: string;
}

/** `./mvnw` when the project has an executable wrapper, else `mvn` from PATH. */
export async function mavenExecutable(projectDir: string): Promise<string> {
  const wrapper = path.join(projectDir, 'mvnw');
  try {
    await access(wrapper, constants.X_OK);
    return wrapper;
  } catch {
    return 'mvn';
  }
}

/** Finds the runner jar (STRESS_GATE_JUNIT_RUNNER_JAR overrides) and makes the temp dir. */
export async function prepareMaven(env: NodeJS.ProcessEnv, root = packageRoot()): Promise<MavenSetup> {
  const jar = env['STRESS_GATE_JUNIT_RUNNER_JAR'] ? path.resolve(env['STRESS_GATE_JUNIT_RUNNER_JAR']) : path.join(root, RUNNER_JAR);
  try {
    await access(jar, constants.R_OK);
  } catch {
    throw new PluginMissingError(`the stress gate's JUnit Platform runner is not built: ${jar} does not exist (in a checkout: make plugin; or set STRESS_GATE_JUNIT_RUNNER_JAR)`);
  }
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'stress-gate-'));
  const forkLogDir = path.join(workDir, 'forks');
  await mkdir(forkLogDir);
  return { workDir, runnerJar: jar, forkLogDir };
}

/**
 * A Maven module's identity module: its directory relative to the reactor root (the directory
 * the build runs in), written like a Gradle project path: `:` for the root, `:core`, `:services:billing`.
 */
export function modulePath(projectDir: string, moduleDir: string): string {
  const rel = path.relative(projectDir, moduleDir);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return rel === '' ? ':' : `:${moduleDir}`;
  return `:${rel.split(path.sep).join(':')}`;
}

/** The first pass's "task" of a module: `<module>:test` (Surefire) or `<module>:integration-test` (Failsafe). */
export function mavenTask(module: string, plugin: 'surefire' | 'failsafe'): string {
  return `${module === ':' ? '' : module}:${plugin === 'failsafe' ? 'integration-test' : 'test'}`;
}
