import { describe, expect, it } from '@jest/globals';
import { silentLogger } from '../base/log.js';
import type { ProbeTest } from '../repetitions/order-probe-result.js';
import type { InOrderOptions, InOrderOutcome, StepResult } from '../repetitions/sequence-run.js';
import { chanceToMeet, DEFAULT_PROBE_BOUNDS, planProbe, sample, seededRandom, sequenceCost } from './plan-probe.js';
import { readShared, runOrderProbe } from './run-probe.js';
import { gradleSource } from '../../test/support/builders.js';

const test = (suite: string, name: string, task = ':app:test'): ProbeTest => ({ module: ':app', suite, name, durationMs: 5, testCaseId: `${task} ${suite}.${name}`, source: gradleSource(task, name) });

/** A module of `classes` classes of `perClass` tests each. */
function module(classes: number, perClass: number): ProbeTest[] {
  return Array.from({ length: classes }, (_, c) => Array.from({ length: perClass }, (_, t) => test(`shop.C${c}Test`, `t${t}`))).flat();
}

/**
 * A fake JVM per sequence with one static: `writes` set it, `reads` fail when it is set; `flaky`
 * fails when asked. Each sequence starts clean, as a fresh JVM does.
 */
function fakeRunner(o: { writes?: string[]; reads?: string[]; flaky?: (id: string, nth: number) => boolean; killAfter?: number } = {}) {
  const calls: { sequences: ProbeTest[][]; options: InOrderOptions }[] = [];
  let runs = 0;
  const runInOrder = async (sequences: readonly (readonly ProbeTest[])[], options: InOrderOptions): Promise<InOrderOutcome> => {
    calls.push({ sequences: sequences.map((s) => [...s]), options });
    const out = sequences.map((s, n) => {
      let dirty = false;
      const steps = s.map((t): StepResult => {
        if (o.killAfter !== undefined && runs >= o.killAfter) return { status: 'not_run', why: 'stopped', killed: true };
        runs++;
        const fails = (o.reads?.includes(t.testCaseId) && dirty) || o.flaky?.(t.testCaseId, runs) === true;
        if (o.writes?.includes(t.testCaseId)) dirty = true;
        return fails ? { status: 'failure', durationMs: 1, failure: { kind: 'failure', type: 'java.lang.AssertionError', message: `${t.name} saw leftovers`, trace: null, stdoutTail: null, stderrTail: null, exitCode: null, signal: null, hsErrFile: null } } : { status: 'success', durationMs: 1 };
      });
      return { steps, dir: `/out/${options.round}/${n + 1}` };
    });
    return { ok: true, runs: out, cut: o.killAfter !== undefined && runs >= o.killAfter, cancelled: false, jvms: sequences.length, wallClockMs: 10 };
  };
  return { runInOrder, calls };
}

const deps = (runInOrder: ReturnType<typeof fakeRunner>['runInOrder']) => ({ build: { runInOrder }, logger: silentLogger(), err: () => undefined, now: Date.now });
const input = (candidates: ProbeTest[], pool: ProbeTest[], seed = 7) => ({ candidates, pool, seed, budgetMs: 60_000, concurrency: 2, jvmStartMs: 300 });

describe('planProbe', () => {
  it('runs each partner right before and right after the candidate, its class first, then a seeded sample of other classes', () => {
    const pool = module(12, 3);
    const c = pool[0]!;
    const [plan] = planProbe([c], pool, 42);
    expect(plan!.partners.slice(0, 2).map((p) => p.name)).toEqual(['t1', 't2']);
    expect(plan!.sampledClasses).toHaveLength(DEFAULT_PROBE_BOUNDS.sampledClasses);
    expect(plan!.moduleClasses).toBe(11);
    expect(plan!.partners).toHaveLength(2 + 6 * 3);
    const seq = plan!.sequences[0]!;
    expect(seq.filter((_, i) => i % 2 === 0).every((t) => t === c)).toBe(true);
    expect(seq.filter((_, i) => i % 2 === 1)).toEqual(plan!.partners);
    // The same seed and the same build draw the same sample, whatever order the results were read in.
    expect(planProbe([c], [...pool].reverse(), 42)[0]!.sampledClasses).toEqual(plan!.sampledClasses);
    expect(planProbe([c], pool, 43)[0]!.sampledClasses).not.toEqual(plan!.sampledClasses);
  });

  it('is bounded whatever the module size: the same number of partners for 20, 250 and 2,000 classes', () => {
    const sizes = [20, 250, 2000].map((n) => planProbe([test('shop.C0Test', 't0')], module(n, 5), 1)[0]!);
    expect(sizes.map((p) => p.partners.length)).toEqual([4 + 24, 4 + 24, 4 + 24]);
    expect(sizes.map((p) => p.sequences.length)).toEqual([1, 1, 1]);
  });

  it('keeps partners in the candidate\'s unit (its test task) and selection kind, and says how many of a large class it left out', () => {
    const platform = { ...test('shop.ATest', 'p'), source: gradleSource(':app:test', 'p', 1, '[engine:junit-jupiter]/p') };
    const other = test('shop.BTest', 'x', ':app:integrationTest');
    const big = Array.from({ length: 60 }, (_, i) => test('shop.ATest', `t${i}`));
    const [plan] = planProbe([big[0]!], [...big, platform, other], 3);
    expect(plan!.partners.every((p) => p.source.unit === ':app:test' && p.source.uniqueId === undefined)).toBe(true);
    expect(plan!.partners).toHaveLength(50);
    expect(plan!.classPartnersLeftOut).toBe(9);
    expect(plan!.sequences).toHaveLength(2);
  });

  it('a slow candidate meets fewer partners, its class\'s first, to fit its share of the budget; the plan says how many it left out', () => {
    const pool = module(6, 4);
    const slow = { ...pool[0]!, durationMs: 5_000 };
    const [plan] = planProbe([slow], pool, 1, DEFAULT_PROBE_BOUNDS, { shareMs: 30_000, jvmStartMs: 300 });
    // 300 + (k + 1) x 5,000 + k x 5 <= 30,000: k = 4.
    expect(plan!.partners).toHaveLength(4);
    expect(plan!.partners.slice(0, 3).every((p) => p.suite === slow.suite)).toBe(true);
    expect(plan!.budgetLeftOut).toBe(3 + 5 * 4 - 4);
    expect(sequenceCost(slow, plan!.partners, 4, 300, 40)).toBeLessThanOrEqual(30_000);
    // A fast one keeps them all.
    expect(planProbe([pool[0]!], pool, 1, DEFAULT_PROBE_BOUNDS, { shareMs: 30_000, jvmStartMs: 300 })[0]!.budgetLeftOut).toBe(0);
  });

  it('samples uniformly: each class is drawn with probability sampled/classes', () => {
    const classes = Array.from({ length: 12 }, (_, i) => `c${i}`);
    const random = seededRandom(5);
    const hits = new Map<string, number>();
    for (let i = 0; i < 12_000; i++) for (const c of sample(classes, 6, random)) hits.set(c, (hits.get(c) ?? 0) + 1);
    for (const c of classes) expect(Math.abs(hits.get(c)! / 12_000 - 0.5)).toBeLessThan(0.03);
    expect(chanceToMeet(6, 12, 4, 3)).toBe(0.5);
    expect(chanceToMeet(6, 2000, 4, 8)).toBeCloseTo(0.0015);
  });
});

describe('readShared', () => {
  it('says once per cause which partners did not run beside the candidate', () => {
    const pool = module(2, 5);
    const [plan] = planProbe([pool[0]!], pool, 1);
    const steps: StepResult[] = plan!.sequences[0]!.map((_, i) => (i % 2 === 1 ? { status: 'not_run', why: 'JUnit 4 found no such test', killed: false } : { status: 'success', durationMs: 1 }));
    const read = readShared(plan!, [{ steps, dir: '/x' }], DEFAULT_PROBE_BOUNDS.partnersPerJvm);
    expect(read.partnersRun).toBe(0);
    expect(read.notes).toEqual([expect.stringMatching(/^8 partners did not run beside it: JUnit 4 found no such test \(C0Test\.t1, C0Test\.t2, C0Test\.t3, …\)$/)]);
  });
});

describe('runOrderProbe', () => {
  const pool = [test('shop.CartTest', 'leaves'), test('shop.CartTest', 'needsClean'), test('shop.CartTest', 'setsMode'), test('shop.CartTest', 'readsMode'), test('shop.CartTest', 'stable'), test('shop.OtherTest', 'works')];
  const id = (name: string) => pool.find((t) => t.name === name)!;

  it('reports a victim with the partner it fails after, confirmed in fresh JVMs, and nothing for a stable test', async () => {
    const fake = fakeRunner({ writes: [id('leaves').testCaseId], reads: [id('needsClean').testCaseId] });
    const { perCandidate, summary } = await runOrderProbe(input([id('needsClean'), id('stable')], pool), deps(fake.runInOrder));
    const victim = perCandidate.get(id('needsClean').testCaseId)!;
    expect(victim.findings).toEqual([expect.objectContaining({ role: 'victim', other: id('leaves'), otherPassesAlone: null, replays: 2, replayFailures: 2 })]);
    expect(victim.status).toBe('probed');
    expect(perCandidate.get(id('stable').testCaseId)).toMatchObject({ status: 'probed', findings: [], partnersRun: 5, partners: 5 });
    // The replays ran exactly the pair, twice, in fresh JVMs.
    expect(fake.calls[1]!.sequences.slice(0, 2).map((s) => s.map((t) => t.name))).toEqual([['leaves', 'needsClean'], ['leaves', 'needsClean']]);
    // In the stable test's shared JVM, needsClean failed after it (leaves had run earlier in that JVM): replayed, not confirmed, said.
    expect(fake.calls[1]!.sequences.slice(2).map((s) => s.map((t) => t.name))).toEqual([['stable', 'needsClean'], ['stable', 'needsClean'], ['needsClean'], ['needsClean']]);
    expect(perCandidate.get(id('stable').testCaseId)!.notes).toEqual([expect.stringContaining('a pair failed in a shared JVM but not in every one of 2 fresh JVMs that ran exactly that pair (it then CartTest.needsClean)')]);
    expect(summary).toMatchObject({ seed: 7, candidates: 2, pairs: 10, jvms: 2 + 6, cut: false, why: null });
  });

  it('reports a polluter with the test it breaks, which passes alone', async () => {
    const fake = fakeRunner({ writes: [id('setsMode').testCaseId], reads: [id('readsMode').testCaseId] });
    const { perCandidate } = await runOrderProbe(input([id('setsMode')], pool), deps(fake.runInOrder));
    expect(perCandidate.get(id('setsMode').testCaseId)!.findings).toEqual([expect.objectContaining({ role: 'polluter', other: id('readsMode'), otherPassesAlone: true, replayFailures: 2 })]);
    expect(fake.calls[1]!.sequences.map((s) => s.map((t) => t.name))).toEqual([['setsMode', 'readsMode'], ['setsMode', 'readsMode'], ['readsMode'], ['readsMode']]);
  });

  it('never reports a pair that fails in a shared JVM only (a flaky partner, two tests needed): it says so', async () => {
    // The partner fails once, in the shared JVM only.
    const fake = fakeRunner({ flaky: (tid, nth) => tid === id('works').testCaseId && nth < 14 });
    const { perCandidate } = await runOrderProbe(input([id('stable')], pool), deps(fake.runInOrder));
    const probe = perCandidate.get(id('stable').testCaseId)!;
    expect(probe.findings).toEqual([]);
    expect(probe.notes.join(' ')).toContain('a pair failed in a shared JVM but not in every one of 2 fresh JVMs that ran exactly that pair (it then OtherTest.works): not reported');
  });

  it('a polluter whose victim fails alone too is not reported: not the candidate\'s doing', async () => {
    const fake = fakeRunner({ flaky: (tid) => tid === id('works').testCaseId });
    const { perCandidate } = await runOrderProbe(input([id('stable')], pool), deps(fake.runInOrder));
    const probe = perCandidate.get(id('stable').testCaseId)!;
    expect(probe.findings).toEqual([]);
    expect(probe.notes.join(' ')).toContain("OtherTest.works failed after this test, and also failed alone in a fresh JVM: not this test's doing");
  });

  it('a probe its budget stopped is "cut", with how many partners ran: never a clean probe', async () => {
    const fake = fakeRunner({ killAfter: 4 });
    const { perCandidate, summary } = await runOrderProbe(input([id('stable')], pool), deps(fake.runInOrder));
    expect(perCandidate.get(id('stable').testCaseId)).toMatchObject({ status: 'cut', why: 'its budget or the ceiling stopped it: 1 of 5 partners ran' });
    expect(summary.cut).toBe(true);
  });

  it('a build tool that cannot choose an order: not run, with why; a candidate alone in its task: not run, nothing to run beside', async () => {
    const cannot = async (): Promise<InOrderOutcome> => ({ ok: false, why: ':app:test left no fork settings' });
    const { perCandidate, summary } = await runOrderProbe(input([id('stable')], pool), { ...deps(cannot), build: { runInOrder: cannot } });
    expect(perCandidate.get(id('stable').testCaseId)).toMatchObject({ status: 'not_run', why: ':app:test left no fork settings' });
    expect(summary.why).toBe(':app:test left no fork settings');
    const lonely = test('shop.Lonely', 'only', ':lib:test');
    const alone = await runOrderProbe(input([lonely], [lonely]), deps(fakeRunner().runInOrder));
    expect(alone.perCandidate.get(lonely.testCaseId)).toMatchObject({ status: 'not_run', why: 'no other test passed in its test task: nothing to run it beside' });
  });
});
