import { describe, expect, it } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as v from 'valibot';
import { GateUpload, RunUpload, VerdictRequest, type VerdictResponse } from '@stress-gate/verdict-api/contract';
import { cannedVerdict } from '../../test/support/fake-verdict-server.js';
import { fakeGradle } from '../../test/support/fake-gradle.js';
import { cases, isNew, quarantineOf, run, S } from '../../test/support/gate-harness.js';
import { identityKey } from '../identity/identity-key.js';
import { silentLogger } from '../base/log.js';
import { main, version } from '../cli.js';

const outs: string[] = [];
const flaky = (name: string, k: number) => (name === 'appliesDiscount' && (k === 3 || k === 8) ? 'failure' : 'success');

describe('the gate flow (fake Gradle, fake API)', () => {
  it('rejects a bad mode before Gradle runs', async () => {
    const r = await run([], { env: { STRESS_NEW_TESTS: 'yes' } });
    expect(r.code).toBe(2);
    expect(r.calls).toHaveLength(0);
    expect(r.err).toContain('STRESS_NEW_TESTS: expected one of report, enforce, off; got "yes"');
  });

  it('off: uploads the run, prints nothing, exits with Gradle\'s code', async () => {
    const r = await run([], { exitCode: 0 });
    expect(r).toMatchObject({ code: 0, out: '', err: '' });
    expect(r.calls).toHaveLength(1);
    expect(r.requests.map((q) => q.url)).toEqual(['http://api.test/api/v1/projects/shop/runs']);
    expect((r.requests[0]!.body as { testCases: unknown[] }).testCases).toHaveLength(4);
    expect(v.safeParse(RunUpload, r.requests[0]!.body).issues).toBeUndefined();
    expect((await run([], { exitCode: 1, firstPass: [{ suite: S, name: 'x', status: 'failure' }] })).code).toBe(1);
  });

  it('uploads a shard of a sharded run under the shared run id, run and gate alike', async () => {
    const r = await run(['--stress-new-tests', 'report'], {
      env: { STRESS_GATE_RUN_ID: 'pipeline-7', STRESS_GATE_SHARD_INDEX: '1', STRESS_GATE_SHARD_TOTAL: '3' },
      repStatus: flaky,
    });
    expect(r.requests.map((q) => q.url.replace('http://api.test/api/v1/projects/shop', ''))).toEqual(['/runs', '/verdict', '/runs/pipeline-7/gate']);
    expect(r.requests[0]!.body).toMatchObject({ runId: 'pipeline-7', shard: { index: 1, total: 3 } });
    expect(r.requests[2]!.body).toMatchObject({ shard: { index: 1, total: 3 } });
  });

  it('passes every Gradle argument through with the init script and manifest property', async () => {
    const r = await run(['--offline', '-Pa=b', '--stress-new-tests', 'off', '--', '--tests', 'X']);
    expect(r.calls[0]).toEqual(['test', '--offline', '-Pa=b', '--tests', 'X', '-I', expect.stringMatching(/init\.gradle$/), expect.stringMatching(/^-PstressGate\.manifest=/)]);
  });

  it('report: stresses the new tests, prints the report, exits with the first pass result', async () => {
    const r = await run(['--stress-new-tests', 'report'], { repStatus: flaky });
    expect(r.code).toBe(0);
    expect(r.out).toBe(
      [
        'Stress-testing new tests',
        '  2 new test cases, 2 stressed, 0 excluded',
        '  :app CheckoutTest.appliesDiscount   10 repetitions, 2 failed',
        '  :app CheckoutTest.clearsCart        10 repetitions, passed',
        '  20 repetitions one JVM at a time (Gradle executor)',
        '  10 clean repetitions rule out a failure rate above 26% per run (95%',
        '  confidence); rarer flakes can pass.',
        '',
        ' ! CheckoutTest.appliesDiscount failed 2 of 10 repetitions and would have',
        '   blocked this merge request. Pass --stress-new-tests enforce to make it',
        '   blocking.',
        // The fake Gradle records no failure details (the real plugin does).
        '   2 failed, all alike: a failure with no details recorded',
        '   Reproduce:',
        // Started from this checkout, not a project's install: the scoped package at this version; the build's arguments after --.
        `     npx -p @stress-gate/orchestrator@${version()} stress-orchestrator gradle --stress-tests ':app com.shop.CheckoutTest.appliesDiscount' --repetitions 50 -- test`,
        // The new test that passed would be probed for order dependence; with no fork settings it cannot be, and the report says so.
        ' ! The order probe did not run: :app:test left no fork settings (it did not',
        "   execute in the first pass). The new tests' order dependence is unknown.",
        '',
        `  Run page: http://api.test/projects/shop/runs/${r.report.runId}`,
        '',
      ].join('\n'),
    );
    const stressCall = r.calls[1]!;
    expect(stressCall).toEqual(['-q', '--continue', '-I', expect.any(String), expect.stringMatching(/^-PstressGate\.manifest=/), expect.stringMatching(/^-PstressGate\.plan=/), 'stressGateStress']);
    // Sent grouped by suite, with no per-test-case list beside it.
    const verdictBody = r.requests[1]!.body as { testCases?: unknown; suites: { module: string; suite: string; names: string[]; durationsMs: number[] }[] };
    expect(verdictBody.testCases).toBeUndefined();
    expect(verdictBody.suites.flatMap((s) => s.names)).toEqual(['old', 'appliesDiscount', 'clearsCart']); // skipped never posted
    expect(verdictBody.suites.every((s) => s.durationsMs.length === s.names.length)).toBe(true);
    expect(new Set(verdictBody.suites.map((s) => `${s.module} ${s.suite}`)).size).toBe(verdictBody.suites.length);
    const gate = r.requests[2]!.body as Record<string, unknown>;
    expect(gate).toMatchObject({ mode: 'report', outcome: 'failed', candidatesExamined: 2, stressed: 2, blocked: false, wouldHaveBlocked: true, guard: null });
    expect(r.report).toMatchObject({ outcome: 'failed', exitCode: 0 });
    expect(v.safeParse(VerdictRequest, r.requests[1]!.body).success).toBe(true);
    expect(v.safeParse(GateUpload, r.requests[2]!.body).success).toBe(true);
  });

  it('a run upload still in flight holds neither the verdict nor the stress pass, only the gated observation that refers to it', async () => {
    let stored!: () => void;
    const upload = new Promise<void>((resolve) => (stored = resolve));
    const r = await run(['--stress-new-tests', 'report'], { repStatus: flaky, holdRunUpload: upload, after: async (kind) => void (kind === 'stress' && stored()) });
    // The upload leaves once the verdict is answered, so it cannot hold up the answer on the API.
    expect(r.events).toEqual(['first pass starts', 'sent /verdict', 'verdict answered', 'sent /runs', 'stress pass starts', 'run upload answered', `sent /runs/${r.report.runId}/gate`]);
    expect(r.report).toMatchObject({ outcome: 'failed', overhead: { beforeFirstPassMs: expect.any(Number), firstPassMs: expect.any(Number), afterFirstPassMs: expect.any(Number) } });
  });

  it('the run upload leaves only once the verdict is answered, however long the answer takes', async () => {
    const slowly = (posted: never[]) => new Promise<VerdictResponse>((resolve) => setTimeout(() => resolve(cannedVerdict(posted, isNew)), 50));
    const r = await run(['--stress-new-tests', 'report'], { repStatus: flaky, verdict: slowly });
    // Sent beside the verdict request, the upload held up the answer on the API (run-gate.ts).
    expect(r.events.slice(0, 4)).toEqual(['first pass starts', 'sent /verdict', 'verdict answered', 'sent /runs']);
    expect(r.report).toMatchObject({ outcome: 'failed' });
  });

  it('a CI run of the default branch waits for its upload and asks the verdict again, so it counts itself', async () => {
    let stored!: () => void;
    const upload = new Promise<void>((resolve) => (stored = resolve));
    setTimeout(() => stored(), 50);
    const r = await run(['--stress-new-tests', 'report'], { repStatus: flaky, holdRunUpload: upload, env: { GITLAB_CI: 'true', CI_COMMIT_REF_NAME: 'main', CI_COMMIT_SHA: 'abc' } });
    expect(r.events.slice(0, 7)).toEqual(['first pass starts', 'sent /verdict', 'verdict answered', 'sent /runs', 'run upload answered', 'sent /verdict', 'verdict answered']);
  });

  it('enforce: exits 1 when a new test disagrees with itself, 0 when all pass', async () => {
    expect((await run(['--stress-new-tests', 'enforce'], { repStatus: flaky })).code).toBe(1);
    const green = await run(['--stress-new-tests', 'enforce']);
    expect(green.code).toBe(0);
    expect(green.out).toContain('appliesDiscount   10 repetitions, passed');
  });

  it('enforce: a candidate that was expected to run and did not is a gate error: never a pass, never a block', async () => {
    const r = await run(['--stress-new-tests', 'enforce'], { repStatus: (name, k) => (name === 'clearsCart' && k > 7 ? 'missing' : 'success') });
    expect(r.code).toBe(0);
    expect(r.out).toContain(':app CheckoutTest.clearsCart        7 of 10 repetitions, not stressed (gate error: 3 of 10 repetitions left no result)');
    expect(r.flat).toContain('The gate could not stress 1 new test case (its own trouble, not the test\'s); it is not counted as passed and cannot block this merge request.');
    expect(r.report).toMatchObject({ outcome: 'incomplete', blocked: false, exitCode: 0 });
    expect(r.requests[2]!.body).toMatchObject({ outcome: 'incomplete', blocked: false, wouldHaveBlocked: false });
  });

  it('enforce: a repetition JVM that died running a candidate is that candidate failing, and blocks', async () => {
    const r = await run(['--stress-new-tests', 'enforce'], { repStatus: (name, k) => (name === 'appliesDiscount' && k === 4 ? 'crash' : 'success') });
    expect(r.code).toBe(1);
    expect(r.out).toContain(':app CheckoutTest.appliesDiscount   10 repetitions, 1 failed (its JVM died once)');
    // clearsCart runs in JVMs of its own: the JVM appliesDiscount took down was not its.
    expect(r.out).toContain(':app CheckoutTest.clearsCart        10 repetitions, passed');
    expect(r.report).toMatchObject({ outcome: 'failed', blocked: true, exitCode: 1 });
  });

  it('a plugin that reported nothing from the stress pass: every candidate is a gate error, the exit code the first pass\'s', async () => {
    const r = await run(['--stress-new-tests', 'enforce'], { repStatus: () => 'missing', noStressLog: true });
    expect(r.code).toBe(0);
    expect(r.flat).toContain('The Gradle plugin reported nothing from the stress pass');
    expect(r.report.candidates.map((c: { outcome: string }) => c.outcome)).toEqual(['error', 'error']);
  });

  it('first pass failed on an old test: says the stress pass was skipped, exits with the failure', async () => {
    const r = await run(['--stress-new-tests', 'enforce'], { exitCode: 1, firstPass: cases.map((c) => (c.name === 'old' ? { ...c, status: 'failure' as const } : c)) });
    expect(r.code).toBe(1);
    expect(r.out).toBe(`Stress-testing new tests\n  Skipped: the first pass failed, so no new test was stressed.\n\n  Run page: http://api.test/projects/shop/runs/${r.report.runId}\n`);
    expect(r.calls).toHaveLength(1);
    // The verdict is asked to learn which tests are new.
    expect(r.requests.map((q) => q.url.split('/').pop())).toEqual(['runs', 'verdict', 'gate']);
  });

  it('first pass failed with no failing test (compilation): skipped without asking the verdict', async () => {
    const r = await run(['--stress-new-tests', 'enforce'], { exitCode: 1 });
    expect(r.code).toBe(1);
    expect(r.out).toContain('Skipped: the first pass failed, so no new test was stressed.');
    expect(r.requests.map((q) => q.url.split('/').pop())).toEqual(['runs', 'gate']);
  });

  it('first pass failed only on a new test: stresses it, calls it flaky, keeps the build exit code', async () => {
    const firstPass = cases.map((c) => (c.name === 'appliesDiscount' ? { ...c, status: 'failure' as const } : c));
    const r = await run(['--stress-new-tests', 'enforce'], { exitCode: 1, firstPass, repStatus: flaky });
    expect(r.code).toBe(1);
    expect(r.out).toContain('The build failed on 1 new test. The gate stressed it, each repetition in a fresh JVM;');
    expect(r.out).toContain(' ! CheckoutTest.appliesDiscount is flaky: it failed in the build, then passed 8');
    expect(r.out).toContain('   Reproduce:');
    expect(r.report).toMatchObject({ exitCode: 1, blocked: false, wouldHaveBlocked: true, outcome: 'failed' });
    const gate = r.requests.find((q) => q.url.endsWith('/gate'))!.body;
    expect(v.safeParse(GateUpload, gate).issues).toBeUndefined();
    expect(gate).toMatchObject({ blocked: false, wouldHaveBlocked: true, testCases: [{ name: 'appliesDiscount', outcome: 'failed' }, { name: 'clearsCart', outcome: 'passed' }] });
  });

  it('no candidates: nothing printed, no stress pass', async () => {
    const r = await run(['--stress-new-tests', 'enforce'], { verdict: (p) => cannedVerdict(p, () => false) });
    expect(r).toMatchObject({ code: 0, out: '' });
    expect(r.calls).toHaveLength(1);
  });

  it('not entitled: silent like off', async () => {
    const r = await run(['--stress-new-tests', 'enforce'], { verdict: (p) => ({ ...cannedVerdict(p, isNew), entitled: false }) });
    expect(r).toMatchObject({ code: 0, out: '', err: '' });
    expect(r.calls).toHaveLength(1);
  });

  it.each([
    ['erroring', () => new Response('{"error":{"code":"internal","message":"db down"}}', { status: 500 }), 'HTTP 500 internal: db down'],
    ['invalid', () => Response.json({ entitled: true }), 'invalid response'],
    ['unreachable', () => Promise.reject(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } })), 'unreachable (ECONNREFUSED)'],
  ])('server %s: a warning, the first pass result stands', async (_label, answer, problem) => {
    const r = await run(['--stress-new-tests', 'enforce'], { verdict: answer as never });
    expect(r.code).toBe(0);
    expect(r.flat).toContain(problem);
    expect(r.flat).toContain("nothing was stressed and the first pass's result stands");
    expect(r.calls).toHaveLength(1);
  });

  it('broken first-pass XML: names the file, runs no stress pass, never reports green, never blocks', async () => {
    const r = await run(['--stress-new-tests', 'enforce'], { rawXml: '<testsuite><testcase name="a"' });
    expect(r.code).toBe(0);
    expect(r.report).toMatchObject({ outcome: 'broken_results', blocked: false });
    expect(r.flat).toMatch(/TEST-x\.xml: broken JUnit XML at line 1/);
    expect(r.calls).toHaveLength(1);
    expect((await run(['--stress-new-tests', 'report'], { rawXml: '<oops' })).code).toBe(0);
  });

  it('a passing build without the plugin\'s manifest is a loud gate error, never a silent "no new tests", never a block', async () => {
    const gradle = await fakeGradle({ firstPass: cases });
    const r = await main(['gradle', 'test', '--stress-new-tests', 'enforce', '--report-file', path.join(gradle.dir, 'r.json')], {
      env: { STRESS_GATE_URL: 'http://api.test', STRESS_GATE_ALLOW_HTTP: '1', STRESS_GATE_PROJECT: 'shop', STRESS_GATE_TOKEN: 'tok' },
      cwd: gradle.dir,
      out: (t) => outs.push(t),
      err: () => undefined,
      logger: silentLogger(),
      gradle: { prepare: gradle.setup, executable: async () => 'gradle' },
      runBuild: async () => ({ exitCode: 0, interrupted: false, wallClockMs: 1 }),
      git: () => async () => null,
      quarantine: quarantineOf(),
      fetch: (async () => new Response('{}', { status: 201 })) as unknown as typeof globalThis.fetch,
      now: () => Date.now(),
    });
    expect(r).toBe(0);
    expect(outs.join('').replace(/\n {3}/g, ' ')).toContain('the Gradle plugin wrote no manifest');
  });

  it('a guard replaces the list and runs no stress pass', async () => {
    const r = await run(['--stress-new-tests', 'enforce'], {
      verdict: (p) => {
        const v = cannedVerdict(p, isNew);
        return { ...v, guards: { ...v.guards, bulkChange: { fired: true, newCount: 120, inventory: 200, ratio: 0.3, floor: 50 } } };
      },
    });
    expect(r.code).toBe(0);
    expect(r.out).toBe(`Stress-testing new tests\n  Bulk change: 120 new test cases exceed 30% of the 200 known on main; not stressed.\n\n  Run page: http://api.test/projects/shop/runs/${r.report.runId}\n`);
    expect(r.calls).toHaveLength(1);
    expect(r.requests[2]!.body).toMatchObject({ outcome: 'guarded', guard: { name: 'bulk_change', count: 120 }, stressed: 0, notStressed: 2, testCases: [] });
  });

  it('muted: a first pass failing only on muted tests passes, and a muted flaky candidate cannot fail the gate', async () => {
    const muted = new Set([identityKey({ module: ':app', suite: S, name: 'appliesDiscount' }), identityKey({ module: ':app', suite: S, name: 'old' })]);
    const firstPass = cases.map((c) => (c.name === 'old' ? { ...c, status: 'failure' as const } : c));
    const r = await run(['--stress-new-tests', 'enforce'], { exitCode: 1, firstPass, repStatus: flaky, quarantine: quarantineOf(muted) });
    expect(r.code).toBe(0);
    expect(r.out).toContain('appliesDiscount   10 repetitions, 2 failed (muted: cannot fail the gate)');
    expect(r.requests[2]!.body).toMatchObject({ outcome: 'passed', blocked: false });
  });

  it('takes the mode from the settings block when neither flag nor env sets it', async () => {
    const r = await run([], { settings: { mode: 'enforce' }, repStatus: flaky });
    expect(r.code).toBe(1);
  });

  it('an upload failure is a warning, never a changed exit code', async () => {
    const off = await run([], { uploadStatus: 503 });
    expect(off.code).toBe(0);
    expect(off.err).toMatch(/^stress-gate: warning: the run was not uploaded: http:\/\/api\.test\/api\/v1\/projects\/shop\/runs: HTTP 503 after \d+ attempts\n$/);
    const enforce = await run(['--stress-new-tests', 'enforce'], { uploadStatus: 500 });
    expect(enforce.code).toBe(0);
    expect(enforce.err).toContain('warning: the gated observation was not uploaded');
  });

  it('writes a GitHub Actions job summary when GITHUB_STEP_SUMMARY is set', async () => {
    const summary = path.join(await import('node:os').then((os) => os.tmpdir()), `summary-${process.pid}-${Date.now()}.md`);
    await run(['--stress-new-tests', 'report'], { repStatus: flaky, env: { GITHUB_STEP_SUMMARY: summary } });
    const md = await readFile(summary, 'utf8');
    expect(md).toContain('### Stress-testing new tests (report)');
    expect(md).toContain('| `:app CheckoutTest.appliesDiscount` | 10/10 | 2 | 2 failed |');
    expect(md).toContain('**Would have blocked**');
  });
});
