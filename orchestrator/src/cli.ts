// The entry point: parses argv, runs the gate with the real adapters, maps errors to exit codes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { parseArgs, USAGE } from './args/parse-args.js';
import { exitCodeFor, StressGateError, UsageError } from './base/errors.js';
import { runBuild, type BuildRunner } from './build-tool/run-build.js';
import type { BuildSystem, GateDeps } from './gate/gate-deps.js';
import { runGate } from './gate/run-gate.js';
import { createGradleAdapter, type GradleDeps } from './gradle/gradle-adapter.js';
import { gradleExecutable, prepareGradle } from './gradle/gradle-setup.js';
import { createLogger } from './base/log.js';
import { createMavenAdapter } from './maven/maven-adapter.js';
import { mavenExecutable } from './maven/maven-setup.js';
import { packageRoot } from './base/package-root.js';
import { runOrder } from './gate/run-order.js';
import { runStressTests } from './gate/run-stress-tests.js';
import { terminalSafe } from './format/terminal-safe.js';

/** The package version, from package.json. */
export function version(): string {
  const pkg = JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/** The entry point's adapters: the core's, and how each build tool is found and run. */
export interface CliDeps extends Omit<GateDeps, 'build'> {
  gradle: Omit<GradleDeps, 'runBuild'>;
  runBuild: BuildRunner;
}

/** The production adapters; `signal` aborts on SIGINT or SIGTERM (a cancelled CI job). */
export function realDeps(env: NodeJS.ProcessEnv = process.env, signal?: AbortSignal): CliDeps {
  return {
    ...(signal ? { signal } : {}),
    env,
    cwd: process.cwd(),
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
    errIsTTY: process.stderr.isTTY === true,
    logger: createLogger(env),
    gradle: { prepare: (e) => prepareGradle(e), executable: gradleExecutable },
    runBuild,
    git: (cwd) => async (args) => {
      const r = await execa('git', args, { cwd, reject: false, stdin: 'ignore' });
      return r.exitCode === 0 && typeof r.stdout === 'string' && r.stdout.trim() ? r.stdout.trim() : null;
    },
    gitExec: (cwd) => async (args) => {
      const r = await execa('git', args, { cwd, reject: false, stdin: 'ignore', stripFinalNewline: false, maxBuffer: 256 * 1024 * 1024 });
      return { ok: r.exitCode === 0, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? '') };
    },
    now: () => Date.now(),
    processStartedAt: performance.timeOrigin,
  };
}

/** Runs the CLI; resolves to the exit code. Exit codes: the build's own (first pass), 1 (enforce
 * blocked: a failed test run's code), 2 (usage or configuration error), 3 (broken install). */
export async function main(argv: readonly string[], deps: CliDeps = realDeps()): Promise<number> {
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
    const { gradle, runBuild: run, ...core } = deps;
    const build: BuildSystem =
      parsed.kind === 'maven'
        ? {
            prepare: async (d, projectDir) => {
              const maven = await mavenExecutable(parsed.executable, projectDir, { flag: parsed.flags.mavenExecutable, env: d.env['STRESS_GATE_MAVEN'] });
              return createMavenAdapter(maven, run, d, projectDir);
            },
            outputDir: 'target',
            settingsPrefix: '.mvn/stress-gate.properties: ',
            tool: [parsed.executable, ...(parsed.flags.mavenExecutable ? ['--maven-executable', parsed.flags.mavenExecutable] : [])],
          }
        : { prepare: (d, projectDir) => createGradleAdapter({ ...gradle, runBuild: run }, d, projectDir), outputDir: 'build', settingsPrefix: 'stressNewTests.', tool: ['gradle'] };
    if (parsed.kind === 'gradle' && parsed.flags.mavenExecutable !== undefined) throw new UsageError('--maven-executable is for Maven builds (stress-orchestrator mvn …)');
    if (parsed.flags.runOrder) return await runOrder(parsed.flags, parsed.buildArgs, { ...core, build });
    if (parsed.flags.stressTests) return await runStressTests(parsed.flags, parsed.buildArgs, { ...core, build });
    for (const [flag, set] of [['--repetitions', parsed.flags.repetitions], ['--until-failure', parsed.flags.untilFailure]] as const) {
      if (set !== undefined) throw new UsageError(`${flag} goes with --stress-tests or --run-order (the gate's repetitions come from the verdict API's curve)`);
    }
    return await runGate(parsed.flags, parsed.buildArgs, { ...core, build });
  } catch (e) {
    if (e instanceof StressGateError) {
      deps.err(`stress-orchestrator: ${terminalSafe(e.message)}\n`);
      if (e.code === 'USAGE') deps.err('Run "stress-orchestrator --help" for usage.\n');
      return exitCodeFor(e.code);
    }
    deps.err(`stress-orchestrator: internal error: ${(e as Error).stack ?? String(e)}\n`);
    return 70;
  }
}
