import { describe, expect, it } from '@jest/globals';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PluginMissingError } from '../base/errors.js';
import { assignIdentities } from '../first-pass/test-case-result.js';
import { runnerJars } from '../jvm/runner-jars.js';
import type { PlatformResult } from '../jvm/runner-log.js';
import { prepareGradle } from './gradle-setup.js';
import { applyPlatformNames, namePlatformCases, platformLogDir, readPlatformResults, taskLogDirName } from './platform-identities.js';
import { gradleUnits } from './gradle-locator.js';

const A = 'com.shop.AdditionTest';
const r = (id: string, legacyName: string, displayName: string, className = A): PlatformResult => ({ uniqueId: id, legacyName, name: legacyName, className, displayName, status: 'success', durationMs: 1, failure: null });
const x = (suite: string, name: string) => ({ suite, name, status: 'success' as const, durationMs: 1 });
// What the listener records for AdditionTest: three invocations with a custom name, a @DisplayName method, a @Nested test.
const results = [
  r('u1', 'adds(int, int, int)[1]', '1 + 1 = 2'),
  r('u2', 'adds(int, int, int)[2]', '2 + 2 = 4'),
  r('u3', 'adds(int, int, int)[3]', '3 + 3 = 6'),
  r('u4', 'zero()', 'zero is neutral ✓'),
  r('u5', 'negates()', 'negates()', `${A}$Negative`),
];

describe('JUnit Platform identities under Gradle', () => {
  it('names the plugin\'s folders as the plugin does', () => {
    expect(platformLogDir('/w/manifest.json')).toBe('/w/manifest.platform');
    expect(taskLogDirName(':app:test')).toBe('app_test');
    expect(taskLogDirName(':test')).toBe('test');
  });

  it('names XML cases (display names, as useJUnitPlatform() may write them) from the platform and keeps the XML name for the stress pass', () => {
    const xml = [x(A, '1 + 1 = 2'), x(A, '2 + 2 = 4'), x(A, '3 + 3 = 6'), x(A, 'zero is neutral ✓'), x(`${A}$Negative`, 'negates()')];
    const { tasks, notes } = applyPlatformNames([{ task: ':app:test', module: ':app', cases: xml }], new Map([[':app:test', results]]));
    expect(notes).toEqual([]);
    const ids = assignIdentities(gradleUnits(tasks, new Map()));
    expect(ids.map((c) => [c.suite, c.name, c.source.xmlName])).toEqual([
      [A, 'adds(int, int, int)[1]', '1 + 1 = 2'],
      [A, 'adds(int, int, int)[2]', '2 + 2 = 4'],
      [A, 'adds(int, int, int)[3]', '3 + 3 = 6'],
      [A, 'zero', 'zero is neutral ✓'],
      [`${A}$Negative`, 'negates', 'negates()'],
    ]);
  });

  it('matches XML that already carries legacy names, and takes a repeated display name\'s results in order', () => {
    const same = [r('a', 'f(int)[1]', 'same'), r('b', 'f(int)[2]', 'same'), r('c', 'g()', 'g()')];
    const { cases, unmatched } = namePlatformCases([x(A, 'same'), x(A, 'same'), x(A, 'g')], same);
    expect(unmatched).toBe(0);
    expect(cases.map((c) => c.identityName)).toEqual(['f(int)[1]', 'f(int)[2]', 'g']);
  });

  it('takes the platform\'s results as the cases when the XML speaks none of its names (JUnit 4\'s JUnitPlatform runner on Gradle 4.4)', () => {
    // Recorded from Gradle 4.4.1 running @RunWith(JUnitPlatform.class): the classes are mangled.
    const mangled = [x('int, int, int)', '1 + 1 = 2(adds'), x('int, int, int)', '2 + 2 = 4(adds'), x('int, int, int)', '3 + 3 = 6(adds'), x('AdditionTest', 'zero is neutral ✓'), x('Negative', 'negates()')];
    const { tasks, notes } = applyPlatformNames([{ task: ':test', module: ':', cases: mangled }], new Map([[':test', results]]));
    expect(notes).toEqual([expect.stringContaining(':test: its JUnit XML does not carry the JUnit Platform\'s class and test names')]);
    expect(assignIdentities(gradleUnits(tasks, new Map())).map((c) => `${c.module} ${c.suite} ${c.name}`)).toEqual([
      `: ${A} adds(int, int, int)[1]`,
      `: ${A} adds(int, int, int)[2]`,
      `: ${A} adds(int, int, int)[3]`,
      `: ${A} zero`,
      `: ${A}$Negative negates`,
    ]);
  });

  it('leaves a task without platform results alone, and keeps unmatched XML names with a note when only some match', () => {
    const junit4 = { task: ':lib:test', module: ':lib', cases: [x('com.lib.OldTest', 'works')] };
    const mixed = { task: ':app:test', module: ':app', cases: [x(A, 'zero is neutral ✓'), x('com.shop.Junit4Test', 'plain')] };
    const { tasks, notes } = applyPlatformNames([junit4, mixed], new Map([[':app:test', results]]));
    expect(tasks[0]).toBe(junit4);
    expect(tasks[1]!.cases.map((c) => c.identityName ?? c.name)).toEqual(['zero', 'plain']);
    expect(notes).toEqual([':app:test: 1 test result(s) not matched to a JUnit Platform test; they keep the name in the JUnit XML.']);
  });

  it('reads every JVM\'s log of each task folder, and counts malformed lines in a note', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'platform-ids-'));
    const manifest = path.join(dir, 'manifest.json');
    await mkdir(path.join(dir, 'manifest.platform', 'app_test'), { recursive: true });
    const line = (o: object) => `${JSON.stringify(o)}\n`;
    await writeFile(path.join(dir, 'manifest.platform', 'app_test', 'fork-1.jsonl'), line({ event: 'fork', javaHome: '/j' }) + line({ event: 'finished', uniqueId: 'u4', legacyName: 'zero()', className: A, displayName: 'z', result: 'SUCCESS', durationMs: 3 }));
    await writeFile(path.join(dir, 'manifest.platform', 'app_test', 'fork-2.jsonl'), `${line({ event: 'finished', uniqueId: 'u5', legacyName: 'negates()', className: A, displayName: 'n', result: 'FAILURE', durationMs: 2 })}{broken\n`);
    const read = await readPlatformResults(manifest, [':app:test', ':lib:test']);
    expect([...read.byTask.keys()]).toEqual([':app:test']);
    expect(read.byTask.get(':app:test')!.map((p) => [p.uniqueId, p.status])).toEqual([['u4', 'success'], ['u5', 'failure']]);
    expect(read.notes).toEqual([expect.stringMatching(/fork-2\.jsonl: 1 malformed line\(s\) ignored\.$/)]);
  });
});

describe('the runner jars (the JUnit Platform listener handed to the Gradle plugin)', () => {
  it('are the package\'s copies, or STRESS_GATE_RUNNER_JAR and its sibling agent; a missing jar is a broken install, named', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'runner-jars-'));
    await expect(runnerJars({}, root)).rejects.toThrow(PluginMissingError);
    const jar = path.join(root, 'jvm-runner', 'target', 'stress-gate-jvm-runner.jar');
    await mkdir(path.dirname(jar), { recursive: true });
    await writeFile(jar, '');
    await expect(runnerJars({}, root)).rejects.toThrow(/stress-gate-jvm-runner-agent\.jar does not exist/);
    await writeFile(path.join(path.dirname(jar), 'stress-gate-jvm-runner-agent.jar'), '');
    expect(await runnerJars({}, root)).toEqual({ runner: jar, agent: path.join(path.dirname(jar), 'stress-gate-jvm-runner-agent.jar') });
    await expect(runnerJars({ STRESS_GATE_RUNNER_JAR: path.join(root, 'nope.jar') }, root)).rejects.toThrow(/nope\.jar does not exist .*STRESS_GATE_RUNNER_JAR/);
  });

  it('is passed to every Gradle invocation as -PstressGate.junitPlatformListener', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'platform-setup-'));
    await mkdir(path.join(root, 'gradle-plugin'), { recursive: true });
    await writeFile(path.join(root, 'gradle-plugin', 'stress-gate-gradle-plugin.jar'), '');
    await writeFile(path.join(root, 'gradle-plugin', 'stress-gate.init.gradle'), "classpath files('@PLUGIN_JAR@')");
    const jar = path.join(root, 'runner.jar');
    await writeFile(jar, '');
    await writeFile(path.join(root, 'stress-gate-jvm-runner-agent.jar'), '');
    expect((await prepareGradle({ STRESS_GATE_RUNNER_JAR: jar }, root)).baseArgs.at(-1)).toBe(`-PstressGate.junitPlatformListener=${jar}`);
  });
});
