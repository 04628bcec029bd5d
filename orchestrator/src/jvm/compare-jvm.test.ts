import { describe, expect, it } from '@jest/globals';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { compareJvm } from './compare-jvm.js';
import { jvmOfFork } from './fork-jvm.js';
import type { ForkConfig, JvmFacts } from './runner-log.js';
import { secretFingerprint } from './secret-name.js';

// A class path entry that exists.
const dir = await mkdtemp(path.join(os.tmpdir(), 'compare-jvm-'));

describe('what a repetition JVM did not reproduce of the build\'s', () => {
  const fork: ForkConfig = {
    javaHome: '/jdk',
    userDir: '/r/app',
    basedir: '/r/app',
    testClassPath: dir,
    runtimeClassPath: `${dir}:${path.join(dir, 'never-there')}:/pkg/stress-gate-jvm-runner.jar`,
    absentClassPath: path.join(dir, 'never-there'),
    launcherJar: '',
    inputArguments: ['-javaagent:/m2/jacoco.jar=destfile=/r/app/target/jacoco.exec', '-Dshape=yes', '-javaagent:/pkg/stress-gate-jvm-runner-agent.jar=/w|surefire'],
    systemProperties: { 'java.version': '17', 'user.dir': '/r/app', 'shop.mode': 'test', 'surefire.test.class.path': dir, 'java.class.path': dir, basedir: '/r/app' },
    environment: { SHOP_ENV: 'ci', PATH: '/bin' },
    configurationParameters: {},
  };
  const same: JvmFacts = {
    javaHome: '/jdk',
    userDir: '/r/app',
    classPath: `${dir}:${path.join(dir, 'never-there')}:/pkg/stress-gate-jvm-runner.jar`,
    inputArguments: ['-javaagent:/m2/jacoco.jar=destfile=/r/app/target/jacoco.exec', '-Dshape=yes', '-XX:ErrorFile=/o/hs_err_pid%p.log', '-XX:SharedArchiveFile=/c/x.jsa'],
    systemProperties: { 'java.version': '17.0.2', 'user.dir': '/r/app', 'shop.mode': 'test', 'java.class.path': dir },
    environment: { SHOP_ENV: 'ci', PATH: '/bin' },
  };
  const expected = { spec: jvmOfFork(fork, true), observed: fork, runnerJar: '/pkg/stress-gate-jvm-runner.jar' };

  it('sees none in a repetition started as the fork was (the gate\'s own arguments and the runner jar aside, an entry the fork did not have either)', async () => {
    expect(await compareJvm(expected, same)).toEqual([]);
  });

  it('names a missing agent, a changed property, environment variable and working directory, and a class path entry gone', async () => {
    const gone = path.join(dir, 'no-such.jar');
    const differs = await compareJvm(expected, {
      ...same,
      userDir: '/r',
      classPath: `${dir}:${path.join(dir, 'never-there')}:${gone}:/pkg/stress-gate-jvm-runner.jar`,
      inputArguments: ['-Dshape=yes'],
      systemProperties: { ...same.systemProperties, 'shop.mode': 'prod' },
      environment: { PATH: '/bin' },
    });
    expect(differs).toEqual([
      'working directory: the build\'s "/r/app", the repetition\'s "/r"',
      `class path entry ${JSON.stringify(gone)}: in the repetition, not in the build`,
      `class path entry ${JSON.stringify(gone)} no longer exists (removed after the build ran)`,
      'JVM argument "-javaagent:/m2/jacoco.jar=destfile=/r/app/target/jacoco.exec": in the build, not in the repetition',
      'system property shop.mode: the build\'s "test", the repetition\'s "prod"',
      'environment variable SHOP_ENV: the build\'s "ci", the repetition\'s unset',
    ]);
  });

  it('says a secret-looking environment variable differs without its value', async () => {
    const secretExpected = { ...expected, observed: { ...fork, environment: { ...fork.environment, AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI', DB_PASSWORD: 'hunter2' } } };
    const differs = await compareJvm(secretExpected, { ...same, environment: { ...same.environment, SHOP_ENV: 'ci', AWS_SECRET_ACCESS_KEY: 'other-value', PATH: '/bin' } });
    expect(differs).toContain('environment variable AWS_SECRET_ACCESS_KEY: the build\'s set (13 characters, not shown), the repetition\'s set (11 characters, not shown)');
    expect(differs).toContain('environment variable DB_PASSWORD: the build\'s set (7 characters, not shown), the repetition\'s unset');
    expect(differs.join('\n')).not.toMatch(/wJalrXUtnFEMI|other-value|hunter2/);
  });

  it("compares a repetition's secrets by their fingerprints, as its runner writes them", async () => {
    const secretExpected = { ...expected, observed: { ...fork, environment: { ...fork.environment, DB_PASSWORD: 'hunter2', API_TOKEN: 'same-token' } } };
    const facts = { ...same, environment: { ...same.environment, SHOP_ENV: 'ci' }, secretEnvironment: { DB_PASSWORD: secretFingerprint('another'), API_TOKEN: secretFingerprint('same-token') } };
    expect(await compareJvm(secretExpected, facts)).toEqual(['environment variable DB_PASSWORD: the build\'s set (7 characters, not shown), the repetition\'s set to another value (not shown)']);
    const alike = { ...facts, secretEnvironment: { DB_PASSWORD: secretFingerprint('hunter2'), API_TOKEN: secretFingerprint('same-token') } };
    expect(await compareJvm(secretExpected, alike)).toEqual([]);
  });
});
