import { describe, expect, it } from '@jest/globals';
import { DEFAULT_STRESS_PARAMETERS, type Candidate } from '#contract';
import { gradleSource, verdict } from '../../test/support/builders.js';
import { silentLogger } from '../base/log.js';
import type { GateCandidate } from '../candidates/gate-candidate.js';
import type { GitRunner } from '../ci-env/detect-ci-env.js';
import { resolveConfig } from '../config/config.js';
import type { FirstPass } from '../first-pass/first-pass.js';
import type { StressPassResult } from '../repetitions/stress-pass-result.js';
import type { StressPlan } from '../repetitions/stress-plan.js';
import type { VerdictClient } from '../verdict/verdict-client.js';
import type { BuildAdapter, StressPlanRequest } from './build-adapter.js';
import { decideOnVerdict } from './decide-on-verdict.js';
import type { GateDeps } from './gate-deps.js';

// The core plans the stress pass through the build adapter and runs that plan: a fake adapter's
// plan (its own JVMs at a time, whatever the request) is what the ceiling guard predicts from,
// what the report's telemetry says, and exactly what the stress pass is handed.
const SUITE = 'com.shop.CheckoutTest';
const names = ['appliesDiscount', 'clearsCart'];
// Two new tests, 10 repetitions each of (600 ms JVM start + 2,400 ms): 60 s one JVM at a time.
const candidates: Candidate[] = names.map((name) => ({ module: ':app', suite: SUITE, name, testCaseId: `id-${name}`, durationMs: 2400, repetitions: 10, excluded: null }));

const first: FirstPass = {
  buildExitCode: 0,
  exitCode: 0,
  passed: true,
  startedAt: new Date(0),
  wallClockMs: 1000,
  settings: { mode: null, serverUrl: null, project: null, requestTimeoutSeconds: null, executor: null },
  unreported: null,
  cases: names.map((name) => ({ module: ':app', suite: SUITE, name, status: 'success', durationMs: 2400, source: gradleSource(':app:test', name), muted: false })),
  failures: 0,
  maskedFailures: 0,
  errors: [],
  readProblem: null,
  notes: [],
};

/** A build adapter whose plans run `concurrency` JVMs at a time; it records what it was asked. */
function fakeAdapter(concurrency: number, unrunnableNames: readonly string[] = []) {
  const requests: StressPlanRequest[] = [];
  const plans: StressPlan<string>[] = [];
  const ran: StressPlan<string>[] = [];
  const adapter: BuildAdapter<string> = {
    workDir: '/nowhere',
    firstPass: async () => first,
    planStress: async (stress, request) => {
      requests.push(request);
      const unrunnable = stress.filter((c) => unrunnableNames.includes(c.name)).map((candidate) => ({ candidate, why: 'no fork of the fake build ran it' }));
      const plan: StressPlan<string> = { executor: 'direct', concurrency, fallback: null, stress, targets: `fake targets of ${stress.length - unrunnable.length}`, unrunnable };
      plans.push(plan);
      return plan;
    },
    stressPass: async (plan) => {
      ran.push(plan);
      const cannot = new Set(plan.unrunnable.map((u) => u.candidate));
      const pass = passOf(plan.stress.filter((c) => !cannot.has(c)), plan.concurrency);
      return plan.unrunnable.length ? { ...pass, unrunnable: new Map(plan.unrunnable.map((u) => [u.candidate.testCaseId, u.why])) } : pass;
    },
    runInOrder: async () => ({ ok: false, why: 'the fake build runs no order probe' }),
  };
  return { adapter, requests, plans, ran };
}

function passOf(stress: readonly GateCandidate[], concurrency: number): StressPassResult {
  const repetitions = new Map(stress.map((c) => [c.testCaseId, Array.from({ length: c.repetitions ?? 0 }, (_, i) => ({ repetition: i + 1, status: 'success' as const, durationMs: c.durationMs }))]));
  return { repetitions, cut: false, cancelled: false, wallClockMs: 20_000, buildExitCode: null, problems: [], executor: 'direct', concurrency, fallback: null, confirmedAlone: 0, jvms: 20 };
}

async function decide(adapter: BuildAdapter<string>, ceilingSeconds: number) {
  const config = { ...resolveConfig({}, {}, null, '/project'), jvmStartMs: 600, parallelJvms: 3, executor: 'direct' as const };
  const parameters = { ...DEFAULT_STRESS_PARAMETERS, ceilingSeconds };
  const deps: GateDeps = {
    env: { STRESS_GATE_ORDER_PROBE: 'false' },
    cwd: '/project',
    out: () => {},
    err: () => {},
    logger: silentLogger(),
    git: (): GitRunner => async () => null,
    build: { prepare: async () => adapter, outputDir: 'build', settingsPrefix: 'fake.', tool: ['fake-build'] },
    now: () => 1000,
  };
  return decideOnVerdict(
    {
      mode: 'enforce',
      config,
      first,
      // Never asked again: the first answer below is the verdict.
      client: {} as VerdictClient,
      recordedOn: null,
      asked: { answer: { ok: true, value: verdict({ candidates, parameters }) }, analysis: null },
      build: adapter,
      buildArgs: ['verify'],
      muted: new Set(),
      awaitUpload: async () => null,
    },
    deps,
  );
}

describe('the stress plan and the ceiling guard', () => {
  it("a plan of one JVM at a time: the ceiling guard predicts from it and refuses the pass, which never runs", async () => {
    const fake = fakeAdapter(1);
    const report = await decide(fake.adapter, 30);
    expect(fake.requests).toEqual([{ executor: 'direct', parallelJvms: 3 }]);
    expect(report.guard).toMatchObject({ name: 'ceiling', count: 2 });
    expect(report.timing).toEqual({ predictedMs: 60_000, jvmStartMs: 600, concurrency: 1, jvms: 20 });
    expect(fake.ran).toEqual([]);
    expect(report.candidates.map((c) => c.outcome)).toEqual(['not_stressed', 'not_stressed']);
  });

  it('a plan of four JVMs at a time: under the ceiling, and the pass runs exactly that plan', async () => {
    const fake = fakeAdapter(4);
    const report = await decide(fake.adapter, 30);
    expect(report.guard).toBeNull();
    expect(report.timing).toEqual({ predictedMs: 15_000, jvmStartMs: 600, concurrency: 4, jvms: 20 });
    expect(fake.plans).toHaveLength(1);
    expect(fake.ran).toHaveLength(1);
    expect(fake.ran[0]).toBe(fake.plans[0]);
    expect(fake.ran[0]!.targets).toBe('fake targets of 2');
    expect(report.stressPass).toMatchObject({ jvmsAtATime: 4, executor: 'direct' });
    expect(report.candidates.map((c) => c.outcome)).toEqual(['passed', 'passed']);
  });

  it('a candidate the plan cannot run costs neither JVMs nor predicted time: the other one fits the ceiling, and the unrunnable one is said, never passed', async () => {
    // With both counted, one JVM at a time predicts 60 s over a 30 s ceiling; the one runnable test's 10 JVMs take 30 s.
    const fake = fakeAdapter(1, ['clearsCart']);
    const report = await decide(fake.adapter, 30);
    expect(report.guard).toBeNull();
    expect(report.timing).toEqual({ predictedMs: 30_000, jvmStartMs: 600, concurrency: 1, jvms: 10 });
    expect(fake.ran).toHaveLength(1);
    const [ran, cannot] = report.candidates;
    expect(ran).toMatchObject({ name: 'appliesDiscount', outcome: 'passed' });
    expect(cannot).toMatchObject({ name: 'clearsCart', why: expect.stringContaining('no fork of the fake build ran it') });
    expect(cannot!.outcome).not.toBe('passed');
  });
});
