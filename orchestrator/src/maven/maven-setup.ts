// Which Maven runs, where the JVM runner jars are, and the per-invocation temp dir.
import { access, mkdir, mkdtemp } from 'node:fs/promises';
import { constants } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runnerJars } from '../jvm/runner-jars.js';

/** The per-invocation files of a Maven run. */
export interface MavenSetup {
  workDir: string;
  /** The runner and JUnit Platform listener jar, put on every fork's test classpath. */
  runnerJar: string;
  /** The fork agent, added to every Surefire/Failsafe fork's command line. */
  agentJar: string;
  /** Where the listener and the agent write one file per fork in the first pass. */
  forkLogDir: string;
}

/** The Maven that runs, and why that one: said before the first pass. */
export interface MavenExecutable {
  executable: string;
  /** e.g. "mvn from PATH", "the project's wrapper ./mvnw", "--maven-executable". */
  origin: string;
  /** A note when another Maven was at hand (the project has a wrapper that is not used). */
  note: string | null;
}

/**
 * The Maven to run: --maven-executable, else STRESS_GATE_MAVEN, else what the command names (`mvn`
 * from PATH, or `./mvnw`, the project's wrapper). Relative paths are the project directory's.
 */
export async function mavenExecutable(command: 'mvn' | './mvnw', projectDir: string, explicit: { flag?: string | undefined; env?: string | undefined }): Promise<MavenExecutable> {
  const chosen = explicit.flag ? { value: explicit.flag, origin: '--maven-executable' } : explicit.env ? { value: explicit.env, origin: 'STRESS_GATE_MAVEN' } : null;
  if (chosen) {
    const executable = chosen.value.includes('/') ? path.resolve(projectDir, chosen.value) : chosen.value;
    return { executable, origin: chosen.origin, note: null };
  }
  const wrapper = path.join(projectDir, 'mvnw');
  const hasWrapper = await access(wrapper, constants.X_OK).then(() => true, () => false);
  if (command === './mvnw') return { executable: wrapper, origin: "the project's wrapper", note: null };
  return {
    executable: 'mvn',
    origin: 'mvn from PATH',
    note: hasWrapper ? "the project has a Maven wrapper (./mvnw): run `stress-orchestrator ./mvnw …` or pass --maven-executable ./mvnw to use it" : null,
  };
}

/** Finds the runner jars and makes the temp dir. */
export async function prepareMaven(env: NodeJS.ProcessEnv): Promise<MavenSetup> {
  const jars = await runnerJars(env);
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'stress-gate-'));
  const forkLogDir = path.join(workDir, 'forks');
  await mkdir(forkLogDir);
  return { workDir, runnerJar: jars.runner, agentJar: jars.agent, forkLogDir };
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

/** The plugin that ran a module's tests. */
export type Plugin = 'surefire' | 'failsafe';

/** A first-pass unit: a module's tests as one plugin ran them, named by its phase: `<module>:test` (Surefire), `<module>:integration-test` (Failsafe). */
export function mavenUnit(module: string, plugin: Plugin): string {
  return `${module === ':' ? '' : module}:${plugin === 'failsafe' ? 'integration-test' : 'test'}`;
}

/**
 * The identity module of a unit's tests: the module's path for Surefire's, its integration-test
 * phase (`:core:integration-test`) for Failsafe's, so that a class both plugins run is two tests.
 */
export function mavenIdentityModule(module: string, plugin: Plugin): string {
  return plugin === 'surefire' ? module : mavenUnit(module, plugin);
}
