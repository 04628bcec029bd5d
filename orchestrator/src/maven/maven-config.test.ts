import { describe, expect, it } from '@jest/globals';
import type { ForkConfig } from './fork-log.js';
import { excludePatterns, firstPassArgs } from './maven-first-pass.js';
import { mavenTask, modulePath } from './maven-setup.js';
import { parseSettings } from './maven-settings.js';
import { resolveConfig } from '../config/config.js';
import { jvmCommand, requestText, RUNNER_MAIN } from './jvm-request.js';

const fork: ForkConfig = {
  javaHome: '/jdk',
  userDir: '/r/app',
  basedir: '/r/app',
  testClassPath: '/r/app/target/test-classes:/m2/jupiter.jar:/runner.jar:',
  launcherJar: '/m2/launcher.jar',
  inputArguments: ['-Dfrom.argLine=yes', '-Xmx256m'],
  systemProperties: { 'java.version': '17', 'user.dir': '/r/app', 'stressGate.log': '/tmp/x', 'app.dir': '/r/app/target', 'multi.line': 'a\nb\\c', 'surefire.test.class.path': 'cp' },
  environment: { EXAMPLE_ENV: 'x', PATH: '/bin' },
  configurationParameters: { 'app.dir': '/r/app/target', 'junit.jupiter.execution.parallel.enabled': 'true' },
};

describe('Maven modules and tasks', () => {
  it('names a module by its directory relative to the reactor root, Gradle style', () => {
    expect(modulePath('/r', '/r')).toBe(':');
    expect(modulePath('/r', '/r/core')).toBe(':core');
    expect(modulePath('/r', '/r/services/billing')).toBe(':services:billing');
    expect(mavenTask(':core', 'surefire')).toBe(':core:test');
    expect(mavenTask(':core', 'failsafe')).toBe(':core:integration-test');
    expect(mavenTask(':', 'surefire')).toBe(':test');
  });
});

describe('the first pass arguments', () => {
  const setup = { workDir: '/w', runnerJar: '/runner.jar', forkLogDir: '/w/forks' };
  it('puts the listener on the fork classpath after the user\'s own additional elements', () => {
    expect(firstPassArgs(['-o', 'test'], setup, null)).toEqual(['-o', 'test', '-Dmaven.test.additionalClasspath=/runner.jar', '-DstressGate.log=/w/forks']);
    expect(firstPassArgs(['-Dmaven.test.additionalClasspath=/a.jar', 'verify'], setup, '/w/ex.txt')).toEqual([
      'verify', '-Dmaven.test.additionalClasspath=/a.jar,/runner.jar', '-DstressGate.log=/w/forks', '-Dsurefire.excludesFile=/w/ex.txt', '-Dfailsafe.excludesFile=/w/ex.txt',
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
  it('starts as the fork did: its java, argLine, test classpath (+ the launcher), working directory and environment', () => {
    const cmd = jvmCommand(fork, '/runner.jar', '/w/req');
    expect(cmd).toEqual({
      file: '/jdk/bin/java',
      args: ['-Dfrom.argLine=yes', '-Xmx256m', '-cp', '/r/app/target/test-classes:/m2/jupiter.jar:/runner.jar:/m2/launcher.jar', RUNNER_MAIN, '/w/req'],
      cwd: '/r/app',
      env: { EXAMPLE_ENV: 'x', PATH: '/bin' },
    });
  });
  it('asks the runner for the fork\'s own system properties and JUnit configuration and exactly the unique IDs, one escaped line each', () => {
    expect(requestText(fork, ['[engine:junit-jupiter]/[class:A]/[test-template:m(int)]/[test-template-invocation:#3]'], '/w/out.jsonl').split('\n')).toEqual([
      'out /w/out.jsonl',
      'property app.dir=/r/app/target',
      'property multi.line=a\\nb\\\\c',
      'property surefire.test.class.path=cp',
      'config junit.jupiter.execution.parallel.enabled=true',
      'select [engine:junit-jupiter]/[class:A]/[test-template:m(int)]/[test-template-invocation:#3]',
      '',
    ]);
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
