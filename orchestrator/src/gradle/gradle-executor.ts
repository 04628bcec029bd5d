// The Gradle executor, the reference the direct executor is checked against (the fidelity suite):
// `stressGateStress` in the same build setup (no task names of the user's, no rebuild), one Test
// task per repetition of each candidate, one after another, bounded by the ceiling timer, then
// every repetition read from its JUnit XML and the plugin's results log.
import { readFile, writeFile } from 'node:fs/promises';
import type { GateCandidate } from '../candidates/gate-candidate.js';
import type { BuildRunner } from '../build-tool/run-build.js';
import type { Logger } from '../base/log.js';
import type { StressPassResult } from '../repetitions/stress-pass-result.js';
import type { StressPlan } from '../repetitions/stress-plan.js';
import { stressPaths } from './gradle-first-pass.js';
import type { GradleSetup } from './gradle-setup.js';
import { assignRepetitions, readRepetitionReports } from './read-repetitions.js';
import { parseResultsLog, resultsLogPath } from './results-log.js';
import { stressPassArgs } from './stress-pass-args.js';
import { planTasks, type PlannedTasks } from './task-plan.js';

/** The adapters the Gradle executor uses. */
export interface GradleExecutorDeps {
  runBuild: BuildRunner;
  executable: string;
  setup: GradleSetup;
  projectDir: string;
  env: NodeJS.ProcessEnv;
  logger: Logger;
  signal?: AbortSignal;
}

/** What the Gradle executor's plan runs: the plugin's repetition tasks. */
export interface GradleExecutorTargets {
  tasks: PlannedTasks;
}

/** Plans `stress` (candidates with a source) for the Gradle executor: repetition tasks, one JVM at a time; `fallback`: why not the direct executor. */
export function planGradleExecutor(stress: readonly GateCandidate[], setup: GradleSetup, projectDir: string, fallback: string | null): StressPlan<GradleExecutorTargets> {
  return { executor: 'gradle', concurrency: 1, fallback, stress, targets: { tasks: planTasks(stress, stressPaths(setup, projectDir).resultsDir) }, unrunnable: [] };
}

/** Runs a Gradle executor plan's repetition tasks within `ceilingSeconds`. */
export async function runGradleExecutor(
  planned: StressPlan<GradleExecutorTargets>,
  userArgs: readonly string[],
  ceilingSeconds: number | null,
  deps: GradleExecutorDeps,
): Promise<StressPassResult> {
  const paths = stressPaths(deps.setup, deps.projectDir);
  const { stress } = planned;
  const { plan, owner } = planned.targets.tasks;
  const jvms = plan.tasks.reduce((n, t) => n + Math.max(...t.candidates.map((c) => c.repetitions)), 0);
  const base = { executor: 'gradle' as const, concurrency: 1, fallback: planned.fallback, confirmedAlone: 0, jvms };
  if (plan.tasks.length === 0) {
    // Nothing this run can select (the verdict named only tests it did not report): no Gradle.
    return { ...base, repetitions: assignRepetitions(stress, [], owner), cut: false, cancelled: false, wallClockMs: 0, buildExitCode: null, problems: [] };
  }
  await writeFile(paths.plan, `${JSON.stringify(plan, null, 2)}\n`);
  const args = [
    ...stressPassArgs(userArgs),
    // Every repetition task is attempted even if one cannot run; the reader finds what is missing.
    '--continue',
    '-I',
    deps.setup.initScript,
    `-PstressGate.manifest=${paths.manifest}`,
    `-PstressGate.plan=${paths.plan}`,
    'stressGateStress',
  ];
  const run = await deps.runBuild(deps.executable, args, {
    cwd: deps.projectDir,
    env: deps.env,
    output: { logFile: paths.log },
    ...(ceilingSeconds === null ? {} : { deadlineMs: ceilingSeconds * 1000 }),
    logger: deps.logger,
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
  // The plugin's log of the stress pass: results when a repetition left no XML, and the tests a
  // dying JVM took with it. No log at all means the plugin reported nothing.
  const logText = await readFile(resultsLogPath(paths.manifest), 'utf8').catch(() => null);
  const { reports, errors } = await readRepetitionReports(plan, logText === null ? undefined : parseResultsLog(logText));
  const problems = [...errors];
  if (logText === null && !run.interrupted && !run.cancelled) problems.push(`The Gradle plugin reported nothing from the stress pass; see ${paths.log}.`);
  if (run.exitCode !== 0 && !run.interrupted && !run.cancelled) {
    problems.push(`The stress pass's Gradle build failed (exit code ${run.exitCode}); see ${paths.log}.`);
  }
  return {
    ...base,
    repetitions: assignRepetitions(stress, reports, owner),
    cut: run.interrupted,
    cancelled: run.cancelled ?? false,
    wallClockMs: run.wallClockMs,
    buildExitCode: run.exitCode,
    problems,
  };
}
