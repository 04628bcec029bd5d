// The JSON-lines logs the stress gate's JVM side writes (orchestrator/jvm-runner): the JUnit
// Platform listener's in the first pass (a fork line, then a started and a finished line per
// test), the fork agent's (a fork line, then a class line per project class the fork loaded) and
// the stress runner's (one repetition: started and finished lines, failures included). Pure
// parsing; malformed lines are counted, not thrown.
import type { XmlExecution, XmlTestCase } from '../first-pass/junit-xml.js';

/** How the build started a test JVM, as seen from inside it. */
export interface ForkConfig {
  javaHome: string;
  userDir: string;
  basedir: string | null;
  testClassPath: string;
  /**
   * The fork's real class path as the JVM loaded it (Surefire's manifest-only jar expanded), without
   * the build tool's own harness jars: what the build added at run time (a JUnit engine and
   * launcher Surefire resolved itself) included. Absent in logs of an older runner.
   */
  runtimeClassPath?: string;
  /** The harness entries left out of runtimeClassPath (Surefire's booter and provider jars). */
  harnessClassPath?: string;
  /** The entries of runtimeClassPath that did not exist while the fork ran (target/classes of a module without main sources). */
  absentClassPath?: string;
  launcherJar: string;
  inputArguments: string[];
  systemProperties: Record<string, string>;
  environment: Record<string, string>;
  configurationParameters: Record<string, string>;
  /** Written by the fork agent (Maven's JUnit 4, JUnit 4.7 and TestNG providers), not the listener. */
  agent?: boolean;
  /** surefire or failsafe (the agent's). */
  plugin?: string;
  /** The Surefire provider that ran the fork (the agent's): junit4, junit47, testng, junit-platform. */
  provider?: string;
}

/** One test as a log names it; the platform's ids are null for JUnit 4 and TestNG. */
export interface RunnerTest {
  className: string;
  name: string;
  uniqueId: string | null;
  legacyName: string | null;
  displayName: string | null;
}

/** A failure as the runner caught it: the throwable's class, message and whole stack trace. */
export interface RunnerFailure {
  type: string | null;
  message: string | null;
  trace: string | null;
}

/** A test's result in the log, one per execution. */
export interface RunnerResult extends RunnerTest {
  status: XmlExecution['status'];
  durationMs: number;
  failure: RunnerFailure | null;
}

/** A JUnit Platform test: its unique ID is known. */
export type PlatformTest = RunnerTest & { uniqueId: string; legacyName: string };
/** A JUnit Platform result. */
export type PlatformResult = RunnerResult & { uniqueId: string; legacyName: string };

/** A repetition JVM as its runner saw itself, before any test ran. */
export interface JvmFacts {
  javaHome: string;
  userDir: string;
  classPath: string;
  inputArguments: string[];
  systemProperties: Record<string, string>;
  /** The environment but its secret-looking variables (all of it, from an older runner). */
  environment: Record<string, string>;
  /** Secret-looking variables (secret-name.ts) by the SHA-256 of their values, never the values. */
  secretEnvironment?: Record<string, string>;
}

/** A selection the runner could not run, in its own words (`selector` null: nothing could run). */
export interface Unrunnable {
  selector: string | null;
  cause: string;
}

/** What one log file says. */
export interface RunnerLog {
  file: string;
  config: ForkConfig | null;
  /** The stress runner's description of its own JVM. */
  jvm: JvmFacts | null;
  unrunnable: Unrunnable[];
  started: RunnerTest[];
  finished: RunnerResult[];
  /** Project classes the fork loaded (the agent's log). */
  classes: string[];
  /** When the stress runner's main began, its tests were discovered and they finished (epoch ms). */
  phases: RunnerPhases | null;
  malformed: number;
}

/** The stress runner's phases (its `phases` line, epoch ms). */
export interface RunnerPhases {
  startedAt: number;
  discoveredAt: number;
  finishedAt: number;
}

const STATUS: Record<string, XmlExecution['status']> = { SUCCESS: 'success', FAILURE: 'failure', SKIPPED: 'skipped' };
const isString = (x: unknown): x is string => typeof x === 'string';
const stringOrNull = (x: unknown): string | null => (isString(x) ? x : null);

/** Pure: parses the log text of `file`. */
export function parseRunnerLog(text: string, file: string): RunnerLog {
  const log: RunnerLog = { file, config: null, jvm: null, unrunnable: [], started: [], finished: [], classes: [], phases: null, malformed: 0 };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let e: Record<string, unknown>;
    try {
      e = JSON.parse(line) as Record<string, unknown>;
    } catch {
      log.malformed++;
      continue;
    }
    if (e['event'] === 'fork') {
      log.config = e as unknown as ForkConfig;
      continue;
    }
    if (e['event'] === 'jvm') {
      log.jvm = e as unknown as JvmFacts;
      continue;
    }
    if (e['event'] === 'phases') {
      const [startedAt, discoveredAt, finishedAt] = [e['startedAt'], e['discoveredAt'], e['finishedAt']];
      if (typeof startedAt === 'number' && typeof discoveredAt === 'number' && typeof finishedAt === 'number') log.phases = { startedAt, discoveredAt, finishedAt };
      continue;
    }
    if (e['event'] === 'unrunnable' && isString(e['cause'])) {
      log.unrunnable.push({ selector: stringOrNull(e['selector']), cause: e['cause'] });
      continue;
    }
    if (e['event'] === 'class' && isString(e['className'])) {
      log.classes.push(e['className']);
      continue;
    }
    // The listener's older lines carry no `name`: its legacy name is the name.
    const name = isString(e['name']) ? e['name'] : e['legacyName'];
    const test: RunnerTest | null =
      isString(e['className']) && isString(name)
        ? { className: e['className'], name, uniqueId: stringOrNull(e['uniqueId']), legacyName: stringOrNull(e['legacyName']), displayName: stringOrNull(e['displayName']) }
        : null;
    const status = isString(e['result']) ? STATUS[e['result']] : undefined;
    if (test && e['event'] === 'started') log.started.push(test);
    else if (test && e['event'] === 'finished' && status) {
      const durationMs = typeof e['durationMs'] === 'number' && e['durationMs'] >= 0 ? e['durationMs'] : 0;
      log.finished.push({ ...test, status, durationMs, failure: failureOf(e['failure']) });
    } else log.malformed++;
  }
  return log;
}

/** A `failure` object of a log line ({type, message, trace}), or null. */
export function failureOf(x: unknown): RunnerFailure | null {
  if (typeof x !== 'object' || x === null) return null;
  const f = x as Record<string, unknown>;
  return { type: stringOrNull(f['type']), message: stringOrNull(f['message']), trace: stringOrNull(f['trace']) };
}

/** The platform results of a log (those with a unique ID). */
export function platformResults(results: readonly RunnerResult[]): PlatformResult[] {
  return results.filter((r): r is PlatformResult => r.uniqueId !== null && r.legacyName !== null);
}

/**
 * The identity name of a platform test: its legacy reporting name as Surefire writes it in the
 * JUnit XML by default, i.e. without the `()` of a plain method (`adds`), and with the invocation
 * index of a test template or a dynamic test (`adds(int, int)[3]`, `greetsEach()[2]`, `f()[1][2]`).
 */
export function identityName(legacyName: string): string {
  return legacyName.endsWith('()') ? legacyName.slice(0, -2) : legacyName;
}

/** A platform test read as a test case, with its unique ID. */
export interface PlatformCase extends XmlTestCase {
  uniqueId: string;
}

/**
 * Pure: the results grouped by unique ID in order of first appearance. A unique ID that finished
 * more than once was rerun by the build (Surefire's rerunFailingTestsCount): one case whose
 * status is the last execution's when any passed (flaky), else failure.
 */
export function platformCases(results: readonly PlatformResult[]): PlatformCase[] {
  const byId = new Map<string, PlatformResult[]>();
  for (const r of results) byId.set(r.uniqueId, [...(byId.get(r.uniqueId) ?? []), r]);
  return [...byId.values()].map((runs) => {
    const first = runs[0]!;
    const base = { uniqueId: first.uniqueId, suite: first.className, name: identityName(first.legacyName) };
    if (runs.length === 1) return { ...base, status: first.status, durationMs: first.durationMs };
    const executions = runs.map((r) => ({ status: r.status, durationMs: r.durationMs }));
    const lastPass = [...runs].reverse().find((r) => r.status === 'success');
    const firstFail = runs.find((r) => r.status === 'failure');
    const status = lastPass ? 'success' : firstFail ? 'failure' : 'skipped';
    return { ...base, status, durationMs: (lastPass ?? firstFail ?? first).durationMs, executions };
  });
}
