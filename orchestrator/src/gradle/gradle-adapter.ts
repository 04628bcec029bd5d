// The Gradle build adapter: the plugin's init script on every invocation, the first pass read
// from the manifest and JUnit XML, the stress pass as the plugin's repetition tasks.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BuildAdapter } from '../gate/build-adapter.js';
import type { GateDeps } from '../gate/gate-deps.js';
import { runFirstPass } from '../first-pass/run-first-pass.js';
import { createProgress } from '../repetitions/progress.js';
import { runJvm } from '../repetitions/run-jvm.js';
import { ArchivesInProgress } from '../repetitions/class-archive.js';
import { runStressPass } from '../repetitions/run-stress-pass.js';

/** Prepares Gradle (init script, temp dir, executable) through the deps' Gradle adapters. */
export async function createGradleAdapter(deps: GateDeps, projectDir: string): Promise<BuildAdapter> {
  const executable = await deps.gradleExecutable(projectDir);
  const setup = await deps.prepareGradle(deps.env);
  const archives = new ArchivesInProgress();
  return {
    workDir: setup.workDir,
    firstPass: async (args, o) => {
      const skipFile = path.join(setup.workDir, 'skip.json');
      if (o.skippedTests.length) await writeFile(skipFile, JSON.stringify(o.skippedTests));
      return runFirstPass(args, {
        runGradle: deps.runGradle,
        executable,
        setup,
        projectDir,
        env: deps.env,
        isMuted: o.isMuted,
        isSkipped: o.isSkipped,
        extraArgs: o.skippedTests.length ? [`-PstressGate.skip=${skipFile}`] : [],
        now: o.now,
        logger: deps.logger,
        ...(o.signal ? { signal: o.signal } : {}),
      });
    },
    stressPass: (stress, args, ceilingSeconds, o) =>
      runStressPass(stress, args, ceilingSeconds, {
        runGradle: deps.runGradle,
        executable,
        setup,
        projectDir,
        env: deps.env,
        logger: deps.logger,
        ...(o.signal ? { signal: o.signal } : {}),
        executor: o.executor,
        concurrency: o.concurrency,
        runJvm: deps.runJvm ?? runJvm,
        progress: (total, batch, deadlineAt) => createProgress({ write: deps.err, tty: deps.errIsTTY ?? false, total, batch, deadlineAt, now: Date.now }),
      }).then((pass) => archives.track(pass)),
    settle: () => archives.settle(),
  };
}
