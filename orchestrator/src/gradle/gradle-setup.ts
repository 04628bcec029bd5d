// Where Gradle, the plugin jar and the init script are, and the arguments every invocation gets.
import { access, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { constants } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PluginMissingError } from '../base/errors.js';
import { runnerJars } from '../jvm/runner-jars.js';
import { packageRoot } from '../base/package-root.js';

// Both ship inside this package (copied there by `make plugin` and by `npm pack`'s prepack).
const PLUGIN_JAR = path.join('gradle-plugin', 'stress-gate-gradle-plugin.jar');
const INIT_TEMPLATE = path.join('gradle-plugin', 'stress-gate.init.gradle');

/** `./gradlew` when the project has a wrapper, else `gradle` from PATH. */
export async function gradleExecutable(projectDir: string): Promise<string> {
  const wrapper = path.join(projectDir, 'gradlew');
  try {
    await access(wrapper, constants.X_OK);
    return wrapper;
  } catch {
    return 'gradle';
  }
}

/** The per-invocation temp dir: filled init script, manifest path, plan and repetition results. */
export interface GradleSetup {
  workDir: string;
  initScript: string;
  manifest: string;
  /** The JVM runner jar: the direct executor's runner and the JUnit Platform listener. */
  runnerJar: string;
  /** `-I <init> -PstressGate.manifest=<manifest> -PstressGate.junitPlatformListener=<runner jar>`: appended to every Gradle invocation. */
  baseArgs: string[];
}

/** Fills the init-script template with the plugin jar's path (STRESS_GATE_PLUGIN_JAR overrides). */
export async function prepareGradle(env: NodeJS.ProcessEnv, root = packageRoot()): Promise<GradleSetup> {
  const jar = env['STRESS_GATE_PLUGIN_JAR'] ? path.resolve(env['STRESS_GATE_PLUGIN_JAR']) : path.join(root, PLUGIN_JAR);
  try {
    await access(jar, constants.R_OK);
  } catch {
    throw new PluginMissingError(`the stress gate's Gradle plugin is not built: ${jar} does not exist (in a checkout: make plugin; or set STRESS_GATE_PLUGIN_JAR)`);
  }
  let template: string;
  try {
    template = await readFile(path.join(root, INIT_TEMPLATE), 'utf8');
  } catch {
    throw new PluginMissingError(`the init-script template ${path.join(root, INIT_TEMPLATE)} is missing (in a checkout: make plugin)`);
  }
  // The runner jar is also the JUnit Platform listener: the plugin puts it into Test tasks that run
  // the platform, so that their identities are named as under Maven (gradle/platform-identities.ts).
  const { runner } = await runnerJars(env, root);
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'stress-gate-'));
  const initScript = path.join(workDir, 'stress-gate.init.gradle');
  // A Groovy single-quoted string: escape backslashes and quotes (Windows paths, odd dirs).
  const quoted = jar.replaceAll('\\', '\\\\').replaceAll("'", "\\'");
  await writeFile(initScript, template.replaceAll('@PLUGIN_JAR@', quoted));
  const manifest = path.join(workDir, 'manifest.json');
  const baseArgs = ['-I', initScript, `-PstressGate.manifest=${manifest}`, `-PstressGate.junitPlatformListener=${runner}`];
  return { workDir, initScript, manifest, runnerJar: runner, baseArgs };
}
