// The Maven build adapter: the first pass is the user's Maven command with the listener and the
// fork agent added; the stress pass starts JVMs directly, as the first pass's forks were started.
import path from 'node:path';
import type { BuildRunner } from '../build-tool/run-build.js';
import type { BuildAdapter } from '../gate/build-adapter.js';
import type { GateDeps } from '../gate/gate-deps.js';
import { ArchivesInProgress } from '../jvm/class-archive.js';
import { planDirectPass, runAdapterDirectPass } from '../jvm/direct-pass.js';
import { runInOrder } from '../jvm/in-order.js';
import type { StressTarget } from '../jvm/stress-target.js';
import { runMavenFirstPass } from './maven-first-pass.js';
import { prepareMaven, type MavenExecutable } from './maven-setup.js';
import { mavenTargets } from './maven-targets.js';

/** Prepares Maven for one invocation. */
export async function createMavenAdapter(maven: MavenExecutable, runBuild: BuildRunner, deps: GateDeps, projectDir: string): Promise<BuildAdapter<readonly StressTarget[]>> {
  const setup = await prepareMaven(deps.env);
  deps.err(`stress-gate: Maven: ${maven.executable} (${maven.origin})\n`);
  if (maven.note) deps.err(`stress-gate: note: ${maven.note}\n`);
  const archives = new ArchivesInProgress();
  const passContext = { runnerJar: setup.runnerJar, workDir: setup.workDir, outputDir: path.join(projectDir, 'target', 'stress-gate', 'repetitions'), env: deps.env, logger: deps.logger, err: deps.err, errIsTTY: deps.errIsTTY ?? false };
  return {
    workDir: setup.workDir,
    firstPass: (args, o) => runMavenFirstPass(args, o, { runMaven: runBuild, executable: maven.executable, setup, projectDir, env: deps.env, logger: deps.logger }),
    // One executor under Maven: fresh JVMs started like Surefire's forks, several at a time.
    planStress: async (stress, request) => planDirectPass(stress, mavenTargets(stress), request.parallelJvms),
    stressPass: async (plan, _args, ceilingSeconds, { signal, untilFailure } = {}) => {
      const pass = await runAdapterDirectPass(plan, passContext, { ceilingSeconds, signal, untilFailure });
      return archives.track(pass);
    },
    runInOrder: (sequences, options) => runInOrder(sequences, async (tests) => mavenTargets(tests), { runnerJar: setup.runnerJar, outputDir: path.join(projectDir, 'target', 'stress-gate') }, options),
    settle: () => archives.settle(),
  };
}
