// The class archive through real repetition JVMs (the direct executor's pass, the real runner jar,
// Debian's JUnit 4 jars): a test class path that starts with a class directory, as every build's
// does, gets an archive of its jars made from the first repetition and mapped by the next ones;
// a changed class file is read from its directory (never from the archive), and a rebuilt jar makes
// a new archive. The JVMs log where each class came from (-Xlog:class+load to a file of their own,
// which is the build's JVM option here, not the gate's).
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { silentLogger } from '../../src/base/log.js';
import { runDirectPass } from '../../src/jvm/direct-pass.js';
import { runnerJars } from '../../src/jvm/runner-jars.js';
import type { StressTarget } from '../../src/jvm/stress-target.js';
import { candidate } from '../support/builders.js';

const JUNIT = '/usr/share/java/junit4.jar';
const HAMCREST = '/usr/share/java/hamcrest-core.jar';
const REPS = 6;

function compile(root: string, classes: string, libs: string[], passes: boolean): void {
  const src = path.join(root, 'src', 'com', 'x');
  mkdirSync(src, { recursive: true });
  writeFileSync(path.join(src, 'FlipTest.java'), `package com.x;\npublic class FlipTest {\n  @org.junit.Test public void flips() { org.junit.Assert.assertTrue("the class as compiled now", ${passes}); }\n}\n`);
  execFileSync('javac', ['-d', classes, '-cp', libs.join(':'), path.join(src, 'FlipTest.java')]);
}

/** Per JVM log: where JUnitCore and the test class came from. */
function sources(logs: string): { junit: string; test: string }[] {
  return readdirSync(logs).map((f) => {
    const text = readFileSync(path.join(logs, f), 'utf8');
    const from = (cls: string) => text.match(new RegExp(`\\] ${cls.replace(/\./g, '\\.')} source: (.*)`))?.[1]?.trim() ?? 'not loaded';
    return { junit: from('org.junit.runner.Request'), test: from('com.x.FlipTest') };
  });
}

describe('the class archive in real repetition JVMs', () => {
  it('is made from the first repetition of a class path with directories and mapped by the next; a changed class file is read fresh, a rebuilt jar makes a new archive', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'class-archive-jvms-'));
    const classes = path.join(root, 'build', 'classes', 'java', 'test');
    const lib = path.join(root, 'libs', 'junit4.jar');
    mkdirSync(path.dirname(lib), { recursive: true });
    copyFileSync(JUNIT, lib);
    compile(root, classes, [lib], true);
    const { runner } = await runnerJars(process.env);
    const env = { ...process.env, STRESS_GATE_CACHE_DIR: path.join(root, 'cache') };
    const java = execFileSync('bash', ['-c', 'readlink -f "$(command -v java)"'], { encoding: 'utf8' }).trim();

    const pass = async (name: string) => {
      const logs = path.join(root, `logs-${name}`);
      mkdirSync(logs);
      const target: StressTarget = {
        members: [{ candidate: candidate('flips', { suite: 'com.x.FlipTest', repetitions: REPS }), selection: { kind: 'junit4', className: 'com.x.FlipTest', name: 'flips' }, occurrence: 1 }],
        jvm: { java, jvmArgs: [`-Xlog:class+load=info:file=${logs}/%p.log`], classpath: [classes, path.join(root, 'build', 'resources', 'test'), lib, HAMCREST], workingDir: root, environment: Object.fromEntries(Object.entries(process.env).map(([k, v]) => [k, v ?? null])), systemProperties: {} },
        jvmKey: ':app:test',
        configurationParameters: {},
      };
      const r = await runDirectPass([target], [], {
        runnerJar: runner, workDir: root, outputDir: path.join(root, 'build', 'stress-gate', name), concurrency: 1, ceilingSeconds: 120,
        env, logger: silentLogger(), err: () => undefined, errIsTTY: false,
      });
      await r.archiving;
      return { r, statuses: (r.repetitions.get('id-flips') ?? []).map((x) => x.status), sources: sources(logs) };
    };

    // No archive yet: the first JVM records its class list, the archive is made, the next five map it.
    const first = await pass('first');
    expect(first.statuses).toEqual(Array(REPS).fill('success'));
    expect(first.r.classArchive).toBe('made');
    expect(first.sources.filter((s) => s.junit === 'shared objects file')).toHaveLength(REPS - 1);
    // The test class always comes from its directory.
    expect(first.sources.every((s) => s.test === `file:${classes}/`)).toBe(true);
    // The runner sets java.class.path back to the build's order.
    const request = readFileSync(path.join(root, 'build', 'stress-gate', 'first', '1-FlipTest.flips', 'rep-2', 'request.txt'), 'utf8');
    expect(request).toContain(`property java.class.path=${[classes, path.join(root, 'build', 'resources', 'test'), lib, HAMCREST, runner].join(':')}\n`);

    // The test class changes (now it fails): every repetition runs the new class, read from its directory, beside the same archive.
    compile(root, classes, [lib], false);
    const changed = await pass('changed');
    expect(changed.r.classArchive).toBe('used');
    expect(changed.statuses).toEqual(Array(REPS).fill('failure'));
    expect(changed.sources.every((s) => s.junit === 'shared objects file' && s.test === `file:${classes}/`)).toBe(true);

    // A jar of the class path is rebuilt (its modification time changes): that archive no longer fits it, a new one is made.
    utimesSync(lib, new Date(), new Date(Date.now() + 10_000));
    const rebuilt = await pass('rebuilt');
    expect(rebuilt.r.classArchive).toBe('made');
    expect(rebuilt.sources.filter((s) => s.junit === 'shared objects file')).toHaveLength(REPS - 1);
    expect(readdirSync(path.join(root, 'cache', 'class-archives')).filter((f) => f.endsWith('.jsa'))).toHaveLength(2);
  }, 120_000);
});
