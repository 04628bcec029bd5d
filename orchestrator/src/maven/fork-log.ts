// The listener's log of one JUnit Platform run (a Surefire/Failsafe fork in the first pass, or one
// stress repetition): JSON lines, the fork's configuration first (first pass only), then a
// `started` and a `finished` line per test. Pure parsing; malformed lines are counted, not thrown.
import type { XmlExecution, XmlTestCase } from '../first-pass/junit-xml.js';

/** How Surefire started the fork, as seen from inside it. */
export interface ForkConfig {
  javaHome: string;
  userDir: string;
  basedir: string | null;
  testClassPath: string;
  launcherJar: string;
  inputArguments: string[];
  systemProperties: Record<string, string>;
  environment: Record<string, string>;
  configurationParameters: Record<string, string>;
}

/** One test as the platform names it. */
export interface PlatformTest {
  uniqueId: string;
  legacyName: string;
  className: string;
  displayName: string;
}

/** A test's result in the log, one per execution. */
export interface PlatformResult extends PlatformTest {
  status: XmlExecution['status'];
  durationMs: number;
}

/** What one log file says. */
export interface ForkLog {
  file: string;
  config: ForkConfig | null;
  started: PlatformTest[];
  finished: PlatformResult[];
  malformed: number;
}

const STATUS: Record<string, XmlExecution['status']> = { SUCCESS: 'success', FAILURE: 'failure', SKIPPED: 'skipped' };
const isString = (x: unknown): x is string => typeof x === 'string';

/** Pure: parses the log text of `file`. */
export function parseForkLog(text: string, file: string): ForkLog {
  const log: ForkLog = { file, config: null, started: [], finished: [], malformed: 0 };
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
    const test = isString(e['uniqueId']) && isString(e['legacyName']) && isString(e['className'])
      ? { uniqueId: e['uniqueId'], legacyName: e['legacyName'], className: e['className'], displayName: isString(e['displayName']) ? e['displayName'] : '' }
      : null;
    const status = isString(e['result']) ? STATUS[e['result']] : undefined;
    if (test && e['event'] === 'started') log.started.push(test);
    else if (test && e['event'] === 'finished' && status) {
      const durationMs = typeof e['durationMs'] === 'number' && e['durationMs'] >= 0 ? e['durationMs'] : 0;
      log.finished.push({ ...test, status, durationMs });
    } else log.malformed++;
  }
  return log;
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

/** Tests that started and never finished: their JVM died while running them. */
export function crashedTests(log: ForkLog): PlatformTest[] {
  const done = new Set(log.finished.map((f) => f.uniqueId));
  return log.started.filter((s) => !done.has(s.uniqueId));
}
