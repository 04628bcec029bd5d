import { describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { candidate } from '../../test/support/builders.js';
import { silentLogger } from '../base/log.js';
import type { ClassArchive } from './class-archive.js';
import type { JvmExit, JvmLauncher } from './launch-jvm.js';
import { createProgress } from './progress.js';
import { HALTED_WHY } from '../repetitions/stress-pass-result.js';
import { HALT_AFTER, runRepetitions, type RepetitionsDeps } from './run-repetitions.js';
import type { Selection, StressTarget } from './stress-target.js';

const S = 'com.shop.CheckoutTest';
const jvm = { java: '/jdk/bin/java', jvmArgs: ['-Xmx64m'], classpath: ['/c'], workingDir: '/w', environment: { A: 'b' }, systemProperties: { 'shop.mode': 'test' } };
const target = (name: string, reps: number, selection: Selection = { kind: 'junit4', className: S, name }, occurrence = 1): StressTarget => ({
  members: [{ candidate: candidate(name, { testCaseId: name, repetitions: reps }), selection, occurrence }],
  jvm,
  jvmKey: ':app:test',
  configurationParameters: {},
});

/** Resolves once `stop` is aborted, at once if it already is. */
const aborted = (stop: AbortSignal) => new Promise<void>((resolve) => (stop.aborted ? resolve() : stop.addEventListener('abort', () => resolve(), { once: true })));

type Behaviour = 'SUCCESS' | 'FAILURE' | 'SKIPPED' | 'die' | 'hang' | 'nothing' | 'twice' | 'unrunnable';

/** What the fake runner says of a selection it cannot run. */
const NO_ENGINE = 'the JUnit Platform found no such test; test engines on the class path: junit-vintage 5.14.4 (no junit-jupiter engine, which the unique ID names)';

/**
 * A fake JVM: reads the request like the runner, describes itself, and runs each selection in
 * order as `behave(test, n-th JVM)` says ('nothing': the JVM exits 2 at once, writing nothing).
 */
function fakeJvm(behave: (test: string, n: number) => Behaviour) {
  const requests: string[][] = [];
  const args: string[][] = [];
  let running = 0;
  let max = 0;
  const launch: JvmLauncher = (cmd, output, stop) => {
    const n = requests.length;
    args.push(cmd.args);
    const done = (async (): Promise<JvmExit> => {
      running++;
      max = Math.max(max, running);
      try {
        const lines = (await readFile(cmd.args.at(-1)!, 'utf8')).trim().split('\n');
        requests.push(lines);
        const out = lines.find((l) => l.startsWith('out '))!.slice(4);
        const tests = lines.filter((l) => l.startsWith('test ') || l.startsWith('select ')).map((l) => l.replace(/^(test|select) /, ''));
        await new Promise((r) => setTimeout(r, 3));
        if (behave(tests[0]!.split('\t').at(-1)!, n) === 'nothing') return { exitCode: 2, signal: null, killed: false, startError: null, pid: 1 };
        let text = `${JSON.stringify({ event: 'jvm', javaHome: '/jdk', userDir: '/w', classPath: '/c:/runner.jar', inputArguments: ['-Xmx64m'], systemProperties: { 'shop.mode': 'test' }, environment: { A: 'b' } })}\n`;
        await writeFile(output.stdout, `hello from repetition ${n}\n`);
        for (const test of tests) {
          const [className, name] = test.includes('\t') ? test.split('\t') : [S, test];
          const b = behave(name!, n);
          const uniqueId = test.includes('\t') ? null : test;
          const line = (o: object) => `${JSON.stringify({ className, name, uniqueId, ...o })}\n`;
          if (b === 'unrunnable') {
            text += `${JSON.stringify({ event: 'unrunnable', selector: test, cause: NO_ENGINE })}\n`;
            continue;
          }
          text += line({ event: 'started' });
          if (b === 'die') {
            await writeFile(out, text);
            await writeFile(output.stderr, 'Exception in thread "main"\nbye\n');
            await writeFile(path.join(path.dirname(out), 'hs_err_pid4242.log'), '# A fatal error\n');
            return { exitCode: null, signal: 'SIGABRT', killed: false, startError: null, pid: 4242 };
          }
          if (b === 'hang') {
            await writeFile(out, text);
            await aborted(stop);
            return { exitCode: null, signal: 'SIGKILL', killed: true, startError: null, pid: 5 };
          }
          const failure = b === 'FAILURE' ? { type: 'java.lang.AssertionError', message: 'expected 30 but was 27', trace: `java.lang.AssertionError: expected 30 but was 27\n\tat ${S}.${name}(CheckoutTest.java:42)` } : undefined;
          text += line({ event: 'finished', result: b === 'twice' ? 'SUCCESS' : b, durationMs: 7, ...(failure ? { failure } : {}) });
          if (b === 'twice') text += line({ event: 'started' }) + line({ event: 'finished', result: 'FAILURE', durationMs: 8 });
        }
        await writeFile(out, text);
        return { exitCode: 0, signal: null, killed: false, startError: null, pid: 6 };
      } finally {
        running--;
      }
    })();
    return { done };
  };
  return { launch, requests, args, maxAtOnce: () => max };
}

async function run(
  targets: StressTarget[],
  behave: (test: string, n: number) => Behaviour,
  o: { concurrency?: number; deadlineMs?: number; signal?: AbortSignal; archives?: Map<string, ClassArchive>; progress?: RepetitionsDeps['progress'] } = {},
) {
  const outputDir = await mkdtemp(path.join(os.tmpdir(), 'repetitions-'));
  const fake = fakeJvm(behave);
  const r = await runRepetitions(
    { targets, runnerJar: '/runner.jar', outputDir, concurrency: o.concurrency ?? 2, deadlineMs: o.deadlineMs ?? 60_000, ...(o.archives ? { archives: o.archives } : {}) },
    { launch: fake.launch, logger: silentLogger(), ...(o.signal ? { signal: o.signal } : {}), ...(o.progress ? { progress: o.progress } : {}) },
  );
  const statuses = (name: string) => r.repetitions.get(name)!.map((x) => (x.crashed ? 'crash' : x.status));
  return { r, fake, statuses, outputDir };
}

describe('the repetition scheduler', () => {
  it('gives every candidate a fresh JVM of its own in every repetition, at most `concurrency` at once', async () => {
    const { r, fake, statuses } = await run([target('a', 10), target('b', 3)], () => 'SUCCESS');
    expect(fake.requests).toHaveLength(13);
    // One test per JVM: a candidate never runs after another in the same JVM.
    for (const lines of fake.requests) expect(lines.filter((l) => l.startsWith('test '))).toHaveLength(1);
    expect(fake.maxAtOnce()).toBe(2);
    expect(statuses('a')).toEqual(Array(10).fill('success'));
    expect(statuses('b')).toEqual(Array(3).fill('success'));
    expect(r).toMatchObject({ jvms: 13, confirmed: 0, cut: false, cancelled: false, problems: [] });
    // The first repetition JVM of each target described itself.
    expect(r.facts.get(0)).toMatchObject({ javaHome: '/jdk', classPath: '/c:/runner.jar' });
  });

  it('runs every repetition of the new tests before those of the tests the merge request only modified', async () => {
    const modified = target('m', 3);
    modified.members[0]!.candidate.origin = 'modified';
    const { fake } = await run([modified, target('a', 3), target('b', 2)], () => 'SUCCESS', { concurrency: 1 });
    const order = fake.requests.map((lines) => lines.find((l) => l.startsWith('test '))!.split('\t').at(-1));
    expect(order).toEqual(['a', 'b', 'a', 'b', 'a', 'm', 'm', 'm']);
  });

  it('starts each JVM as the build did, with the runner jar, the fork\'s properties and the crash file in the repetition\'s folder', async () => {
    const { fake, outputDir } = await run([target('a', 1)], () => 'SUCCESS');
    const args = fake.args[0]!;
    expect(args.slice(0, 2)).toEqual(['-Xmx64m', `-XX:ErrorFile=${path.join(outputDir, '1-CheckoutTest.a', 'rep-1', 'hs_err_pid%p.log')}`]);
    expect(args.slice(2, 5)).toEqual(['-cp', '/c:/runner.jar', 'dev.stressgate.jvm.StressRunner']);
    expect(fake.requests[0]).toEqual(['kind junit4', `out ${path.join(outputDir, '1-CheckoutTest.a', 'rep-1', 'results.jsonl')}`, 'property shop.mode=test', `test ${S}\ta`]);
  });

  it('keeps what the runner caught of a failure, and the JVM\'s output', async () => {
    const { r } = await run([target('a', 3)], (_t, n) => (n === 1 ? 'FAILURE' : 'SUCCESS'), { concurrency: 1 });
    const failed = r.repetitions.get('a')!.find((x) => x.status === 'failure')!;
    expect(failed).toMatchObject({ repetition: 2, durationMs: 7 });
    expect(failed.failure).toEqual({
      kind: 'failure', type: 'java.lang.AssertionError', message: 'expected 30 but was 27', trace: `java.lang.AssertionError: expected 30 but was 27\n\tat ${S}.a(CheckoutTest.java:42)`,
      stdoutTail: 'hello from repetition 1\n', stderrTail: null, exitCode: null, signal: null, hsErrFile: null,
    });
  });

  it('runs again alone a candidate that failed while JVMs ran side by side; that run is its verdict', async () => {
    // Fails only in the first 20 JVMs (the concurrent ones): a collision, not the test's own flakiness.
    const lines: string[] = [];
    const progress: RepetitionsDeps['progress'] = (total, deadlineAt, title) => createProgress({ write: (t) => lines.push(t), tty: false, total, deadlineAt, now: Date.now, title });
    const { r, fake, statuses } = await run([target('a', 10), target('b', 10)], (t, n) => (t === 'a' && n < 20 && n % 3 === 0 ? 'FAILURE' : 'SUCCESS'), { progress });
    expect(r.confirmed).toBe(1);
    expect(fake.requests).toHaveLength(30);
    // Every JVM is counted, the alone ones too, and what failed side by side is kept.
    expect(r).toMatchObject({ jvms: 30, jvmsAlone: 10 });
    expect(r.aloneMs).toBeGreaterThan(0);
    expect(r.aloneMs).toBeLessThanOrEqual(r.wallClockMs);
    expect(r.sideBySide.get('a')!.filter((x) => x.status === 'failure').length).toBeGreaterThan(0);
    expect(r.sideBySide.has('b')).toBe(false);
    // The rerun says it is running: its own progress, after the first pass's.
    expect(lines.at(0)).toMatch(/^stress-gate: stress pass: \d+\/20 repetitions/);
    expect(lines.at(-1)).toMatch(/^stress-gate: stress pass, again alone: 10\/10 repetitions, no failures/);
    expect(statuses('a')).toEqual(Array(10).fill('success'));
    expect(statuses('b')).toHaveLength(10);
  });

  it('a JVM that died under its candidate is a failure, with its exit signal, output and crash file', async () => {
    const { r, statuses } = await run([target('a', 5)], (_t, n) => (n === 3 ? 'die' : 'SUCCESS'), { concurrency: 1 });
    expect(statuses('a')).toEqual(['success', 'success', 'success', 'crash', 'success']);
    const crash = r.repetitions.get('a')![3]!.failure!;
    expect(crash).toMatchObject({ kind: 'crash', signal: 'SIGABRT', exitCode: null, stderrTail: 'Exception in thread "main"\nbye\n', stdoutTail: 'hello from repetition 3\n' });
    expect(crash.hsErrFile).toMatch(/1-CheckoutTest\.a\/rep-4\/hs_err_pid4242\.log$/);
  });

  it('a skipped repetition is absent, never a pass', async () => {
    const { r, statuses } = await run([target('a', 3)], (_t, n) => (n === 1 ? 'SKIPPED' : 'SUCCESS'), { concurrency: 1 });
    expect(statuses('a')).toEqual(['success', 'success']);
    expect(r.problems).toEqual([]);
  });

  it('takes a repeated JUnit 4 name\'s result by occurrence, and a platform test by its unique ID', async () => {
    const second = target('m [#2]', 1, { kind: 'junit4', className: S, name: 'twice' }, 2);
    const { statuses } = await run([second], () => 'twice');
    expect(statuses('m [#2]')).toEqual(['failure']);
    const platform = target('p', 2, { kind: 'platform', uniqueId: 'p' });
    const { statuses: ps, fake } = await run([platform], () => 'SUCCESS');
    expect(ps('p')).toEqual(['success', 'success']);
    expect(fake.requests[0]).toContain('select p');
  });

  it('the ceiling kills the running JVMs and starts no more: cut, nothing recorded for what it stopped', async () => {
    const { r, fake, statuses } = await run([target('a', 4)], (_t, n) => (n === 1 ? 'hang' : 'SUCCESS'), { concurrency: 1, deadlineMs: 300 });
    expect(r).toMatchObject({ cut: true, cancelled: false, problems: [] });
    expect(statuses('a')).toEqual(['success']);
    expect(fake.requests).toHaveLength(2);
  });

  it('cancellation stops the pass: cancelled, not cut; nothing runs after an early abort', async () => {
    const controller = new AbortController();
    const { r } = await run([target('a', 4)], (_t, n) => (n === 1 && setTimeout(() => controller.abort('SIGTERM'), 10), n === 1 ? 'hang' : 'SUCCESS'), { concurrency: 1, signal: controller.signal });
    expect(r).toMatchObject({ cancelled: true, cut: false });
    const early = await run([target('a', 4)], () => 'SUCCESS', { signal: AbortSignal.abort('SIGINT') });
    expect(early.fake.requests).toHaveLength(0);
    expect(early.r.cancelled).toBe(true);
  });
});

describe('a pass that cannot produce a result stops early', () => {
  it('a candidate the runner cannot find gets no JVM after its first, with the runner\'s words as the reason', async () => {
    const { r, fake, statuses } = await run([target('a', 10), target('b', 3)], (t) => (t === 'a' ? 'unrunnable' : 'SUCCESS'), { concurrency: 1 });
    expect(fake.requests.filter((l) => l.includes(`test ${S}\ta`))).toHaveLength(1);
    expect(r.unrunnable).toEqual(new Map([['a', NO_ENGINE]]));
    expect(statuses('a')).toEqual([]);
    expect(statuses('b')).toEqual(['success', 'success', 'success']);
    expect(r).toMatchObject({ halted: null, problems: [], jvms: 4 });
  });

  it('a JVM that exits before its test ran: the exit code is the reason, and that candidate gets no more JVMs', async () => {
    const { r, fake } = await run([target('a', 5)], () => 'nothing', { concurrency: 1 });
    expect(fake.requests).toHaveLength(1);
    expect(r.unrunnable.get('a')).toBe('the JVM exited with code 2 before the test ran');
  });

  it('when the first candidates all fail for one cause and none ran, the pass stops and says why once', async () => {
    const targets = ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => target(n, 10));
    const { r, fake } = await run(targets, () => 'unrunnable', { concurrency: 2 });
    expect(r.halted).toEqual({ cause: NO_ENGINE, targets: HALT_AFTER });
    expect(fake.requests.length).toBeLessThanOrEqual(HALT_AFTER + 1);
    expect(r.cut).toBe(false);
    for (const n of ['a', 'b', 'c', 'd', 'e', 'f']) expect([NO_ENGINE, HALTED_WHY]).toContain(r.unrunnable.get(n));
    expect([...r.unrunnable.values()].filter((w) => w === HALTED_WHY).length).toBeGreaterThanOrEqual(2);
  });

  it('does not stop while another candidate of the pass ran', async () => {
    const { r, statuses } = await run([target('ok', 2), target('b', 2), target('c', 2), target('d', 2)], (t) => (t === 'ok' ? 'SUCCESS' : 'unrunnable'), { concurrency: 1 });
    expect(r.halted).toBeNull();
    expect(statuses('ok')).toEqual(['success', 'success']);
    expect([...r.unrunnable.keys()].sort()).toEqual(['b', 'c', 'd']);
  });
});

describe('the new invocations of one method share each repetition\'s JVM', () => {
  it('runs them in order in one JVM per repetition, each recorded apart', async () => {
    const members = ['adds[1]', 'adds[2]', 'adds[3]'].map((n) => target(n, 4).members[0]!);
    const group: StressTarget = { ...target('adds[1]', 4), members };
    const { r, fake, statuses } = await run([group], (t, n) => (t === 'adds[2]' && n === 1 ? 'FAILURE' : 'SUCCESS'), { concurrency: 1 });
    expect(fake.requests).toHaveLength(4);
    expect(fake.requests[0]!.filter((l) => l.startsWith('test '))).toEqual([`test ${S}\tadds[1]`, `test ${S}\tadds[2]`, `test ${S}\tadds[3]`]);
    expect(statuses('adds[1]')).toEqual(Array(4).fill('success'));
    expect(statuses('adds[2]')).toEqual(['success', 'failure', 'success', 'success']);
    expect(r.jvms).toBe(4);
  });

  it('a member the runner cannot find drops out; its siblings go on', async () => {
    const members = ['adds[1]', 'adds[2]'].map((n) => target(n, 3).members[0]!);
    const { r, fake, statuses } = await run([{ ...target('adds[1]', 3), members }], (t) => (t === 'adds[2]' ? 'unrunnable' : 'SUCCESS'), { concurrency: 1 });
    expect(statuses('adds[1]')).toEqual(['success', 'success', 'success']);
    expect(r.unrunnable.get('adds[2]')).toBe(NO_ENGINE);
    expect(fake.requests.slice(1).every((l) => l.filter((x) => x.startsWith('test ')).length === 1)).toBe(true);
  });
});

describe('the scheduler and the class archive', () => {
  const xx = (args: string[][]) => args.map((a) => a.filter((x) => x.startsWith('-XX:') && !x.startsWith('-XX:ErrorFile')));
  const asIs = { runtime: ['/c', '/runner.jar'], archived: [], reordered: false };
  it('maps the archive in every JVM, before the class path', async () => {
    const { fake, r } = await run([target('a', 2), target('b', 2)], () => 'SUCCESS', { archives: new Map([[':app:test', { state: 'use', file: '/c/x.jsa', args: ['-XX:SharedArchiveFile=/c/x.jsa'], layout: asIs }]]) });
    expect(xx(fake.args)).toEqual(Array(4).fill(['-XX:SharedArchiveFile=/c/x.jsa']));
    expect(r.classArchive).toBe('used');
  });

  it('records the class list in the first JVM only, and makes the archive once the pass is over when few JVMs are left (not after a cancel)', async () => {
    let made = 0;
    const record = (): ClassArchive => ({ state: 'record', list: '/w/l.txt', recordArgs: ['-XX:DumpLoadedClassList=/w/l.txt'], make: async () => (made++, '/c/x.jsa'), layout: asIs });
    const { fake, r } = await run([target('a', 3)], () => 'SUCCESS', { concurrency: 1, archives: new Map([[':app:test', record()]]) });
    await r.archiving;
    expect(xx(fake.args)).toEqual([['-XX:DumpLoadedClassList=/w/l.txt'], [], []]);
    expect(made).toBe(1);
    expect(r.classArchive).toBe('recorded');
    const cancelled = await run([target('a', 3)], () => 'SUCCESS', { archives: new Map([[':app:test', record()]]), signal: AbortSignal.abort('SIGINT') });
    await cancelled.r.archiving;
    expect(made).toBe(1);
  });

  it('makes the archive as soon as the recording JVM ends when enough JVMs are left, and those map it', async () => {
    let made = 0;
    const archive: ClassArchive = { state: 'record', list: '/w/l.txt', recordArgs: ['-XX:DumpLoadedClassList=/w/l.txt'], make: async () => (made++, '/c/x.jsa'), layout: asIs };
    const { fake, r } = await run([target('a', 6)], () => 'SUCCESS', { concurrency: 1, archives: new Map([[':app:test', archive]]) });
    await r.archiving;
    expect(xx(fake.args)).toEqual([['-XX:DumpLoadedClassList=/w/l.txt'], ...Array(5).fill(['-XX:SharedArchiveFile=/c/x.jsa'])]);
    expect(made).toBe(1);
    expect(r.classArchive).toBe('made');
  });

  it('starts the JVMs with the laid-out class path, and sets java.class.path back to the build order for the tests', async () => {
    const layout = { runtime: ['/lib.jar', '/runner.jar', '/c'], archived: ['/lib.jar', '/runner.jar'], reordered: true };
    const laidOut = { ...target('a', 2), jvm: { ...jvm, classpath: ['/c', '/lib.jar'] } };
    const { fake } = await run([laidOut], () => 'SUCCESS', { concurrency: 1, archives: new Map([[':app:test', { state: 'use', file: '/c/x.jsa', args: ['-XX:SharedArchiveFile=/c/x.jsa'], layout }]]) });
    expect(fake.args.map((a) => a[a.indexOf('-cp') + 1])).toEqual(['/lib.jar:/runner.jar:/c', '/lib.jar:/runner.jar:/c']);
    expect(fake.requests.every((l) => l.includes('property java.class.path=/c:/lib.jar:/runner.jar'))).toBe(true);
  });

  it('asks only the first JVM of a target to describe itself', async () => {
    const { fake } = await run([target('a', 3)], () => 'SUCCESS', { concurrency: 1 });
    expect(fake.requests.map((l) => l.includes('describe no'))).toEqual([false, true, true]);
  });
});

