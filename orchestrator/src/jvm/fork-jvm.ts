// Pure: a fresh JVM like a test JVM that the stress gate's listener or fork agent saw from inside
// (a Surefire/Failsafe fork; a Gradle platform test JVM's launcher): java, JVM arguments, the
// fork's real class path, working directory, environment and the system properties the booter set.
import path from 'node:path';
import type { ForkConfig } from './runner-log.js';
import type { JvmSpec } from './stress-target.js';

// Properties the JVM itself sets, or Surefire's booter, or the gate's own: the fresh JVM has its own.
const NOT_COPIED =
  /^(java\.(vm|runtime|specification|vendor|version|class\.version|home|library\.path|class\.path)|sun\.|jdk\.|os\.|user\.(dir|home|name)$|line\.separator$|file\.separator$|path\.separator$|native\.encoding$|stressGate\.|surefire\.(real\.class\.path|test\.class\.path)$|maven\.(surefire|failsafe)\.debug$)/;

/** The gate's own JVM arguments in a first-pass fork (the fork agent): never copied. */
const GATE_ARG = /^-javaagent:.*stress-gate-jvm-runner-agent\.jar/;

/** The fork's java executable. */
export const forkJava = (fork: ForkConfig): string => path.join(fork.javaHome, 'bin', 'java');

/** The fork's JVM arguments, without the gate's own. */
export const forkJvmArgs = (fork: ForkConfig): string[] => fork.inputArguments.filter((a) => !GATE_ARG.test(a));

/**
 * The class path a repetition of this fork starts with: the fork's real one (what the build tool
 * added at run time included, its own harness left out) when the fork reported it; from an older
 * runner, the test class path plus the platform launcher the fork used.
 */
export function forkClassPath(fork: ForkConfig, withLauncher: boolean): string[] {
  const split = (s: string) => s.split(path.delimiter).filter((e) => e !== '');
  if (fork.runtimeClassPath) return split(fork.runtimeClassPath);
  const classpath = split(fork.testClassPath);
  if (withLauncher && fork.launcherJar && !classpath.includes(fork.launcherJar)) classpath.push(fork.launcherJar);
  return classpath;
}

/** The JVM of a fork. */
export function jvmOfFork(fork: ForkConfig, withLauncher: boolean): JvmSpec {
  const systemProperties = Object.fromEntries(Object.entries(fork.systemProperties).filter(([k]) => !NOT_COPIED.test(k)));
  // Surefire's booter sets java.class.path to the test class path, which is what a test reading it saw.
  const booterClassPath = fork.systemProperties['surefire.test.class.path'] !== undefined ? fork.systemProperties['java.class.path'] : undefined;
  if (booterClassPath !== undefined) systemProperties['java.class.path'] = booterClassPath;
  return {
    java: forkJava(fork),
    jvmArgs: forkJvmArgs(fork),
    classpath: forkClassPath(fork, withLauncher),
    workingDir: fork.userDir,
    environment: { ...fork.environment },
    systemProperties,
  };
}

/** The platform's configuration parameters of a fork that are not already system properties (the platform falls back to those). */
export function configurationParameters(fork: ForkConfig): Record<string, string> {
  return Object.fromEntries(Object.entries(fork.configurationParameters).filter(([k, v]) => fork.systemProperties[k] !== v));
}
