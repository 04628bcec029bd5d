// The stress pass: the plan written, `stressGateStress` run in the same build setup (no task
// names of the user's, no rebuild), bounded by the ceiling timer, then every repetition read.
import { writeFile } from 'node:fs/promises';
import type { Repetition } from '#contract';
import { stressPassArgs } from '../args/stress-pass-args.js';
import type { GateCandidate } from '../candidates/gate-candidate.js';
import { stressPaths } from '../first-pass/run-first-pass.js';
import type { GradleSetup } from '../gradle/gradle-setup.js';
import type { GradleRunner } from '../gradle/run-gradle.js';
import type { Logger } from '../log.js';
import { assignRepetitions, readRepetitionReports } from './read-repetitions.js';
import { buildStressPlan } from './stress-plan.js';

/** What the stress pass recorded, per candidate test_case_id. */
export interface StressPassResult {
  repetitions: Map<string, Repetition[]>;
  cut: boolean;
  wallClockMs: number;
  gradleExitCode: number;
  problems: string[];
}

/** The adapters the stress pass uses. */
export interface StressPassDeps {
  runGradle: GradleRunner;
  executable: string;
  setup: GradleSetup;
  projectDir: string;
  env: NodeJS.ProcessEnv;
  logger: Logger;
}

/** Runs the repetitions of `stress` (candidates with a source) within `ceilingSeconds`. */
export async function runStressPass(
  stress: readonly GateCandidate[],
  userArgs: readonly string[],
  ceilingSeconds: number,
  deps: StressPassDeps,
): Promise<StressPassResult> {
  const paths = stressPaths(deps.setup, deps.projectDir);
  const plan = buildStressPlan(stress, paths.resultsDir);
  if (plan.tasks.length === 0) {
    // Nothing this run can select (the verdict named only tests it did not report): no Gradle.
    return { repetitions: assignRepetitions(stress, []), cut: false, wallClockMs: 0, gradleExitCode: 0, problems: [] };
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
  const run = await deps.runGradle(deps.executable, args, {
    cwd: deps.projectDir,
    env: deps.env,
    output: { logFile: paths.log },
    deadlineMs: ceilingSeconds * 1000,
    logger: deps.logger,
  });
  const { reports, errors } = await readRepetitionReports(plan);
  const problems = [...errors];
  if (run.exitCode !== 0 && !run.interrupted) {
    problems.push(`The stress pass's Gradle build failed (exit code ${run.exitCode}); see ${paths.log}.`);
  }
  return {
    repetitions: assignRepetitions(stress, reports),
    cut: run.interrupted,
    wallClockMs: run.wallClockMs,
    gradleExitCode: run.exitCode,
    problems,
  };
}
