// The entry point: parses argv, runs the gate with the real adapters, maps errors to exit codes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { parseArgs, USAGE } from './args/parse-args.js';
import { exitCodeFor, StressGateError } from './errors.js';
import type { GateDeps } from './gate/gate-deps.js';
import { runGate } from './gate/run-gate.js';
import { gradleExecutable, packageRoot, prepareGradle } from './gradle/gradle-setup.js';
import { runGradle } from './gradle/run-gradle.js';
import { createLogger } from './log.js';
import { createMavenAdapter } from './maven/maven-adapter.js';

/** The package version, from package.json. */
export function version(): string {
  const pkg = JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/** The production adapters; `signal` aborts on SIGINT or SIGTERM (a cancelled CI job). */
export function realDeps(env: NodeJS.ProcessEnv = process.env, signal?: AbortSignal): GateDeps {
  return {
    ...(signal ? { signal } : {}),
    env,
    cwd: process.cwd(),
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
    errIsTTY: process.stderr.isTTY === true,
    logger: createLogger(env),
    prepareGradle: (e) => prepareGradle(e),
    gradleExecutable,
    runGradle,
    git: (cwd) => async (args) => {
      const r = await execa('git', args, { cwd, reject: false, stdin: 'ignore' });
      return r.exitCode === 0 && typeof r.stdout === 'string' && r.stdout.trim() ? r.stdout.trim() : null;
    },
    now: () => Date.now(),
    processStartedAt: performance.timeOrigin,
  };
}

/** Runs the CLI; resolves to the exit code. Exit codes: the build's own (first pass), 1 (enforce
 * blocked: a failed test run's code), 2 (usage or configuration error), 3 (broken install). */
export async function main(argv: readonly string[], deps: GateDeps = realDeps()): Promise<number> {
  try {
    const parsed = parseArgs(argv);
    if (parsed.kind === 'help') {
      deps.out(USAGE);
      return 0;
    }
    if (parsed.kind === 'version') {
      deps.out(`stress-orchestrator ${version()}\n`);
      return 0;
    }
    if (parsed.kind === 'maven') {
      const executable = parsed.executable;
      const maven: GateDeps = {
        ...deps,
        build: {
          prepare: (d, projectDir) => createMavenAdapter(d, projectDir, executable === null ? undefined : path.resolve(projectDir, executable)),
          outputDir: 'target',
          settingsPrefix: '.mvn/stress-gate.properties: ',
        },
      };
      return await runGate(parsed.flags, parsed.gradleArgs, maven);
    }
    return await runGate(parsed.flags, parsed.gradleArgs, deps);
  } catch (e) {
    if (e instanceof StressGateError) {
      deps.err(`stress-orchestrator: ${e.message}\n`);
      if (e.code === 'USAGE') deps.err('Run "stress-orchestrator --help" for usage.\n');
      return exitCodeFor(e.code);
    }
    deps.err(`stress-orchestrator: internal error: ${(e as Error).stack ?? String(e)}\n`);
    return 70;
  }
}
