// The Maven first pass: the user's command as given, plus the listener on every Surefire/Failsafe
// fork's test classpath (`-Dmaven.test.additionalClasspath`), the fork agent on every fork's command
// line (`-Dmaven.surefire.debug`, `-Dmaven.failsafe.debug`: appended to the argLine, never replacing
// it) and the quarantine's excludes. Its results are the forks' listener logs (JUnit Platform
// unique IDs) and, for tests no listener saw (JUnit 4, JUnit 4.7 and TestNG providers), the
// Surefire/Failsafe JUnit XML, each test class tied by the agent to the fork that loaded it.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TestCaseIdentity } from '#contract';
import type { BuildRunner } from '../build-tool/run-build.js';
import { summarizeFirstPass, unreadFirstPass, type FirstPass, type UnitsRead } from '../first-pass/first-pass.js';
import { readJUnitXmlFile, type XmlTestCase } from '../first-pass/junit-xml.js';
import { readTaskXml } from '../first-pass/read-results.js';
import { occurrences, ownLocator, type CaseSource, type UnitCase } from '../first-pass/test-case-result.js';
import type { BuildFirstPassOptions } from '../gate/build-adapter.js';
import { parseRunnerLog, platformCases, platformResults, type ForkConfig, type RunnerLog } from '../jvm/runner-log.js';
import type { Logger } from '../base/log.js';
import { mavenIdentityModule, modulePath, mavenUnit, type MavenSetup, type Plugin } from './maven-setup.js';
import { readSettings } from './maven-settings.js';
import { findReportDirs } from './report-dirs.js';
import { filterable } from '../quarantine/filterable.js';

/**
 * Where the stress pass finds a first-pass test again: the fork that ran it, and how to select it
 * (the JUnit Platform by unique ID; JUnit 4 and TestNG by class and name, as the provider ran it).
 */
export interface ForkSource {
  fork: ForkConfig;
  forkFile: string;
  runner: 'platform' | 'junit4' | 'testng';
  uniqueId?: string;
}

/**
 * A Maven case's locator: which occurrence of its reported name in its unit, and the fork that ran
 * it; null when no fork was seen running it (its stress pass says so, never that it passed).
 */
export class MavenLocator {
  constructor(
    readonly occurrence: number,
    readonly fork: ForkSource | null,
  ) {}

  /**
   * What the JSON report and the log say of it: never the fork's configuration, which holds the
   * fork's whole environment (a CI job's secrets) and system properties.
   */
  toJSON(): { occurrence: number; runner: ForkSource['runner'] | null; forkLog: string | null; uniqueId?: string } {
    return { occurrence: this.occurrence, runner: this.fork?.runner ?? null, forkLog: this.fork?.forkFile ?? null, ...(this.fork?.uniqueId ? { uniqueId: this.fork.uniqueId } : {}) };
  }
}

/** The Maven locator of a case's source (a Maven first pass's, never another adapter's). */
export function mavenLocator(source: CaseSource): MavenLocator {
  return ownLocator(source, MavenLocator, 'Maven');
}

/** What the Maven first pass needs. */
export interface MavenFirstPassDeps {
  runMaven: BuildRunner;
  executable: string;
  setup: MavenSetup;
  projectDir: string;
  env: NodeJS.ProcessEnv;
  logger: Logger;
}

/** Surefire's own expansion of `-Dmaven.surefire.debug=true` (a debugger on port 5005). */
const DEBUG_TRUE = '-agentlib:jdwp=transport=dt_socket,server=y,suspend=y,address=localhost:5005';

/** The arguments added to the user's: the listener jar and its log folder, the fork agent, and the excludes file. */
export function firstPassArgs(userArgs: readonly string[], setup: MavenSetup, excludesFile: string | null): string[] {
  // The user's own values keep their elements; ours are appended.
  const merged = (prefix: string, ours: string, join: string) => {
    const own = args.find((a) => a.startsWith(prefix));
    if (own) args.splice(args.indexOf(own), 1);
    const value = own?.slice(prefix.length);
    args.push(`${prefix}${value ? `${value === 'true' && join === ' ' ? DEBUG_TRUE : value}${join}${ours}` : ours}`);
  };
  const args = [...userArgs];
  merged('-Dmaven.test.additionalClasspath=', setup.runnerJar, ',');
  // Surefire splits this line into arguments: quoted, so a path with a space stays one.
  for (const plugin of ['surefire', 'failsafe']) merged(`-Dmaven.${plugin}.debug=`, `"-javaagent:${setup.agentJar}=${setup.forkLogDir}|${plugin}"`, ' ');
  args.push(`-DstressGate.log=${setup.forkLogDir}`);
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
export async function runMavenFirstPass(userArgs: readonly string[], o: BuildFirstPassOptions, deps: MavenFirstPassDeps): Promise<FirstPass> {
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
    const { settings, results } = await readMavenResults(started, deps);
    return summarizeFirstPass(run, started, { settings, unreported: null, results }, o);
  } catch (e) {
    deps.logger.child({ module: 'maven-first-pass' }).error({ err: e }, 'reading the first pass failed');
    return unreadFirstPass(run, started, (e as Error).message ?? String(e));
  }
}

async function readMavenResults(started: number, deps: MavenFirstPassDeps) {
  const out: UnitsRead = { units: [], errors: [], notes: [] };
  const xmlByUnit = new Map<string, { module: string; plugin: Plugin; dir: string; cases: XmlTestCase[] }>();
  for (const r of await findReportDirs(deps.projectDir)) {
    const module = modulePath(deps.projectDir, r.moduleDir);
    const unit = mavenUnit(module, r.plugin);
    // Only the per-class reports: Failsafe also writes failsafe-summary.xml there, which is not JUnit XML.
    const files = (await readTaskXml(r.dir, started)).files.filter((f) => path.basename(f).startsWith('TEST-'));
    const cases: XmlTestCase[] = [];
    for (const file of files) {
      const parsed = await readJUnitXmlFile(file);
      if (parsed.ok) cases.push(...parsed.cases);
      else out.errors.push(parsed.error);
    }
    if (files.length) xmlByUnit.set(unit, { module, plugin: r.plugin, dir: r.dir, cases });
  }
  const logs = await readForkLogs(deps.setup.forkLogDir);
  const forks = logs.filter((l) => !l.config?.agent);
  const agentForks = logs.filter((l) => l.config?.agent);
  const platformByUnit = new Map<string, { module: string; plugin: Plugin; forks: RunnerLog[] }>();
  for (const fork of forks) {
    if (!fork.config) {
      if (fork.finished.length) out.notes.push(`${fork.file}: a JUnit Platform log without its fork's configuration; its tests cannot be stressed.`);
      continue;
    }
    const moduleDir = fork.config.basedir ?? fork.config.userDir;
    const module = modulePath(deps.projectDir, moduleDir);
    const plugin = await pluginOf(fork, moduleDir, started);
    const unit = mavenUnit(module, plugin);
    const entry = platformByUnit.get(unit) ?? { module, plugin, forks: [] };
    entry.forks.push(fork);
    platformByUnit.set(unit, entry);
    if (fork.malformed) out.notes.push(`${fork.file}: ${fork.malformed} malformed line(s) ignored.`);
  }
  for (const unit of [...new Set([...xmlByUnit.keys(), ...platformByUnit.keys()])].sort()) {
    const platform = platformByUnit.get(unit);
    if (!platform) {
      // The JUnit 4, JUnit 4.7 or TestNG provider ran this unit: the XML names its tests, the agent its forks.
      const xml = xmlByUnit.get(unit)!;
      out.units.push({ unit, module: mavenIdentityModule(xml.module, xml.plugin), cases: xml.cases, locators: agentLocators(xml.cases, agentForksOf(agentForks, deps.projectDir, unit)) });
      continue;
    }
    // The listener saw this unit's JUnit Platform tests: its unique IDs and class names are the
    // identities (the XML may carry display names instead); the XML was still checked above. The
    // unique ID is the locator's, which selects by it.
    const cases: UnitCase[] = [];
    const forks: ForkSource[] = [];
    for (const fork of platform.forks) {
      for (const { uniqueId, ...c } of platformCases(platformResults(fork.finished))) {
        cases.push(c);
        forks.push({ uniqueId, fork: fork.config!, forkFile: fork.file, runner: 'platform' });
      }
    }
    // Occurrences across the unit's forks, in the order they were read.
    const nth = occurrences(cases);
    out.units.push({ unit, module: mavenIdentityModule(platform.module, platform.plugin), cases, locators: forks.map((f, i) => new MavenLocator(nth[i]!, f)) });
  }
  const { settings, problems } = await readSettings(deps.projectDir);
  out.notes.push(...problems.map((p) => `.mvn/stress-gate.properties: ${p}`));
  const blockSettings = { mode: settings.mode ?? null, serverUrl: settings.serverUrl ?? null, project: settings.project ?? null, requestTimeoutSeconds: settings.requestTimeoutSeconds ?? null, executor: null };
  return { settings: blockSettings, results: out };
}

async function readForkLogs(dir: string): Promise<RunnerLog[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.jsonl')).sort();
  const logs: RunnerLog[] = [];
  for (const n of names) {
    const file = path.join(dir, n);
    logs.push(parseRunnerLog(await readFile(file, 'utf8'), file));
  }
  return logs;
}

/** The agent's forks of one unit: same module (basedir) and plugin. */
function agentForksOf(agentForks: readonly RunnerLog[], projectDir: string, unit: string): RunnerLog[] {
  return agentForks.filter((l) => {
    const c = l.config!;
    return mavenUnit(modulePath(projectDir, c.basedir ?? c.userDir), c.plugin === 'failsafe' ? 'failsafe' : 'surefire') === unit;
  });
}

/**
 * Ties each XML case of a unit to the fork that loaded its class (a nested class counts as its
 * outer one's), with the provider's runner kind. A case no fork loaded has no fork in its locator:
 * the stress pass says it cannot be selected, never that it passed.
 */
function agentLocators(cases: readonly XmlTestCase[], forks: readonly RunnerLog[]): MavenLocator[] {
  const forkOfClass = new Map<string, RunnerLog>();
  for (const f of forks) for (const c of f.classes) if (!forkOfClass.has(c)) forkOfClass.set(c, f);
  const nth = occurrences(cases);
  return cases.map((c, i) => {
    const fork = forkOfClass.get(c.suite) ?? forkOfClass.get(c.suite.replace(/\$.*$/, '')) ?? (forks.length === 1 ? forks[0] : undefined);
    const provider = fork?.config?.provider;
    const ran = fork?.config && (provider === 'junit4' || provider === 'junit47' || provider === 'testng') ? { fork: fork.config, forkFile: fork.file, runner: provider === 'testng' ? ('testng' as const) : ('junit4' as const) } : null;
    return new MavenLocator(nth[i]!, ran);
  });
}

/**
 * Surefire or Failsafe: both forks look alike from inside, so a fork is Failsafe's when a class it
 * ran has a fresh report in the module's failsafe-reports and none in its surefire-reports.
 */
async function pluginOf(fork: RunnerLog, moduleDir: string, since: number): Promise<Plugin> {
  const fresh = (file: string) => stat(file).then((s) => s.mtimeMs >= Math.floor(since / 1000) * 1000, () => false);
  for (const top of new Set(fork.finished.map((f) => f.className.replace(/\$.*$/, '')))) {
    const inFailsafe = await fresh(path.join(moduleDir, 'target', 'failsafe-reports', `TEST-${top}.xml`));
    if (inFailsafe && !(await fresh(path.join(moduleDir, 'target', 'surefire-reports', `TEST-${top}.xml`)))) return 'failsafe';
  }
  return 'surefire';
}
