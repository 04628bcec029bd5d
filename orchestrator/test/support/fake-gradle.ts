// A fake Gradle for flow tests: writes the manifest and JUnit XML the plugin and Gradle would.
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { GradleRunner } from '../../src/gradle/run-gradle.js';
import type { GradleSetup } from '../../src/gradle/gradle-setup.js';
import type { StressPlan } from '../../src/repetitions/stress-plan.js';

export interface FakeCase {
  suite: string;
  name: string;
  status?: 'success' | 'failure' | 'skipped';
  seconds?: number;
}

export interface FakeGradle {
  runner: GradleRunner;
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
  repStatus?: (name: string, k: number) => 'success' | 'failure' | 'missing';
  settings?: Record<string, unknown>;
}): Promise<FakeGradle> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fake-gradle-'));
  const calls: string[][] = [];
  const xmlDir = path.join(dir, 'app/build/test-results/test');
  const runner: GradleRunner = async (_exe, args) => {
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
      return { exitCode: options.exitCode ?? 0, interrupted: false, wallClockMs: 10 };
    }
    const plan = JSON.parse(await readFile(planFile, 'utf8')) as StressPlan;
    for (const task of plan.tasks) {
      const max = Math.max(...task.candidates.map((c) => c.repetitions));
      for (let k = 1; k <= max; k++) {
        const cases: FakeCase[] = [];
        for (const c of task.candidates.filter((x) => x.repetitions >= k)) {
          const status = options.repStatus?.(c.name, k) ?? 'success';
          if (status !== 'missing') cases.push({ suite: c.suite, name: c.name, status });
        }
        const repDir = path.join(plan.resultsDir, task.id, `rep-${k}`);
        await mkdir(repDir, { recursive: true });
        await writeFile(path.join(repDir, 'TEST-x.xml'), junitXml(cases));
      }
    }
    return { exitCode: 0, interrupted: false, wallClockMs: 20 };
  };
  const setup = async (): Promise<GradleSetup> => {
    const workDir = await mkdtemp(path.join(os.tmpdir(), 'fake-setup-'));
    const manifest = path.join(workDir, 'manifest.json');
    const initScript = path.join(workDir, 'init.gradle');
    return { workDir, manifest, initScript, baseArgs: ['-I', initScript, `-PstressGate.manifest=${manifest}`] };
  };
  return { runner, calls, setup, dir };
}
