// The Gradle build adapter: the plugin's init script on every invocation, the first pass read
// from the manifest and JUnit XML, the stress pass run by the direct executor (fresh JVMs started
// with each Test task's own fork settings) or, when asked or when a task left no fork settings,
// by the Gradle executor (the plugin's repetition tasks).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BuildRunner } from '../build-tool/run-build.js';
import type { BuildAdapter } from '../gate/build-adapter.js';
import type { GateDeps } from '../gate/gate-deps.js';
import { ArchivesInProgress } from '../jvm/class-archive.js';
import { planDirectPass, runAdapterDirectPass } from '../jvm/direct-pass.js';
import { runInOrder } from '../jvm/in-order.js';
import type { StressTarget } from '../jvm/stress-target.js';
import { planGradleExecutor, runGradleExecutor, type GradleExecutorTargets } from './gradle-executor.js';
import { runGradleFirstPass } from './gradle-first-pass.js';
import type { GradleSetup } from './gradle-setup.js';
import { gradleTargets } from './gradle-targets.js';

/** What the Gradle adapter needs besides the core's deps: where Gradle is and how it runs. */
export interface GradleDeps {
  prepare: (env: NodeJS.ProcessEnv) => Promise<GradleSetup>;
  executable: (projectDir: string) => Promise<string>;
  runBuild: BuildRunner;
}

/** What a Gradle stress plan runs: the direct executor's repetition JVMs, or the plugin's repetition tasks. */
export type GradlePlanned = { direct: readonly StressTarget[] } | GradleExecutorTargets;

/** Prepares Gradle (init script, temp dir, executable) for one invocation. */
export async function createGradleAdapter(gradle: GradleDeps, deps: GateDeps, projectDir: string): Promise<BuildAdapter<GradlePlanned>> {
  const executable = await gradle.executable(projectDir);
  const setup = await gradle.prepare(deps.env);
  const archives = new ArchivesInProgress();
  const executorDeps = { runBuild: gradle.runBuild, executable, setup, projectDir, env: deps.env, logger: deps.logger };
  return {
    workDir: setup.workDir,
    firstPass: async (args, o) => {
      const skipFile = path.join(setup.workDir, 'skip.json');
      if (o.skippedTests.length) await writeFile(skipFile, JSON.stringify(o.skippedTests));
      return runGradleFirstPass(args, {
        ...executorDeps,
        isMuted: o.isMuted,
        isSkipped: o.isSkipped,
        extraArgs: o.skippedTests.length ? [`-PstressGate.skip=${skipFile}`] : [],
        now: o.now,
        ...(o.signal ? { signal: o.signal } : {}),
      });
    },
    planStress: async (stress, request) => {
      if (request.executor === 'gradle') return planGradleExecutor(stress, setup, projectDir, null);
      const targets = await gradleTargets(stress, setup.manifest);
      if (!targets.ok) {
        deps.logger.info({ why: targets.why }, 'direct executor unavailable: the Gradle executor runs the stress pass');
        return planGradleExecutor(stress, setup, projectDir, targets.why);
      }
      const plan = planDirectPass(stress, targets, request.parallelJvms);
      return { ...plan, targets: { direct: plan.targets } };
    },
    stressPass: async (plan, args, ceilingSeconds, { signal, untilFailure } = {}) => {
      const { targets } = plan;
      if ('tasks' in targets) return runGradleExecutor({ ...plan, targets }, args, ceilingSeconds, { ...executorDeps, ...(signal ? { signal } : {}) });
      const context = { runnerJar: setup.runnerJar, workDir: setup.workDir, outputDir: path.join(projectDir, 'build', 'stress-gate', 'repetitions'), env: deps.env, logger: deps.logger, err: deps.err, errIsTTY: deps.errIsTTY ?? false };
      const pass = await runAdapterDirectPass({ targets: targets.direct, unrunnable: plan.unrunnable, concurrency: plan.concurrency }, context, { ceilingSeconds, signal, untilFailure });
      return archives.track(pass);
    },
    // The order probe runs each test as the direct executor would, whichever executor ran the repetitions.
    runInOrder: (sequences, options) =>
      runInOrder(
        sequences,
        async (tests) => {
          const t = await gradleTargets(tests, setup.manifest);
          return t.ok ? t : { why: t.why };
        },
        { runnerJar: setup.runnerJar, outputDir: path.join(projectDir, 'build', 'stress-gate') },
        options,
      ),
    settle: () => archives.settle(),
  };
}
