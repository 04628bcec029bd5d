import { describe, expect, it } from '@jest/globals';
import { resolveConfig } from '../config/config.js';
import { configurationParameters, jvmOfFork } from '../jvm/fork-jvm.js';
import type { ForkConfig } from '../jvm/runner-log.js';
import { jvmCommand, requestText, RUNNER_MAIN } from '../jvm/runner-request.js';
import type { Selection } from '../jvm/stress-target.js';
import { excludePatterns, firstPassArgs, MavenLocator } from './maven-first-pass.js';
import { mavenIdentityModule, mavenUnit, modulePath } from './maven-setup.js';
import { parseSettings } from './maven-settings.js';

const fork: ForkConfig = {
  javaHome: '/jdk',
  userDir: '/r/app',
  basedir: '/r/app',
  testClassPath: '/r/app/target/test-classes:/m2/jupiter.jar:/runner.jar:',
  launcherJar: '/m2/launcher.jar',
  inputArguments: ['-Dfrom.argLine=yes', '-Xmx256m', '-javaagent:/pkg/jvm-runner/target/stress-gate-jvm-runner-agent.jar=/w/forks|surefire'],
  systemProperties: { 'java.version': '17', 'user.dir': '/r/app', 'stressGate.log': '/tmp/x', 'app.dir': '/r/app/target', 'multi.line': 'a\nb\\c', 'surefire.test.class.path': 'cp', 'maven.surefire.debug': '-javaagent:…' },
  environment: { EXAMPLE_ENV: 'x', PATH: '/bin' },
  configurationParameters: { 'app.dir': '/r/app/target', 'junit.jupiter.execution.parallel.enabled': 'true' },
};

describe('Maven modules and tasks', () => {
  it('names a module by its directory relative to the reactor root, Gradle style', () => {
    expect(modulePath('/r', '/r')).toBe(':');
    expect(modulePath('/r', '/r/core')).toBe(':core');
    expect(modulePath('/r', '/r/services/billing')).toBe(':services:billing');
    expect(mavenUnit(':core', 'surefire')).toBe(':core:test');
    expect(mavenUnit(':core', 'failsafe')).toBe(':core:integration-test');
    expect(mavenUnit(':', 'surefire')).toBe(':test');
    // A module's Surefire tests are named by the module, its Failsafe tests by the module's integration-test phase.
    expect(mavenIdentityModule(':core', 'surefire')).toBe(':core');
    expect(mavenIdentityModule(':', 'surefire')).toBe(':');
    expect(mavenIdentityModule(':core', 'failsafe')).toBe(':core:integration-test');
    expect(mavenIdentityModule(':', 'failsafe')).toBe(':integration-test');
  });
});

describe('the first pass arguments', () => {
  const setup = { workDir: '/w', runnerJar: '/runner.jar', agentJar: '/a b/agent.jar', forkLogDir: '/w/forks' };
  const agent = (plugin: string) => `"-javaagent:/a b/agent.jar=/w/forks|${plugin}"`;
  it('puts the listener on the fork classpath and the agent on its command line, after the user\'s own values', () => {
    expect(firstPassArgs(['-o', 'test'], setup, null)).toEqual([
      '-o', 'test', '-Dmaven.test.additionalClasspath=/runner.jar', `-Dmaven.surefire.debug=${agent('surefire')}`, `-Dmaven.failsafe.debug=${agent('failsafe')}`, '-DstressGate.log=/w/forks',
    ]);
    expect(firstPassArgs(['-Dmaven.test.additionalClasspath=/a.jar', 'verify', '-Dmaven.surefire.debug=true', '-Dmaven.failsafe.debug=-Xss2m'], setup, '/w/ex.txt')).toEqual([
      'verify',
      '-Dmaven.test.additionalClasspath=/a.jar,/runner.jar',
      `-Dmaven.surefire.debug=-agentlib:jdwp=transport=dt_socket,server=y,suspend=y,address=localhost:5005 ${agent('surefire')}`,
      `-Dmaven.failsafe.debug=-Xss2m ${agent('failsafe')}`,
      '-DstressGate.log=/w/forks',
      '-Dsurefire.excludesFile=/w/ex.txt',
      '-Dfailsafe.excludesFile=/w/ex.txt',
    ]);
  });
  it('excludes whole skipped methods by pattern; one invocation cannot be, it runs and counts as skipped', () => {
    expect(excludePatterns([
      { module: ':app', suite: 'com.x.ATest', name: 'plain' },
      { module: ':app', suite: 'com.x.ATest$Inner', name: 'nested' },
      { module: ':app', suite: 'com.x.ATest', name: 'adds(int)[2]' },
    ])).toEqual(['com.x.ATest#plain', 'com.x.ATest$Inner#nested']);
  });
});

describe('one repetition JVM', () => {
  it('starts as the fork did: its java, argLine (without the gate\'s agent), test classpath (+ the launcher), working directory and environment', () => {
    const cmd = jvmCommand(jvmOfFork(fork, true), '/runner.jar', '/w/req');
    expect(cmd).toEqual({
      file: '/jdk/bin/java',
      args: ['-Dfrom.argLine=yes', '-Xmx256m', '-cp', '/r/app/target/test-classes:/m2/jupiter.jar:/runner.jar:/m2/launcher.jar', RUNNER_MAIN, '/w/req'],
      cwd: '/r/app',
      env: { EXAMPLE_ENV: 'x', PATH: '/bin' },
    });
    expect(jvmCommand(jvmOfFork(fork, false), '/other-runner.jar', '/w/req').args).toContain('/r/app/target/test-classes:/m2/jupiter.jar:/runner.jar:/other-runner.jar');
  });
  it('starts with the fork\'s real class path when the fork reported it: what Surefire added at run time (the Jupiter engine, the launcher) included', () => {
    const real = { ...fork, runtimeClassPath: '/r/app/target/test-classes:/m2/jupiter-api.jar:/m2/launcher.jar:/m2/jupiter-engine.jar', harnessClassPath: '/m2/surefire-booter.jar' };
    expect(jvmOfFork(real, true).classpath).toEqual(['/r/app/target/test-classes', '/m2/jupiter-api.jar', '/m2/launcher.jar', '/m2/jupiter-engine.jar']);
    // The booter set java.class.path to the test class path: a test reading it sees the same.
    expect(jvmOfFork({ ...real, systemProperties: { ...real.systemProperties, 'java.class.path': '/r/app/target/test-classes' } }, true).systemProperties['java.class.path']).toBe('/r/app/target/test-classes');
  });
  it('asks the runner for the fork\'s own system properties and JUnit configuration and exactly the unique ID, one escaped line each', () => {
    const selection = { kind: 'platform' as const, uniqueId: '[engine:junit-jupiter]/[class:A]/[test-template:m(int)]/[test-template-invocation:#3]' };
    expect(requestText({ selections: [selection], configurationParameters: configurationParameters(fork), systemProperties: jvmOfFork(fork, true).systemProperties }, '/w/out.jsonl').split('\n')).toEqual([
      'kind platform',
      'out /w/out.jsonl',
      'property app.dir=/r/app/target',
      'property multi.line=a\\nb\\\\c',
      'config junit.jupiter.execution.parallel.enabled=true',
      'select [engine:junit-jupiter]/[class:A]/[test-template:m(int)]/[test-template-invocation:#3]',
      '',
    ]);
  });
  it('selects a JUnit 4 test by class and name, a TestNG one with its method and invocation; tabs and newlines escaped', () => {
    const only = (selection: Selection) => ({ selections: [selection], configurationParameters: {}, systemProperties: {} });
    expect(requestText(only({ kind: 'junit4', className: 'a.B', name: 'adds[1: x\ty]' }), '/o').split('\n')).toEqual(['kind junit4', 'out /o', 'test a.B\tadds[1: x\\ty]', '']);
    expect(requestText(only({ kind: 'testng', className: 'a.B', name: 'adds[1, 2](2)', method: 'adds', invocation: 1 }), '/o').split('\n')).toEqual(['kind testng', 'out /o', 'test a.B\tadds[1, 2](2)\tadds\t1', '']);
  });
  it('asks for every new invocation of one method in one request, in order, a repeated name once', () => {
    const sel = (name: string): Selection => ({ kind: 'junit4', className: 'a.B', name });
    expect(requestText({ selections: [sel('adds[0]'), sel('adds[1]'), sel('adds[1]')], configurationParameters: { x: 'y' }, systemProperties: {} }, '/o').split('\n')).toEqual(['kind junit4', 'out /o', 'test a.B\tadds[0]', 'test a.B\tadds[1]', '']);
  });
});

describe("a Maven case's locator", () => {
  it('says in JSON (the report, the log) which fork log ran it and how it is selected, never the fork\'s environment or properties', () => {
    const secret = { ...fork, environment: { ...fork.environment, DEPLOY_PASSWORD: 'canary-p4ss' }, systemProperties: { ...fork.systemProperties, 'db.password': 'canary-pr0p' } };
    const json = JSON.stringify({ source: { unit: ':app:test', xmlName: 'adds(int)[1]', locator: new MavenLocator(2, { fork: secret, forkFile: '/w/forks/1.jsonl', runner: 'platform', uniqueId: '[engine:junit-jupiter]/[class:A]' }) } });
    expect(JSON.parse(json).source.locator).toEqual({ occurrence: 2, runner: 'platform', forkLog: '/w/forks/1.jsonl', uniqueId: '[engine:junit-jupiter]/[class:A]' });
    expect(json).not.toContain('canary');
    expect(JSON.parse(JSON.stringify(new MavenLocator(1, null)))).toEqual({ occurrence: 1, runner: null, forkLog: null });
  });
});

describe('.mvn/stress-gate.properties', () => {
  it('reads the settings and refuses a token and unknown keys', () => {
    expect(parseSettings('# the gate\nmode = enforce\nserverUrl=https://s.example\nproject: shop\nrequestTimeoutSeconds=12\ntoken=x\ncolour=blue\n')).toEqual({
      settings: { mode: 'enforce', serverUrl: 'https://s.example', project: 'shop', requestTimeoutSeconds: 12 },
      problems: ['token: never read from a file in the repository; use STRESS_GATE_TOKEN', 'colour: unknown setting (expected mode, serverUrl, project or requestTimeoutSeconds)'],
    });
  });
});

describe('the settings file in the configuration', () => {
  const maven = { outputDir: 'target', settingsPrefix: '.mvn/stress-gate.properties: ' };
  it('comes after the flag and the environment, and names itself in errors; the report goes to target/', () => {
    const block = { mode: 'enforce', project: 'from-file' };
    expect(resolveConfig({}, { STRESS_GATE_PROJECT: 'from-env' }, block, '/r', maven)).toMatchObject({ mode: 'enforce', project: 'from-env', reportFile: '/r/target/stress-gate/report.json' });
    expect(resolveConfig({ mode: 'report' }, {}, block, '/r', maven).mode).toBe('report');
    expect(() => resolveConfig({}, {}, { mode: 'always' }, '/r', maven)).toThrow('.mvn/stress-gate.properties: mode: expected one of report, enforce, off; got "always"');
  });
});
