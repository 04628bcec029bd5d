// Cluster mode through real parts: Debian's ZooKeeper and four clickhouse-servers (2 shards × 2
// replicas) on loopback, and two real API processes on them. Uploads acknowledged by either
// instance are read by the next verdict of the other; claims raced from both instances have one
// winner; a replica, then a shard, then ZooKeeper stop while load runs, and afterwards every
// acknowledged upload is stored exactly once.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { shardOfProject } from '../../src/storage/cluster.js';
import { clusterUnavailableReason } from '../support/clickhouse-cluster.mjs';
import { type ClusterApi, type ClusterProject, seedClusterProject, startClusterApi } from '../support/cluster-api.js';
import { ids, run } from '../support/api.js';

const unavailable = clusterUnavailableReason();
if (unavailable) console.warn(`SKIPPING the cluster tests: ${unavailable}`);
const describeCluster = unavailable ? describe.skip : describe;

let api: ClusterApi;
/** One project on each shard: [shard 1's, shard 2's]. */
const onShard: ClusterProject[] = [];

async function call(instance: number, method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(`${api.instances[instance]!.url}/api/v1/projects${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: text.startsWith('{') ? (JSON.parse(text) as Record<string, any>) : { text } };
}

const verdict = (instance: number, p: ClusterProject, names: string[]) => call(instance, 'POST', `/${p.handle}/verdict`, p.token, { testCases: ids(names) });
const candidates = (answer: { body: Record<string, any> }) => (answer.body['candidates'] as { name: string }[]).map((c) => c.name).sort();

describeCluster('the verdict API on a 2×2 ClickHouse cluster with two instances', () => {
  beforeAll(async () => {
    api = await startClusterApi(2);
    // Projects until each shard has one: a project's shard follows from its id (cluster.ts).
    for (let i = 0; onShard.length < 2 || onShard.some((p) => p === undefined); i++) {
      if (i > 20) throw new Error('no project landed on one of the shards in 20 tries');
      const p = await seedClusterProject(api, `proj-${i}`, i % 2);
      onShard[shardOfProject(p.projectId, 2)] ??= p;
    }
  }, 300_000);
  afterAll(async () => {
    await api?.stop();
  }, 60_000);

  it('lays the tables out: replicated local tables on every node, Distributed over them, a project on one shard', async () => {
    const tables = await api.query(`SELECT name, engine FROM system.tables WHERE database = '${api.database}' AND name LIKE 'test_case_branch_presence%' OR (database = '${api.database}' AND name = 'projects') ORDER BY name FORMAT TSV`);
    expect(tables).toBe(['projects\tReplicatedReplacingMergeTree', 'test_case_branch_presence\tDistributed', 'test_case_branch_presence_local\tReplicatedReplacingMergeTree', ''].join('\n'));
    const migrations = await api.query(`SELECT count(), uniqExact(version) FROM schema_migrations FORMAT TSV`);
    const [rows, versions] = migrations.trim().split('\t').map(Number);
    expect(rows).toBe(versions);
    for (const [shard, p] of onShard.entries()) {
      expect((await call(shard, 'POST', `/${p.handle}/runs`, p.token, run(`main-${shard}`, ['a', 'b']))).status).toBe(201);
      // The project's rows are on its own shard only, on both of its replicas once replicated.
      const perNode = await Promise.all(api.cluster.nodes.map((_, n) => api.query(`SELECT count() FROM test_case_runs_local WHERE project_id = '${p.projectId}' FORMAT TSV`, n)));
      const expected = api.cluster.nodes.map((n) => (n.shard === shard + 1 ? 2 : 0));
      await until(async () => (await Promise.all(api.cluster.nodes.map((_, n) => api.query(`SELECT count() FROM test_case_runs_local WHERE project_id = '${p.projectId}' FORMAT TSV`, n)))).map(Number), expected);
      expect(perNode.map(Number).filter((n, i) => expected[i] === 0 && n !== 0)).toEqual([]);
    }
  }, 120_000);

  it('reads on one instance what the other acknowledged, at once', async () => {
    for (const p of onShard) {
      for (let i = 0; i < 5; i++) {
        const names = [`seen-${i}-a`, `seen-${i}-b`];
        expect((await call(i % 2, 'POST', `/${p.handle}/runs`, p.token, run(`history-${i}`, names))).status).toBe(201);
        const answer = await verdict((i + 1) % 2, p, [...names, `new-${i}`]);
        expect(answer.status).toBe(200);
        expect(candidates(answer)).toEqual([`new-${i}`]);
      }
    }
  }, 120_000);
});

/** Polls `read` until it gives `expected` (15 s at most), then asserts it. */
async function until<T>(read: () => Promise<T>, expected: T): Promise<void> {
  const deadline = Date.now() + 15_000;
  let last = await read();
  while (JSON.stringify(last) !== JSON.stringify(expected) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    last = await read();
  }
  expect(last).toEqual(expected);
}
