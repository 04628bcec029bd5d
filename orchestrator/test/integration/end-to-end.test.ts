// The whole gate through real parts: real Gradle builds (Debian's 4.4.1) with the real plugin,
// and the real verdict API (embedded chDB) on a loopback port. History comes from a CI run on
// the default branch; the feature branch adds CheckoutTest, whose appliesDiscount is flaky.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { main, realDeps } from '../../src/cli.js';
import { gitlabCiEnv } from '../support/ci-env.js';
import { checkoutProject, writeTree } from '../support/fixture-project.js';
import { startVerdictApi, type VerdictApiProcess } from '../support/verdict-api-process.js';

const CHECKOUT = 'app/src/test/java/com/shop/CheckoutTest.java';
let api: VerdictApiProcess;
let dir: string;
let checkoutSource: string;

beforeAll(async () => {
  api = await startVerdictApi();
  const tree = checkoutProject();
  checkoutSource = tree[CHECKOUT]!;
  delete tree[CHECKOUT];
  dir = await writeTree(tree);
});
afterAll(async () => {
  await api?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** One CI job on `branch` (GitLab CI variables), configured through the environment only. */
async function ciJob(branch: string, mode: string, serverUrl = api.url) {
  await rm(path.join(dir, 'appliesDiscount.count'), { force: true });
  const out: string[] = [];
  const err: string[] = [];
  const env = gitlabCiEnv(branch, mode, { ...api, url: serverUrl });
  const code = await main(['gradle', '--offline', '-q', ':app:cleanTest', ':app:test'], {
    ...realDeps(env),
    cwd: dir,
    out: (t) => out.push(t),
    err: (t) => err.push(t),
  });
  const report = JSON.parse(await readFile(path.join(dir, 'build/stress-gate/report.json'), 'utf8'));
  return { code, out: out.join(''), err: err.join(''), report };
}

async function getRun(runId: string) {
  const res = await fetch(`${api.url}/api/v1/projects/${api.project}/runs/${runId}`, { headers: { Authorization: `Bearer ${api.token}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as { testCases: { name: string; isNew: boolean }[]; gate: Record<string, unknown> | null; flaky: { name: string; caughtBy: string; failed: number; repetitions: number }[] };
}

describe('the gate end to end: real Gradle, real verdict API', () => {
  it('uploads default-branch history and prints nothing when nothing is new', async () => {
    const r = await ciJob('main', 'report');
    expect(r.code).toBe(0);
    expect(r.out).toBe('');
    expect(r.report).toMatchObject({ outcome: 'no_candidates', exitCode: 0 });
  }, 180_000);

  it('stresses the tests the branch adds and reports the flaky one (report mode, exit 0)', async () => {
    await writeFile(path.join(dir, CHECKOUT), checkoutSource);
    const r = await ciJob('feature/checkout', 'report');
    expect(r.code).toBe(0);
    expect(r.out).toContain('  3 new test cases, 3 stressed, 0 excluded\n');
    // The direct executor (default) ran the ten side by side (3 failed), then alone (2 failed: 14, 18).
    expect(r.out).toContain('  :app CheckoutTest.appliesDiscount   10 repetitions, 2 failed\n');
    expect(r.out).toContain('  :app CheckoutTest.clearsCart        10 repetitions, passed\n');
    expect(r.out).not.toContain('CartTest');
    expect(r.out.replace(/\n {3}/g, ' ')).toContain('would have blocked this merge request. Pass --stress-new-tests enforce to make it blocking.');

    const run = await getRun(r.report.runId);
    expect(run.testCases.filter((t) => t.isNew).map((t) => t.name).sort()).toEqual(['appliesDiscount', 'clearsCart', 'total']);
    expect(run.gate).toMatchObject({ mode: 'report', outcome: 'failed', candidatesExamined: 3, stressed: 3, blocked: false, wouldHaveBlocked: true });
    expect(run.flaky).toEqual([{ module: ':app', suite: 'com.shop.CheckoutTest', name: 'appliesDiscount', caughtBy: 'stress_gate', failed: 2, repetitions: 10 }]);
  }, 240_000);

  it('blocks in enforce mode with the exit code of a failed test run', async () => {
    const r = await ciJob('feature/checkout', 'enforce');
    expect(r.code).toBe(1);
    expect(r.out).toContain(' ! CheckoutTest.appliesDiscount failed 2 of 10 repetitions and blocked this\n   merge request.\n');
    expect((await getRun(r.report.runId)).gate).toMatchObject({ mode: 'enforce', outcome: 'failed', blocked: true });
  }, 240_000);

  it('lets the first pass result stand when the verdict API is unreachable', async () => {
    const r = await ciJob('feature/checkout', 'enforce', 'http://127.0.0.1:9');
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/warning/i);
    expect(r.out).not.toContain('passed');
  }, 180_000);
});
