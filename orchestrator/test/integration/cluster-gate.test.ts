// The gate end to end on the verdict API's cluster mode: real Gradle builds (Debian's 4.4.1) with
// the real plugin, and two real API processes on the local 2×2 ClickHouse cluster with ZooKeeper
// (verdict-api/test/support/cluster-api.ts). The default branch's CI job uploads its history
// through one instance; the merge request's job, through the other, adds CheckoutTest, whose
// appliesDiscount is flaky, and is blocked.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { clusterUnavailableReason } from '../../../verdict-api/test/support/clickhouse-cluster.mjs';
import { type ClusterApi, type ClusterProject, seedClusterProject, startClusterApi } from '../../../verdict-api/test/support/cluster-api.mjs';
import { main, realDeps } from '../../src/cli.js';
import { gitlabCiEnv } from '../support/ci-env.js';
import { checkoutProject, writeTree } from '../support/fixture-project.js';

const unavailable = clusterUnavailableReason();
if (unavailable) console.warn(`SKIPPING the cluster gate test: ${unavailable}`);
const describeCluster = unavailable ? describe.skip : describe;

const CHECKOUT = 'app/src/test/java/com/shop/CheckoutTest.java';
let api: ClusterApi;
let project: ClusterProject;
let dir: string;
let checkoutSource: string;

/** One CI job on `branch` through API instance `instance`, with `token`. */
async function ciJob(branch: string, mode: string, instance: number, token: string) {
  await rm(path.join(dir, 'appliesDiscount.count'), { force: true });
  const out: string[] = [];
  const err: string[] = [];
  const env = gitlabCiEnv(branch, mode, { url: api.instances[instance]!.url, project: project.handle, token });
  const code = await main(['gradle', '--offline', '-q', ':app:cleanTest', ':app:test'], { ...realDeps(env), cwd: dir, out: (t) => out.push(t), err: (t) => err.push(t) });
  const report = JSON.parse(await readFile(path.join(dir, 'build/stress-gate/report.json'), 'utf8'));
  return { code, out: out.join(''), err: err.join(''), report };
}

describeCluster('the gate end to end on a ClickHouse cluster with two API instances', () => {
  beforeAll(async () => {
    api = await startClusterApi(2);
    project = await seedClusterProject(api, 'shop');
    const tree = checkoutProject();
    checkoutSource = tree[CHECKOUT]!;
    delete tree[CHECKOUT];
    dir = await writeTree(tree);
  }, 300_000);
  afterAll(async () => {
    await api?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('uploads the default branch history through one instance; the other blocks the merge request adding a flaky test', async () => {
    const history = await ciJob('main', 'enforce', 0, project.token);
    expect(history.code).toBe(0);
    expect(history.report).toMatchObject({ outcome: 'no_candidates', exitCode: 0 });

    await writeFile(path.join(dir, CHECKOUT), checkoutSource);
    const mr = await ciJob('feature/checkout', 'enforce', 1, project.mrToken);
    expect(mr.code).toBe(1);
    // Only the tests the branch adds: the history uploaded through the other instance is known.
    expect(mr.out).toContain('  3 new test cases, 3 stressed, 0 excluded\n');
    expect(mr.out).toContain(' ! CheckoutTest.appliesDiscount failed 2 of 10 repetitions and blocked this\n   merge request.\n');
    expect(mr.report).toMatchObject({ outcome: 'failed', blocked: true });

    // The run and its gate result, read back through the first instance, on the project's shard.
    const res = await fetch(`${api.instances[0]!.url}/api/v1/projects/${project.handle}/runs/${mr.report.runId}`, { headers: { authorization: `Bearer ${project.admin}` } });
    expect(res.status).toBe(200);
    const run = (await res.json()) as { gate: Record<string, unknown>; flaky: { name: string; failed: number }[] };
    expect(run.gate).toMatchObject({ mode: 'enforce', outcome: 'failed', blocked: true, stressed: 3 });
    expect(run.flaky.map((f) => [f.name, f.failed])).toEqual([['appliesDiscount', 2]]);
  }, 480_000);
});
