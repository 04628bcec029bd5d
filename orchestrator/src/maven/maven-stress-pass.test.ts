import { describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { candidate } from '../../test/support/builders.js';
import { silentLogger } from '../log.js';
import type { ForkConfig } from './fork-log.js';
import { sourceKey, type PlatformSource } from './maven-first-pass.js';
import { runMavenStressPass, type JvmLauncher } from './maven-stress-pass.js';

const S = 'com.shop.CheckoutTest';
const fork = { javaHome: '/jdk', userDir: '/m', basedir: '/m', testClassPath: '', launcherJar: '', inputArguments: [], systemProperties: {}, environment: {}, configurationParameters: {} } as ForkConfig;

/** Resolves once `stop` is aborted, at once if it already is (an abort event is not replayed to a later listener). */
const aborted = (stop: AbortSignal) => new Promise<void>((resolve) => (stop.aborted ? resolve() : stop.addEventListener('abort', () => resolve(), { once: true })));

/** A fake JVM: on `go`, reads the request's selected IDs and writes what `behave` says for each. */
function fakeJvm(behave: (id: string, k: number) => 'success' | 'failure' | 'exit' | 'hang' | 'missing'): { launch: JvmLauncher; jvms: string[][]; discarded: () => number } {
  const jvms: string[][] = [];
  let discarded = 0;
  const launch: JvmLauncher = (cmd, _log, stop) => {
    let go!: (run: boolean) => void;
    const told = new Promise<boolean>((resolve) => (go = resolve));
    const done = (async () => {
      const lines = (await readFile(cmd.args[cmd.args.length - 1]!, 'utf8')).trim().split('\n');
      expect(lines[0]).toBe('wait');
      if (!(await Promise.race([told, aborted(stop).then(() => false)]))) {
        discarded++;
        return { exitCode: stop.aborted ? null : 0, killed: stop.aborted };
      }
      const out = lines[1]!.slice(4);
      const ids = lines.filter((l) => l.startsWith('select ')).map((l) => l.slice(7));
      jvms.push(ids);
      const k = Number(/rep-(\d+)/.exec(out)![1]);
      let text = '';
      for (const id of ids) {
        const b = behave(id, k);
        const t = { uniqueId: id, legacyName: `${id}()`, className: S, displayName: id };
        if (b === 'missing') continue;
        text += `${JSON.stringify({ event: 'started', ...t })}\n`;
        if (b === 'exit') {
          await writeFile(out, text);
          return { exitCode: 3, killed: false };
        }
        if (b === 'hang') {
          await writeFile(out, text);
          // The abort may come while the file is written (behave schedules it 10 ms ahead): a
          // listener added after it would wait for ever.
          await aborted(stop);
          return { exitCode: null, killed: true };
        }
        text += `${JSON.stringify({ event: 'finished', ...t, result: b === 'success' ? 'SUCCESS' : 'FAILURE', durationMs: 2 })}\n`;
      }
      await writeFile(out, text);
      return { exitCode: 0, killed: false };
    })();
    return { go: () => go(true), discard: () => go(false), done };
  };
  return { launch, jvms, discarded: () => discarded };
}

async function pass(behave: Parameters<typeof fakeJvm>[0], opts: { ceilingSeconds?: number; signal?: AbortSignal } = {}) {
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'maven-stress-'));
  const a = candidate('a', { source: { task: ':app:test', xmlName: 'a', occurrence: 1 }, repetitions: 3 });
  const b = candidate('b', { source: { task: ':app:test', xmlName: 'b', occurrence: 1 }, repetitions: 2 });
  const junit4 = candidate('old4', { source: { task: ':lib:test', xmlName: 'old4', occurrence: 1 }, repetitions: 2 });
  const sources = new Map<string, PlatformSource>([
    [sourceKey(':app:test', S, 'a', 1), { uniqueId: 'A', fork, forkFile: 'f1' }],
    [sourceKey(':app:test', S, 'b', 1), { uniqueId: 'B', fork, forkFile: 'f1' }],
  ]);
  const jvm = fakeJvm(behave);
  const r = await runMavenStressPass([a, b, junit4], opts.ceilingSeconds ?? 60, {
    setup: { workDir, runnerJar: '/runner.jar', forkLogDir: path.join(workDir, 'forks') },
    sources, projectDir: workDir, logger: silentLogger(), launch: jvm.launch, ...(opts.signal ? { signal: opts.signal } : {}),
  });
  const statuses = (c: { testCaseId: string }) => r.repetitions.get(c.testCaseId)!.map((x) => (x.crashed ? 'crash' : x.status));
  return { r, jvms: jvm.jvms, discarded: jvm.discarded(), a: statuses(a), b: statuses(b), junit4: statuses(junit4) };
}

describe('the Maven stress pass', () => {
  it('runs repetition k of a fork\'s candidates in one fresh JVM, selecting exactly their unique IDs', async () => {
    const p = await pass((id, k) => (id === 'A' && k === 2 ? 'failure' : 'success'));
    expect(p.jvms).toEqual([['A', 'B'], ['A', 'B'], ['A']]);
    expect(p.a).toEqual(['success', 'failure', 'success']);
    expect(p.b).toEqual(['success', 'success']);
    expect(p.r).toMatchObject({ cut: false, cancelled: false });
    expect(p.discarded).toBe(0);
  });
  it('a test no listener saw (JUnit 4 provider) is named as a problem and left without results: never passed', async () => {
    const p = await pass(() => 'success');
    expect(p.junit4).toEqual([]);
    expect(p.r.problems[0]).toContain('com.shop.CheckoutTest.old4');
  });
  it('a JVM that died under a candidate is that candidate failing; the others of that JVM are absent', async () => {
    const p = await pass((id, k) => (id === 'A' && k === 2 ? 'exit' : 'success'));
    expect(p.a).toEqual(['success', 'crash', 'success']);
    expect(p.b).toEqual(['success']);
  });
  it('a JVM that reported nothing is a problem, not a failure', async () => {
    const p = await pass((id, k) => (k === 1 && id === 'B' ? 'missing' : 'success'));
    expect(p.b).toEqual(['success']);
    expect(p.r.problems).toEqual([expect.stringContaining('com.shop.CheckoutTest.old4')]);
  });
  it('the ceiling stops the running JVM and launches no more: cut, nothing recorded for what it stopped', async () => {
    const p = await pass((_id, k) => (k === 2 ? 'hang' : 'success'), { ceilingSeconds: 0.5 });
    expect(p.r.cut).toBe(true);
    expect(p.a).toEqual(['success']);
    expect(p.jvms).toHaveLength(2);
    expect(p.discarded).toBe(1); // the standby JVM of repetition 3 never ran
  });
  it('cancellation stops the running JVM: cancelled, not cut', async () => {
    const controller = new AbortController();
    const p = await pass((_id, k) => {
      if (k === 2) setTimeout(() => controller.abort('SIGTERM'), 10);
      return k === 2 ? 'hang' : 'success';
    }, { signal: controller.signal });
    expect(p.r).toMatchObject({ cancelled: true, cut: false });
    expect(p.jvms).toHaveLength(2);
  });
});
