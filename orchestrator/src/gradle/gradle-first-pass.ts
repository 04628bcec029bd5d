// Gradle's first pass: the user's command as given (plus the init script), its output on the
// user's terminal, then every Test task's JUnit XML of this run, with identities and the quarantine mask.
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { BuildRun, BuildRunner } from '../build-tool/run-build.js';
import { summarizeFirstPass, unreadFirstPass, type FirstPass } from '../first-pass/first-pass.js';
import type { XmlTestCase } from '../first-pass/junit-xml.js';
import { parseWrittenReports, ParsedReports, readResults } from '../first-pass/read-results.js';
import type { Logger } from '../base/log.js';
import type { MutedCheck } from '../quarantine/quarantine-source.js';
import { gradleUnits } from './gradle-locator.js';
import type { GradleSetup } from './gradle-setup.js';
import { readManifest, type Manifest } from './manifest.js';
import { applyPlatformNames, readPlatformResults } from './platform-identities.js';
import { parseResultsLog, resultsLogPath } from './results-log.js';

/** The adapters the first pass uses. */
export interface FirstPassDeps {
  runBuild: BuildRunner;
  executable: string;
  setup: GradleSetup;
  projectDir: string;
  env: NodeJS.ProcessEnv;
  isMuted: MutedCheck;
  /** Quarantined as skip: excluded through Gradle's filter; where Gradle cannot, ignored if it ran. */
  isSkipped?: MutedCheck;
  /** Arguments for the first pass only (the skip list). */
  extraArgs?: readonly string[];
  now: () => number;
  logger: Logger;
  /** Parse reports while Gradle finishes (default: readAheadPays()). */
  readAhead?: boolean;
  /** Cancels the build (SIGINT to Gradle) when aborted. */
  signal?: AbortSignal;
}

/** Runs the first pass and reads its results. */
export async function runGradleFirstPass(gradleArgs: readonly string[], deps: FirstPassDeps): Promise<FirstPass> {
  const started = deps.now();
  const parsed = new ParsedReports();
  const stopReadingAhead = (deps.readAhead ?? readAheadPays()) ? readAhead(deps.setup.manifest, started, parsed) : async () => undefined;
  let run: BuildRun;
  try {
    run = await deps.runBuild(deps.executable, [...gradleArgs, ...deps.setup.baseArgs, ...(deps.extraArgs ?? [])], {
      cwd: deps.projectDir,
      env: deps.env,
      output: 'inherit',
      logger: deps.logger,
      ...(deps.signal ? { signal: deps.signal } : {}),
    });
  } finally {
    await stopReadingAhead();
  }
  try {
    const reading = deps.now();
    const first = await readFirstPass(run, started, deps, parsed);
    deps.logger.child({ module: 'gradle-first-pass' }).debug({ ms: deps.now() - reading, testCases: first.cases.length, parsedAhead: parsed.size }, 'read the first pass');
    return first;
  } catch (e) {
    // Gradle has spoken; what went wrong is the gate's reading. Its exit code still stands.
    const problem = (e as Error).message ?? String(e);
    deps.logger.child({ module: 'gradle-first-pass' }).error({ err: e }, 'reading the first pass failed');
    return unreadFirstPass(run, started, problem);
  }
}

/**
 * Whether parsing reports while Gradle finishes can gain anything: only with a core to spare.
 * Gradle 4.4 renders its HTML report on every core right after writing the XML, so on 2 cores
 * the parse only competes with it: measured on this project's 2-core machine with 50,000 cases,
 * Gradle took 0.8 s longer while the final read took 0.5 s less (a net loss), so it is off there.
 */
export function readAheadPays(cores: number = availableParallelism()): boolean {
  return cores >= 4;
}

/** How often the reports are looked for while Gradle runs. */
const READ_AHEAD_EVERY_MS = 150;

/**
 * While Gradle runs, parses each Test task's reports as soon as they are written (into `parsed`):
 * Gradle writes them a few hundred milliseconds before it exits (the HTML report and the build's
 * end follow), time the final read then saves. The final read still lists and checks every file.
 * Returns the function that stops it (waiting for the report being parsed, if any).
 */
function readAhead(manifestFile: string, sinceMs: number, parsed: ParsedReports): () => Promise<void> {
  let stopped = false;
  let wake = (): void => undefined;
  const loop = (async () => {
    let tasks: Manifest['testTasks'] | null = null;
    while (!stopped) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, READ_AHEAD_EVERY_MS).unref();
      });
      if (stopped) break;
      try {
        // The plugin writes the manifest when the build's projects are evaluated.
        if (!tasks) {
          const read = await readManifest(manifestFile);
          if (read.ok) tasks = read.manifest.testTasks;
        }
        if (tasks) await parseWrittenReports(tasks, sinceMs, parsed, () => stopped);
      } catch {
        // Only an optimisation: the final read reads whatever was not parsed here.
      }
    }
  })();
  return async () => {
    stopped = true;
    wake();
    await loop;
  };
}

async function readFirstPass(run: BuildRun, started: number, deps: FirstPassDeps, parsed?: ParsedReports): Promise<FirstPass> {
  const read = await readManifest(deps.setup.manifest);
  const manifest = read.ok ? read.manifest : null;
  // The results log stands in only for a task that wrote no XML: read when one did not (a suite
  // of 50,000 tests logs 100,000 lines, a few hundred milliseconds to parse for nothing).
  let log: Promise<ReadonlyMap<string, XmlTestCase[]>> | undefined;
  const logged = () => (log ??= readFile(resultsLogPath(deps.setup.manifest), 'utf8').catch(() => '').then((text) => parseResultsLog(text).byTask));
  const results = manifest ? await readResults(manifest.testTasks, started, logged, parsed) : { tasks: [], errors: [], notes: [] };
  // Tasks that ran the JUnit Platform with the stress gate's listener: identities named as under Maven.
  const platform = await readPlatformResults(deps.setup.manifest, results.tasks.map((t) => t.task));
  const named = applyPlatformNames(results.tasks, platform.byTask);
  // Each case carries its Gradle locator: its task, its occurrence, its platform task's test JVM configuration.
  const units = gradleUnits(named.tasks, platform.configByTask);
  const notes = [...results.notes, ...platform.notes, ...named.notes];
  return summarizeFirstPass(run, started, { settings: manifest?.settings ?? null, unreported: read.ok ? null : read.error, results: { units, errors: results.errors, notes } }, deps);
}

/** Where the stress pass puts its files, inside the invocation's temp dir. */
export function stressPaths(setup: GradleSetup, projectDir: string): { plan: string; resultsDir: string; manifest: string; log: string } {
  return {
    // Kept after the run (the temp dir is not), for whoever wants to see a repetition's output.
    log: path.join(projectDir, 'build', 'stress-gate', 'stress-pass.log'),
    plan: path.join(setup.workDir, 'plan.json'),
    resultsDir: path.join(setup.workDir, 'stress-results'),
    manifest: path.join(setup.workDir, 'stress-manifest.json'),
  };
}
