// The Maven build adapter: the first pass is the user's Maven command with the listener on the
// test classpath; the stress pass starts JVMs directly, as the first pass's forks were started.
import type { BuildAdapter } from '../gate/build-adapter.js';
import type { GateDeps } from '../gate/gate-deps.js';
import { ArchivesInProgress } from '../repetitions/class-archive.js';
import { runMavenFirstPass, type PlatformSource } from './maven-first-pass.js';
import { mavenExecutable, prepareMaven } from './maven-setup.js';
import { runMavenStressPass } from './maven-stress-pass.js';

/** Prepares Maven for one invocation; `deps.runGradle` runs the `mvn` process (any command, really). */
export async function createMavenAdapter(deps: GateDeps, projectDir: string, executable?: string): Promise<BuildAdapter> {
  const mvn = executable ?? (await mavenExecutable(projectDir));
  const setup = await prepareMaven(deps.env);
  let sources: ReadonlyMap<string, PlatformSource> = new Map();
  const archives = new ArchivesInProgress();
  return {
    workDir: setup.workDir,
    firstPass: async (args, o) => {
      const pass = await runMavenFirstPass(args, o, { runMaven: deps.runGradle, executable: mvn, setup, projectDir, env: deps.env, logger: deps.logger });
      sources = pass.sources;
      return pass.first;
    },
    // Maven has one executor: fresh JVMs started like Surefire's fork, one test run at a time.
    stressPass: (stress, _args, ceilingSeconds, o) =>
      runMavenStressPass(stress, ceilingSeconds, { setup, sources, projectDir, logger: deps.logger, env: deps.env, ...(o.signal ? { signal: o.signal } : {}) }).then((pass) => archives.track(pass)),
    settle: () => archives.settle(),
  };
}
