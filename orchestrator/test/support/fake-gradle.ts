// A fake Gradle for flow tests: writes the manifest and JUnit XML the plugin and Gradle would.
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BuildRunner } from '../../src/build-tool/run-build.js';
import type { GradleSetup } from '../../src/gradle/gradle-setup.js';
import type { TaskPlan } from '../../src/gradle/task-plan.js';
import { repetitionTaskPath } from '../../src/gradle/read-repetitions.js';
import { resultsLogPath } from '../../src/gradle/results-log.js';

export interface FakeCase {
  suite: string;
  name: string;
  status?: 'success' | 'failure' | 'skipped';
  seconds?: number;
}

export interface FakeGradle {
  runner: BuildRunner;
  calls: string[][];
  setup: () => Promise<GradleSetup>;
  dir: string;
}

const esc = (s: string) => s.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');

/** JUnit XML of `cases`. */
export function junitXml(cases: FakeCase[]): string {
  const body = cases
    .map((c) => {
      const inner = c.status === 'failure' ? '<failure message="boom">boom</failure>' : c.status === 'skipped' ? '<skipped/>' : '';
      return `<testcase name="${esc(c.name)}" classname="${esc(c.suite)}" time="${c.seconds ?? 0.005}">${inner}</testcase>`;
    })
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="x">\n${body}\n</testsuite>\n`;
}

/**
 * A Gradle whose first pass of :app:test reports `firstPass` (or writes `rawXml` verbatim) and
 * exits `exitCode`, and whose stress pass gives repetition k of a candidate `repStatus(name, k)`.
 */
export async function fakeGradle(options: {
  firstPass: FakeCase[];
  exitCode?: number;
  rawXml?: string;
  /** 'crash': the repetition's JVM died while the test ran (started in the log, no XML for the rep). */
  repStatus?: (name: string, k: number) => 'success' | 'failure' | 'missing' | 'crash';
  settings?: Record<string, unknown>;
  /** Runs after each invocation has written its files: a place to break them. */
  after?: (kind: 'first' | 'stress', args: string[]) => Promise<void>;
  /** The stress pass writes no results log (a plugin that reported nothing). */
  noStressLog?: boolean;
}): Promise<FakeGradle> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fake-gradle-'));
  const calls: string[][] = [];
  const xmlDir = path.join(dir, 'app/build/test-results/test');
  const runner: BuildRunner = async (_exe, args) => {
    calls.push(args);
    const prop = (name: string) => args.find((a) => a.startsWith(`-PstressGate.${name}=`))?.split('=').slice(1).join('=');
    const manifest = prop('manifest')!;
    await writeFile(
      manifest,
      JSON.stringify({
        pluginVersion: '0.1.0',
        gradleVersion: '4.4.1',
        rootDir: dir,
        settings: { mode: null, serverUrl: null, project: null, requestTimeoutSeconds: null, ...options.settings },
        testTasks: [{ path: ':app:test', projectPath: ':app', name: 'test', junitXmlDir: xmlDir }],
      }),
    );
    const planFile = prop('plan');
    if (!planFile) {
      await mkdir(xmlDir, { recursive: true });
      await writeFile(path.join(xmlDir, 'TEST-x.xml'), options.rawXml ?? junitXml(options.firstPass));
      await options.after?.('first', args);
      return { exitCode: options.exitCode ?? 0, interrupted: false, wallClockMs: 10 };
    }
    const plan = JSON.parse(await readFile(planFile, 'utf8')) as TaskPlan;
    const log: string[] = [];
    for (const task of plan.tasks) {
      const max = Math.max(...task.candidates.map((c) => c.repetitions));
      for (let k = 1; k <= max; k++) {
        const repTask = repetitionTaskPath(task.path, task.id, k);
        const cases: FakeCase[] = [];
        let crashed = false;
        for (const c of task.candidates.filter((x) => x.repetitions >= k)) {
          if (crashed) break; // the JVM is gone: nothing after the crash runs
          const status = options.repStatus?.(c.name, k) ?? 'success';
          if (status === 'missing') continue;
          log.push(JSON.stringify({ task: repTask, event: 'started', className: c.suite, name: c.name }));
          if (status === 'crash') {
            crashed = true;
            continue;
          }
          cases.push({ suite: c.suite, name: c.name, status });
          log.push(JSON.stringify({ task: repTask, className: c.suite, name: c.name, result: status.toUpperCase(), durationMs: 5 }));
        }
        const repDir = path.join(plan.resultsDir, task.id, `rep-${k}`);
        await mkdir(repDir, { recursive: true });
        // Gradle writes a class's XML when the class ends: a JVM that died leaves none.
        if (!crashed) await writeFile(path.join(repDir, 'TEST-x.xml'), junitXml(cases));
      }
    }
    if (!options.noStressLog) await writeFile(resultsLogPath(prop('manifest')!), log.map((l) => `${l}\n`).join(''));
    await options.after?.('stress', args);
    return { exitCode: 0, interrupted: false, wallClockMs: 20 };
  };
  const setup = async (): Promise<GradleSetup> => {
    const workDir = await mkdtemp(path.join(os.tmpdir(), 'fake-setup-'));
    const manifest = path.join(workDir, 'manifest.json');
    const initScript = path.join(workDir, 'init.gradle');
    return { workDir, manifest, initScript, runnerJar: path.join(workDir, 'runner.jar'), baseArgs: ['-I', initScript, `-PstressGate.manifest=${manifest}`] };
  };
  return { runner, calls, setup, dir };
}
