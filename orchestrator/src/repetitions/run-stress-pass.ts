// The stress pass: the plan written, then either the direct executor (the orchestrator starts the
// repetition JVMs itself, several at a time) or the Gradle executor (`stressGateStress` in the
// same build setup: no task names of the user's, no rebuild, one Test task per repetition, one
// after another), bounded by the ceiling timer, then every repetition read.
import { readFile, writeFile } from 'node:fs/promises';
import { stressPassArgs } from '../args/stress-pass-args.js';
import type { GateCandidate } from '../candidates/gate-candidate.js';
import { parseResultsLog, resultsLogPath } from '../first-pass/results-log.js';
import { stressPaths } from '../first-pass/run-first-pass.js';
import type { GradleSetup } from '../gradle/gradle-setup.js';
import type { GradleRunner } from '../gradle/run-gradle.js';
import type { Logger } from '../log.js';
import { archiveState, type ClassArchive, planClassArchive } from './class-archive.js';
import { readForkSpec, type ForkSpec } from './fork-spec.js';
import type { Progress } from './progress.js';
import { assignRepetitions, readRepetitionReports, type RecordedRepetition } from './read-repetitions.js';
import { repetitionJobs } from './repetition-jobs.js';
import { runDirectPass } from './run-direct-pass.js';
import type { JvmRunner } from './run-jvm.js';
import { buildStressPlan, type StressPlan } from './stress-plan.js';

/** How repetitions run: the orchestrator's own JVMs, or one Gradle Test task each (the reference). */
export type Executor = 'direct' | 'gradle';

/** What the stress pass recorded, per candidate test_case_id. */
export interface StressPassResult {
  repetitions: Map<string, RecordedRepetition[]>;
  cut: boolean;
  /** The run was cancelled (SIGINT or SIGTERM) during the stress pass. */
  cancelled: boolean;
  wallClockMs: number;
  gradleExitCode: number | null;
  problems: string[];
  /** The executor that ran, and how many repetition JVMs it ran at a time. */
  executor: Executor;
  concurrency: number;
  /** Why the direct executor was asked for and the Gradle one ran, if so. */
  fallback: string | null;
  /** Candidates re-run alone because they failed while their repetitions ran side by side. */
  confirmedAlone: number;
  /** Repetition JVMs planned. */
  jvms: number;
  /** Work the pass left running (the JDK class archive being made): awaited before the run ends. */
  archiving?: Promise<void>;
  /** The direct executor's JDK class archive (class-archive.ts); absent under the Gradle executor. */
  classArchive?: 'used' | 'recorded' | 'off';
}

/** The adapters the stress pass uses. */
export interface StressPassDeps {
  runGradle: GradleRunner;
  executable: string;
  setup: GradleSetup;
  projectDir: string;
  env: NodeJS.ProcessEnv;
  logger: Logger;
  signal?: AbortSignal;
  /** The executor asked for, and how many JVMs the direct one may run at a time. */
  executor: Executor;
  concurrency: number;
  runJvm: JvmRunner;
  progress?: (total: number, batch: number, deadlineAt: number) => Progress;
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
    return { repetitions: assignRepetitions(stress, []), cut: false, cancelled: false, wallClockMs: 0, gradleExitCode: null, problems: [], executor: deps.executor, concurrency: 1, fallback: null, confirmedAlone: 0, jvms: 0 };
  }
  const jvms = repetitionJobs(plan).length;
  let fallback: string | null = null;
  if (deps.executor === 'direct') {
    const direct = await directSetup(plan, deps);
    if (direct.ok) {
      const archives = await archivesOf(direct.specs, deps);
      const pass = await runDirectPass(
        { plan, stress, specs: direct.specs, runnerJar: direct.jar, concurrency: deps.concurrency, deadlineMs: ceilingSeconds * 1000, archives },
        { runJvm: deps.runJvm, logger: deps.logger, ...(deps.signal ? { signal: deps.signal } : {}), ...(deps.progress ? { progress: deps.progress } : {}) },
      );
      return {
        repetitions: assignRepetitions(stress, pass.reports),
        cut: pass.cut,
        cancelled: pass.cancelled,
        wallClockMs: pass.wallClockMs,
        gradleExitCode: null,
        problems: pass.problems,
        executor: 'direct',
        concurrency: Math.max(1, Math.min(deps.concurrency, jvms)),
        fallback: null,
        confirmedAlone: pass.confirmed,
        jvms,
        archiving: pass.archiving,
        classArchive: archiveState(archives),
      };
    }
    fallback = direct.why;
    deps.logger.info({ why: fallback }, 'direct executor unavailable: the Gradle executor runs the stress pass');
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
    repetitions: assignRepetitions(stress, reports),
    cut: run.interrupted,
    cancelled: run.cancelled ?? false,
    wallClockMs: run.wallClockMs,
    gradleExitCode: run.exitCode,
    problems,
    executor: 'gradle',
    concurrency: 1,
    fallback,
    confirmedAlone: 0,
    jvms,
  };
}

/** Each task's use of the JDK class archive (class-archive.ts). */
async function archivesOf(specs: ReadonlyMap<string, ForkSpec>, deps: StressPassDeps): Promise<Map<string, ClassArchive>> {
  const out = new Map<string, ClassArchive>();
  for (const [taskPath, spec] of specs) {
    const archive = await planClassArchive(spec, deps.setup.workDir, deps.env, deps.logger);
    if (archive.state === 'off') deps.logger.debug({ taskPath, why: archive.why }, 'no JDK class archive for this task');
    out.set(taskPath, archive);
  }
  return out;
}

/** The fork settings of every planned task and the runner jar, or why the direct executor cannot run. */
async function directSetup(plan: StressPlan, deps: StressPassDeps): Promise<{ ok: true; specs: Map<string, ForkSpec>; jar: string } | { ok: false; why: string }> {
  if (!deps.setup.pluginJar) return { ok: false, why: 'the plugin jar (which carries the runner) is unknown' };
  const specs = new Map<string, ForkSpec>();
  for (const t of plan.tasks) {
    const read = await readForkSpec(deps.setup.manifest, t.path);
    if (!read.ok) return { ok: false, why: read.why };
    specs.set(t.path, read.spec);
  }
  return { ok: true, specs, jar: deps.setup.pluginJar };
}
