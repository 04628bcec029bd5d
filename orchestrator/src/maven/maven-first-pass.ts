// The Maven first pass: the user's command as given, plus the listener on every Surefire/Failsafe
// fork's test classpath (`-Dmaven.test.additionalClasspath`) and the quarantine's excludes. Its
// results are the forks' listener logs (JUnit Platform unique IDs) and, for tests no listener saw
// (JUnit 4 or TestNG providers), the Surefire/Failsafe JUnit XML.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TestCaseIdentity } from '#contract';
import type { BuildFirstPassOptions } from '../gate/build-adapter.js';
import { readJUnitXmlFile, type XmlTestCase } from '../first-pass/junit-xml.js';
import type { ReadResults } from '../first-pass/read-results.js';
import { readTaskXml } from '../first-pass/read-results.js';
import { summarizeFirstPass, unreadFirstPass, type FirstPass } from '../first-pass/run-first-pass.js';
import type { TaskResults } from '../first-pass/test-case-result.js';
import type { Manifest } from '../gradle/manifest.js';
import type { GradleRunner } from '../gradle/run-gradle.js';
import type { Logger } from '../log.js';
import { parseForkLog, platformCases, type ForkConfig, type ForkLog } from './fork-log.js';
import { modulePath, mavenTask, type MavenSetup } from './maven-setup.js';
import { readSettings } from './maven-settings.js';
import { findReportDirs } from './report-dirs.js';
import { filterable } from '../quarantine/filterable.js';

/** Where the stress pass finds a first-pass test again: its unique ID and the fork that ran it. */
export interface PlatformSource {
  uniqueId: string;
  fork: ForkConfig;
  forkFile: string;
}

/** The first pass, and the platform source of each (task, suite, XML name, occurrence). */
export interface MavenFirstPass {
  first: FirstPass;
  sources: Map<string, PlatformSource>;
}

/** The key of `sources`. */
export function sourceKey(task: string, suite: string, xmlName: string, occurrence: number): string {
  return JSON.stringify([task, suite, xmlName, occurrence]);
}

/** What the Maven first pass needs. */
export interface MavenFirstPassDeps {
  runMaven: GradleRunner;
  executable: string;
  setup: MavenSetup;
  projectDir: string;
  env: NodeJS.ProcessEnv;
  logger: Logger;
}

/** The arguments added to the user's: the listener jar and its log folder, and the excludes file. */
export function firstPassArgs(userArgs: readonly string[], setup: MavenSetup, excludesFile: string | null): string[] {
  const prefix = '-Dmaven.test.additionalClasspath=';
  // The user's own additional classpath keeps its elements; ours is appended.
  const own = userArgs.find((a) => a.startsWith(prefix));
  const args = userArgs.filter((a) => a !== own);
  args.push(own ? `${own},${setup.runnerJar}` : `${prefix}${setup.runnerJar}`, `-DstressGate.log=${setup.forkLogDir}`);
  if (excludesFile) args.push(`-Dsurefire.excludesFile=${excludesFile}`, `-Dfailsafe.excludesFile=${excludesFile}`);
  return args;
}

/**
 * Pure: Surefire exclude patterns (`Class#method`) for skipped tests that are whole methods.
 * A `@Nested` test keeps its own class (`Outer$Inner#method`): the JUnit Platform provider
 * matches a method against the class that declares it, and the outer class's pattern would miss
 * it (and exclude a method of the same name in the outer class). One invocation of a
 * parameterised method cannot be excluded by a pattern: it runs, and its result is treated as skipped.
 */
export function excludePatterns(skipped: readonly TestCaseIdentity[]): string[] {
  // One pattern a line: a class name that is not a plain one (a newline, a glob) is never written (quarantine/filterable.ts).
  return skipped.filter((s) => /^[\p{L}\p{N}_$]+$/u.test(s.name) && filterable(s)).map((s) => `${s.suite}#${s.name}`);
}

/** Runs the first pass and reads its results. */
export async function runMavenFirstPass(userArgs: readonly string[], o: BuildFirstPassOptions, deps: MavenFirstPassDeps): Promise<MavenFirstPass> {
  const started = o.now();
  const patterns = excludePatterns(o.skippedTests);
  const excludesFile = patterns.length ? path.join(deps.setup.workDir, 'excludes.txt') : null;
  if (excludesFile) await writeFile(excludesFile, `${patterns.join('\n')}\n`);
  const run = await deps.runMaven(deps.executable, firstPassArgs(userArgs, deps.setup, excludesFile), {
    cwd: deps.projectDir,
    env: deps.env,
    output: 'inherit',
    logger: deps.logger,
    ...(o.signal ? { signal: o.signal } : {}),
  });
  try {
    const { manifest, results, sources } = await readMavenResults(started, deps);
    return { first: summarizeFirstPass(run, started, { manifest, manifestProblem: null, results }, o), sources };
  } catch (e) {
    deps.logger.child({ module: 'maven-first-pass' }).error({ err: e }, 'reading the first pass failed');
    return { first: unreadFirstPass(run, started, (e as Error).message ?? String(e)), sources: new Map() };
  }
}

async function readMavenResults(started: number, deps: MavenFirstPassDeps) {
  const out: ReadResults = { tasks: [], errors: [], notes: [] };
  const xmlByTask = new Map<string, { module: string; dir: string; cases: XmlTestCase[] }>();
  for (const r of await findReportDirs(deps.projectDir)) {
    const module = modulePath(deps.projectDir, r.moduleDir);
    const task = mavenTask(module, r.plugin);
    // Only the per-class reports: Failsafe also writes failsafe-summary.xml there, which is not JUnit XML.
    const files = (await readTaskXml(r.dir, started)).files.filter((f) => path.basename(f).startsWith('TEST-'));
    const cases: XmlTestCase[] = [];
    for (const file of files) {
      const parsed = await readJUnitXmlFile(file);
      if (parsed.ok) cases.push(...parsed.cases);
      else out.errors.push(parsed.error);
    }
    if (files.length) xmlByTask.set(task, { module, dir: r.dir, cases });
  }
  const forks = await readForkLogs(deps.setup.forkLogDir);
  const platformByTask = new Map<string, { module: string; forks: ForkLog[] }>();
  for (const fork of forks) {
    if (!fork.config) {
      if (fork.finished.length) out.notes.push(`${fork.file}: a JUnit Platform log without its fork's configuration; its tests cannot be stressed.`);
      continue;
    }
    const moduleDir = fork.config.basedir ?? fork.config.userDir;
    const module = modulePath(deps.projectDir, moduleDir);
    const task = mavenTask(module, await pluginOf(fork, moduleDir, started));
    const entry = platformByTask.get(task) ?? { module, forks: [] };
    entry.forks.push(fork);
    platformByTask.set(task, entry);
    if (fork.malformed) out.notes.push(`${fork.file}: ${fork.malformed} malformed line(s) ignored.`);
  }
  const sources = new Map<string, PlatformSource>();
  const tasks: TaskResults[] = [];
  for (const task of [...new Set([...xmlByTask.keys(), ...platformByTask.keys()])].sort()) {
    const platform = platformByTask.get(task);
    if (!platform) {
      const xml = xmlByTask.get(task)!;
      tasks.push({ task, module: xml.module, cases: xml.cases });
      continue;
    }
    // The listener saw this task's JUnit Platform tests: its unique IDs and class names are the
    // identities (the XML may carry display names instead); the XML was still checked above.
    const cases: XmlTestCase[] = [];
    const seen = new Map<string, number>();
    for (const fork of platform.forks) {
      for (const c of platformCases(fork.finished)) {
        const { uniqueId, ...xmlCase } = c;
        cases.push(xmlCase);
        const k = JSON.stringify([c.suite, c.name]);
        const occurrence = (seen.get(k) ?? 0) + 1;
        seen.set(k, occurrence);
        sources.set(sourceKey(task, c.suite, c.name, occurrence), { uniqueId, fork: fork.config!, forkFile: fork.file });
      }
    }
    tasks.push({ task, module: platform.module, cases });
  }
  out.tasks = tasks;
  const { settings, problems } = await readSettings(deps.projectDir);
  out.notes.push(...problems.map((p) => `.mvn/stress-gate.properties: ${p}`));
  const manifest: Manifest = {
    pluginVersion: '0.1.0',
    gradleVersion: 'none (Maven)',
    rootDir: deps.projectDir,
    settings: { mode: settings.mode ?? null, serverUrl: settings.serverUrl ?? null, project: settings.project ?? null, requestTimeoutSeconds: settings.requestTimeoutSeconds ?? null, executor: null },
    testTasks: tasks.map((t) => ({ path: t.task, projectPath: t.module, name: t.task.slice(t.task.lastIndexOf(':') + 1), junitXmlDir: xmlByTask.get(t.task)?.dir ?? null })),
  };
  return { manifest, results: out, sources };
}

async function readForkLogs(dir: string): Promise<ForkLog[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.jsonl')).sort();
  const logs: ForkLog[] = [];
  for (const n of names) {
    const file = path.join(dir, n);
    logs.push(parseForkLog(await readFile(file, 'utf8'), file));
  }
  return logs;
}

/**
 * Surefire or Failsafe: both forks look alike from inside, so a fork is Failsafe's when a class it
 * ran has a fresh report in the module's failsafe-reports and none in its surefire-reports.
 */
async function pluginOf(fork: ForkLog, moduleDir: string, since: number): Promise<'surefire' | 'failsafe'> {
  const fresh = (file: string) => stat(file).then((s) => s.mtimeMs >= Math.floor(since / 1000) * 1000, () => false);
  for (const top of new Set(fork.finished.map((f) => f.className.replace(/\$.*$/, '')))) {
    const inFailsafe = await fresh(path.join(moduleDir, 'target', 'failsafe-reports', `TEST-${top}.xml`));
    if (inFailsafe && !(await fresh(path.join(moduleDir, 'target', 'surefire-reports', `TEST-${top}.xml`)))) return 'failsafe';
  }
  return 'surefire';
}
