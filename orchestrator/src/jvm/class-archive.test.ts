// Through the real JDK (java on PATH, as every Gradle build here has): the archive is recorded,
// dumped, checked and then used, with the jars of the class path in it; a rebuilt jar is another
// archive; a task with its own class sharing and a list that cannot be dumped get none, and a
// failure is not tried again.
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { silentLogger } from '../base/log.js';
import { type ArchiveJvm, planClassArchive } from './class-archive.js';

const java = execFileSync('bash', ['-c', 'readlink -f "$(command -v java)"'], { encoding: 'utf8' }).trim();
const spec = (jvmArgs: string[] = [], classpath: string[] = []): ArchiveJvm => ({ executable: java, jvmArgs, classpath });
const JUNIT = ['/usr/share/java/junit4.jar', '/usr/share/java/hamcrest-core.jar'];
const fresh = () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'class-archive-'));
  return { work: root, env: { STRESS_GATE_CACHE_DIR: path.join(root, 'cache') } };
};

describe('the class archive', () => {
  it('is recorded by a real JVM, dumped, checked, and then mapped by the next pass', async () => {
    const { work, env } = fresh();
    const first = await planClassArchive(spec(['-Xmx256m']), work, env, silentLogger());
    if (first.state !== 'record') throw new Error(`expected record, got ${JSON.stringify(first)}`);
    expect(await first.make()).toBeNull(); // nothing recorded yet: nothing made, and no failure remembered
    execFileSync(java, ['-Xmx256m', ...first.recordArgs, '-version'], { stdio: 'ignore' });
    const file = await first.make();
    expect(file).toMatch(/class-archives\/[0-9a-f]{24}\.jsa$/);
    const next = await planClassArchive(spec(['-Xmx256m']), work, env, silentLogger());
    expect(next).toEqual({ state: 'use', file, args: [`-XX:SharedArchiveFile=${file}`], layout: { runtime: [], archived: [], reordered: false } });
    // The JVM maps it (-Xshare:on refuses to start otherwise).
    execFileSync(java, ['-Xmx256m', '-Xshare:on', ...(next.state === 'use' ? next.args : []), '-version'], { stdio: 'ignore' });
    // Other -X options are another key: recorded again.
    expect((await planClassArchive(spec(['-Xmx512m']), work, env, silentLogger())).state).toBe('record');
  }, 60_000);

  it('two runs making the same archive at once both succeed, and no failure is remembered', async () => {
    const { work, env } = fresh();
    const [a, b] = await Promise.all([0, 1].map(() => planClassArchive(spec(['-Xmx192m']), work, env, silentLogger())));
    if (a?.state !== 'record' || b?.state !== 'record') throw new Error('expected two recordings');
    execFileSync(java, ['-Xmx192m', ...a.recordArgs, '-version'], { stdio: 'ignore' });
    const made = await Promise.all([a.make(), b.make()]);
    expect(made[0]).toMatch(/\.jsa$/);
    expect(made[1]).toBe(made[0]);
    expect(readdirSync(path.join(env.STRESS_GATE_CACHE_DIR, 'class-archives'))).toEqual([path.basename(made[0]!)]);
  }, 60_000);

  it('holds the classes of the class path\'s jars, and a jar rebuilt since is another archive', async () => {
    const { work, env } = fresh();
    const lib = path.join(work, 'junit-copy.jar');
    execFileSync('cp', [JUNIT[0]!, lib]);
    const classpath = [lib, JUNIT[1]!];
    const first = await planClassArchive(spec([], classpath), work, env, silentLogger());
    if (first.state !== 'record') throw new Error(`expected record, got ${JSON.stringify(first)}`);
    expect(first.layout.archived).toEqual(classpath);
    // A JVM that loads JUnit's classes from the jars records them.
    execFileSync(java, [...first.recordArgs, '-cp', classpath.join(':'), 'org.junit.runner.JUnitCore'], { stdio: 'ignore' });
    const file = await first.make();
    expect(file).toMatch(/\.jsa$/);
    const used = await planClassArchive(spec([], classpath), work, env, silentLogger());
    if (used.state !== 'use') throw new Error('expected use');
    const loaded = execFileSync(java, ['-Xshare:on', ...used.args, '-Xlog:class+load', '-cp', classpath.join(':'), 'org.junit.runner.JUnitCore'], { encoding: 'utf8' });
    expect(loaded).toMatch(/org\.junit\.runner\.JUnitCore source: shared objects file/);
    // The jar's modification time changes (a rebuild): the JVM would map nothing of the old archive; the gate records a new one.
    utimesSync(lib, new Date(), new Date(Date.now() + 5_000));
    expect((await planClassArchive(spec([], classpath), work, env, silentLogger())).state).toBe('record');
  }, 60_000);

  it('dumps with the task\'s -X options but never its logging ones: the dump writes nothing into the build\'s log files', async () => {
    const { work, env } = fresh();
    const logs = path.join(work, 'logs');
    mkdirSync(logs);
    const log = `-Xlog:class+load:file=${logs}/%p.log`;
    const first = await planClassArchive(spec(['-Xmx160m', log]), work, env, silentLogger());
    if (first.state !== 'record') throw new Error('expected record');
    execFileSync(java, ['-Xmx160m', log, ...first.recordArgs, '-version'], { stdio: 'ignore' });
    expect(await first.make()).toMatch(/\.jsa$/);
    // The recording JVM's log only: neither the dump nor its check wrote one.
    expect(readdirSync(logs)).toHaveLength(1);
    // And the logging option is not part of the key: the same task with another log file maps the same archive.
    expect((await planClassArchive(spec(['-Xmx160m', `-Xlog:gc:file=${logs}/gc.log`]), work, env, silentLogger())).state).toBe('use');
  }, 60_000);

  it('leaves alone a task that sets its own class sharing, and is off when STRESS_GATE_CLASS_ARCHIVE is', async () => {
    const { work, env } = fresh();
    expect(await planClassArchive(spec(['-Xshare:off']), work, env, silentLogger())).toMatchObject({ state: 'off', why: 'the task sets its own class sharing' });
    expect(await planClassArchive(spec(['-XX:SharedArchiveFile=/x.jsa']), work, env, silentLogger())).toMatchObject({ state: 'off' });
    expect(await planClassArchive(spec(), work, { ...env, STRESS_GATE_CLASS_ARCHIVE: 'no' }, silentLogger())).toMatchObject({ state: 'off' });
    expect(await planClassArchive({ ...spec(), executable: '/nowhere/bin/java' }, work, env, silentLogger())).toMatchObject({ state: 'off' });
  });

  it('a list that cannot be dumped makes no archive, and the failure is not tried again', async () => {
    const { work, env } = fresh();
    const first = await planClassArchive(spec(['-Xmx128m']), work, env, silentLogger());
    if (first.state !== 'record') throw new Error('expected record');
    writeFileSync(first.list, '@this is not a class list line\n');
    expect(await first.make()).toBeNull();
    const again = await planClassArchive(spec(['-Xmx128m']), work, env, silentLogger());
    expect(again).toMatchObject({ state: 'off', why: expect.stringMatching(/^making it failed before: /) });
    expect(existsSync(path.join(env.STRESS_GATE_CACHE_DIR, 'class-archives'))).toBe(true);
  }, 60_000);
});
