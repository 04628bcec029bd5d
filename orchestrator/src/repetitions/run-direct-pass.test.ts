import { describe, expect, it } from '@jest/globals';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { GateCandidate } from '../candidates/gate-candidate.js';
import { silentLogger } from '../log.js';
import { predictCeiling } from '../ceiling/predict-ceiling.js';
import { progressLine } from './progress.js';
import { assignRepetitions } from './read-repetitions.js';
import { runDirectPass } from './run-direct-pass.js';
import type { JvmRunner } from './run-jvm.js';
import type { ClassArchive } from './class-archive.js';
import { buildStressPlan } from './stress-plan.js';

const cand = (name: string, reps: number, durationMs = 10): GateCandidate => ({
  module: ':app', suite: 'com.S', name, testCaseId: name, durationMs, repetitions: reps, excluded: null, muted: false,
  source: { task: ':app:test', xmlName: name, occurrence: 1 },
});
const spec = { path: ':app:test', framework: 'junit', executable: 'java', jvmArgs: [], classpath: ['/c'], workingDir: '/w', environment: {} };

/** A fake JVM: `behave(name, jvmIndex)` says what each candidate does in the n-th JVM started. */
function fakeJvm(behave: (name: string, n: number) => 'SUCCESS' | 'FAILURE' | 'die'): { runJvm: JvmRunner; started: () => number; maxAtOnce: () => number } {
  let n = 0;
  let running = 0;
  let max = 0;
  const runJvm: JvmRunner = async (l) => {
    const jvm = n++;
    running++;
    max = Math.max(max, running);
    await new Promise((r) => setTimeout(r, 5));
    const [specFile, results, label] = l.args.slice(-3) as [string, string, string];
    const { readFile } = await import('node:fs/promises');
    const names = (await readFile(specFile, 'utf8')).trim().split('\n').map((x) => decodeURIComponent(x.split(' ')[1]!));
    let out = '';
    for (const name of names) {
      out += JSON.stringify({ task: label, event: 'started', className: 'com.S', name }) + '\n';
      const b = behave(name, jvm);
      if (b === 'die') break;
      out += JSON.stringify({ task: label, className: 'com.S', name, result: b, durationMs: 1 }) + '\n';
    }
    await writeFile(results, out);
    running--;
    return { exitCode: 0, killed: false, startError: null };
  };
  return { runJvm, started: () => n, maxAtOnce: () => max };
}

async function pass(stress: GateCandidate[], runJvm: JvmRunner, concurrency = 2) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'direct-pass-'));
  const plan = buildStressPlan(stress, dir);
  const out = await runDirectPass({ plan, stress, specs: new Map([[':app:test', spec]]), runnerJar: '/r.jar', concurrency, deadlineMs: 60_000 }, { runJvm, logger: silentLogger() });
  return { ...out, recorded: assignRepetitions(stress, out.reports) };
}

describe('the direct executor', () => {
  it('runs every repetition, at most `concurrency` JVMs at once', async () => {
    const jvm = fakeJvm(() => 'SUCCESS');
    const r = await pass([cand('a', 10), cand('b', 3)], jvm.runJvm);
    expect(jvm.started()).toBe(10);
    expect(jvm.maxAtOnce()).toBe(2);
    expect(r.recorded.get('a')).toHaveLength(10);
    expect(r.recorded.get('b')).toHaveLength(3);
    expect(r.confirmed).toBe(0);
  });

  it('re-runs alone a candidate that failed side by side; the serial run is its verdict', async () => {
    // Fails only in the first 10 JVMs (the concurrent ones): a collision, not the test's own flakiness.
    const jvm = fakeJvm((name, n) => (name === 'a' && n < 10 && n % 3 === 0 ? 'FAILURE' : 'SUCCESS'));
    const r = await pass([cand('a', 10), cand('b', 10)], jvm.runJvm);
    expect(r.confirmed).toBe(1);
    expect(jvm.started()).toBe(20);
    expect(r.recorded.get('a')!.map((x) => x.status)).toEqual(Array(10).fill('success'));
    expect(r.recorded.get('b')).toHaveLength(10);
  });

  it('a JVM that died under a candidate is a failure (crashed), and still fails when run alone', async () => {
    const jvm = fakeJvm((name, n) => (name === 'a' && n % 5 === 1 ? 'die' : 'SUCCESS'));
    const r = await pass([cand('a', 10)], jvm.runJvm);
    const a = r.recorded.get('a')!;
    expect(a).toHaveLength(10);
    expect(a.filter((x) => x.crashed)).toHaveLength(2);
  });

  it('runs nothing after the signal aborts, and says it was cancelled', async () => {
    const jvm = fakeJvm(() => 'SUCCESS');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'direct-pass-'));
    const stress = [cand('a', 10)];
    const signal = AbortSignal.abort('SIGTERM');
    const r = await runDirectPass(
      { plan: buildStressPlan(stress, dir), stress, specs: new Map([[':app:test', spec]]), runnerJar: '/r.jar', concurrency: 2, deadlineMs: 60_000 },
      { runJvm: jvm.runJvm, logger: silentLogger(), signal },
    );
    expect(r.cancelled).toBe(true);
    expect(jvm.started()).toBe(0);
  });
});

describe('the direct executor and the JDK class archive', () => {
  const argsOf = (seen: string[][]) => seen.map((a) => a.filter((x) => x.startsWith('-XX:')));
  async function archived(archive: ClassArchive, options: { signal?: AbortSignal } = {}) {
    const seen: string[][] = [];
    const jvm = fakeJvm(() => 'SUCCESS');
    const runJvm: JvmRunner = (l) => (seen.push(l.args), jvm.runJvm(l));
    const dir = await mkdtemp(path.join(os.tmpdir(), 'direct-pass-'));
    const stress = [cand('a', 4)];
    const out = await runDirectPass(
      { plan: buildStressPlan(stress, dir), stress, specs: new Map([[':app:test', spec]]), runnerJar: '/r.jar', concurrency: 2, deadlineMs: 60_000, archives: new Map([[':app:test', archive]]) },
      { runJvm, logger: silentLogger(), ...(options.signal ? { signal: options.signal } : {}) },
    );
    await out.archiving;
    return { seen: argsOf(seen), out };
  }

  it('maps the archive in every repetition JVM, before the classpath', async () => {
    const { seen } = await archived({ state: 'use', file: '/c/x.jsa', args: ['-XX:SharedArchiveFile=/c/x.jsa'] });
    expect(seen).toEqual(Array(4).fill(['-XX:SharedArchiveFile=/c/x.jsa']));
  });

  it('records the class list in the first JVM only, and makes the archive once the pass is over', async () => {
    let made = 0;
    const make = async () => (made++, '/c/x.jsa');
    const { seen } = await archived({ state: 'record', list: '/w/l.txt', recordArgs: ['-XX:DumpLoadedClassList=/w/l.txt'], make });
    expect(seen).toEqual([['-XX:DumpLoadedClassList=/w/l.txt'], [], [], []]);
    expect(made).toBe(1);
  });

  it('makes no archive from a pass that was cancelled', async () => {
    let made = 0;
    const make = async () => (made++, null);
    await archived({ state: 'record', list: '/w/l.txt', recordArgs: ['-XX:DumpLoadedClassList=/w/l.txt'], make }, { signal: AbortSignal.abort('SIGINT') });
    expect(made).toBe(0);
  });
});

describe('ceiling prediction and progress', () => {
  it('divides the work by the JVMs at a time, never below the longest repetition', () => {
    const stress = [cand('a', 10, 100), cand('b', 10, 100)];
    expect(predictCeiling(stress, 500, 600).predictedMs).toBe(10 * 700);
    expect(predictCeiling(stress, 500, 600, 2).predictedMs).toBe(10 * 700 / 2);
    expect(predictCeiling([cand('x', 1, 5000)], 500, 600, 8).predictedMs).toBe(5500);
  });

  it('words a progress line', () => {
    expect(progressLine(3, 10, 1, 65_000)).toMatch(/^stress pass: 3\/10 repetitions, 1 failure, .+ left before the ceiling$/);
  });
});
