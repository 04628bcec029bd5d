// Cluster mode through real parts: Debian's ZooKeeper and four clickhouse-servers (2 shards × 2
// replicas) on loopback, and two real API processes on them. Uploads acknowledged by either
// instance are read by the next verdict of the other; claims raced from both instances have one
// winner; a replica, then a shard, then ZooKeeper stop while load runs, and afterwards every
// acknowledged upload is stored exactly once.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { shardOfProject } from '../../src/storage/cluster.js';
import { openZooKeeperCoordinator } from '../../src/storage/coordinator.js';
import { CLAIMS_KEPT_MS } from '../../src/sweep/sweeper.js';
import { clusterUnavailableReason } from '../support/clickhouse-cluster.mjs';
import { type ClusterApi, type ClusterProject, seedClusterProject, startClusterApi, startInstance } from '../support/cluster-api.mjs';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { database } from '../../src/storage/database.js';
import { migrate } from '../../src/storage/migrate.js';
import { openServerEngine } from '../../src/storage/server-engine.js';
import { ids, run, seedProject, testApp } from '../support/api.js';
import { removeServerDir, startClickHouseServer } from '../support/clickhouse-server.mjs';

const execFileAsync = promisify(execFile);
const VERDICT_API_BIN = fileURLToPath(new URL('../../bin/verdict-api.js', import.meta.url));

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
    // The load below runs as fast as it can from each account: no per-account rate (the other tests' rule too).
    api = await startClusterApi(2, { STRESS_GATE_ACCOUNT_REQUESTS_PER_SECOND: '0' });
    // Projects until each shard has one: a project's shard follows from its id (cluster.ts).
    for (let i = 0; !(onShard[0] && onShard[1]); i++) {
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

  it('claims raced from two instances have one winner: run ids, gate results, project handles', async () => {
    const [p, other] = onShard as [ClusterProject, ClusterProject];
    // A third instance that lists the nodes the other way round: its writes land on another node
    // first (as an instance's would when it cannot reach the first), so reading back its own
    // write from the table proves nothing about the other instance's; only ZooKeeper decides.
    const reversed = await startInstance({ ...api.env, CLICKHOUSE_URL: api.cluster.urls([...api.cluster.nodes].reverse()) });
    api.instances.push(reversed);
    const racer = api.instances.length - 1;
    const gate = (stressed: number) => ({ mode: 'report', outcome: 'passed', candidatesExamined: stressed, stressed, excluded: 0, guard: null, blocked: false, wouldHaveBlocked: false, timing: { wallClockMs: 4000, predictedMs: 3500, jvmStartMs: 600 }, testCases: [] });
    for (let i = 0; i < 8; i++) {
      // Two credentials upload one new run id at once, each through its own instance: one owns it.
      const [a, b] = await Promise.all([
        call(0, 'POST', `/${p.handle}/runs`, p.mrToken, run(`race-${i}`, ['x'], { branch: 'feature/a' })),
        call(racer, 'POST', `/${p.handle}/runs`, p.token, run(`race-${i}`, ['y'], { branch: 'feature/b' })),
      ]);
      expect([a.status, b.status].sort()).toEqual([201, 409]);
      // Two different gate results of one run's shard at once: written once.
      const [g1, g2] = await Promise.all([call(0, 'POST', `/${p.handle}/runs/race-${i}/gate`, a.status === 201 ? p.mrToken : p.token, gate(1)), call(racer, 'POST', `/${p.handle}/runs/race-${i}/gate`, a.status === 201 ? p.mrToken : p.token, gate(2))]);
      expect([g1.status, g2.status].sort()).toEqual([201, 409]);
      // Two accounts ask for one handle at once: one gets it.
      const create = (instance: number, q: ClusterProject) =>
        fetch(`${api.instances[instance]!.url}/api/v1/accounts/${q.accountId}/projects`, {
          method: 'POST',
          headers: { authorization: `Bearer ${q.admin}`, 'content-type': 'application/json' },
          body: JSON.stringify({ handle: `raced-${i}`, defaultBranch: 'main' }),
        }).then((r) => r.status);
      expect((await Promise.all([create(0, p), create(racer, other)])).sort()).toEqual([201, 409]);
    }
    await reversed.stop();
    api.instances.pop();
    const stored = await api.query(`SELECT count(), uniqExact(run_id) FROM test_runs WHERE project_id = '${p.projectId}' AND run_id LIKE 'race-%' FORMAT TSV`);
    expect(stored).toBe('8\t8\n');
  }, 120_000);

  it('keeps answering while a replica, then a shard, then ZooKeeper stop under load; every acknowledged upload is stored exactly once', async () => {
    const load = startLoad();
    const phase = async (name: string, seconds: number) => {
      load.phase = name;
      await new Promise((r) => setTimeout(r, seconds * 1000));
    };
    await phase('before', 3);
    // The first node: every instance's first URL, and shard 1's first replica.
    await api.cluster.nodes[0]!.stop();
    await phase('replica-down', 6);
    load.phase = 'restarting';
    await api.cluster.nodes[0]!.start();
    await phase('replica-back', 3);
    await Promise.all([api.cluster.nodes[2]!.stop(), api.cluster.nodes[3]!.stop()]);
    await phase('shard-down', 6);
    // The quarantine list the CLI reads before its build: from the project's own shard.
    const [p0, p1] = onShard as [ClusterProject, ClusterProject];
    expect((await call(0, 'GET', `/${p0.handle}/quarantine`, p0.token)).status).toBe(200);
    const refused = await call(0, 'GET', `/${p1.handle}/quarantine`, p1.token);
    expect([refused.status, refused.retryAfter]).toEqual([503, '5']);
    load.phase = 'restarting';
    await Promise.all([api.cluster.nodes[2]!.start(), api.cluster.nodes[3]!.start()]);
    await phase('shard-back', 3);
    // Longer than every session's timeout (the API's 10 s, ClickHouse's 6 s): each must start a new one.
    await api.cluster.zookeeper.stop();
    await phase('zookeeper-down', 14);
    load.phase = 'restarting';
    await api.cluster.zookeeper.start();
    await phase('zookeeper-back', 3);
    const { verdicts, acknowledged } = await load.finish(120_000);

    const settled = (from: string, p: number) => verdicts.filter((v) => v.phase === from && v.project === p && v.at - v.phaseStart > 1500);
    // A replica down: both shards answer every verdict (the first second aside: requests in flight on the stopped node).
    for (const p of [0, 1]) {
      expect(settled('replica-down', p).length).toBeGreaterThan(5);
      expect(settled('replica-down', p).filter((v) => v.status !== 200)).toEqual([]);
    }
    // A shard down: its projects are told to retry later; the other shard's answer.
    expect(settled('shard-down', 0).filter((v) => v.status !== 200)).toEqual([]);
    expect(settled('shard-down', 1).length).toBeGreaterThan(5);
    expect([...new Set(settled('shard-down', 1).map((v) => `${v.status} ${v.retryAfter}`))]).toEqual(['503 5']);
    // ZooKeeper down: reads answer.
    for (const p of [0, 1]) expect(settled('zookeeper-down', p).filter((v) => v.status !== 200)).toEqual([]);
    // Writes were refused while it was down (after its session ended), and stored once it was back.
    expect(load.refusedUploads.filter((u) => u.phase === 'zookeeper-down').every((u) => u.status === 503)).toBe(true);
    expect(load.refusedUploads.some((u) => u.phase === 'zookeeper-down')).toBe(true);
    expect(load.refusedUploads.some((u) => u.phase === 'shard-down' && u.project === 1)).toBe(true);
    expect(acknowledged.length).toBeGreaterThan(20);

    // Every acknowledged upload, exactly once, on every replica of its shard.
    for (const [shard, p] of onShard.entries()) {
      const mine = acknowledged.filter((u) => u.project === shard);
      const replicas = api.cluster.nodes.flatMap((n, i) => (n.shard === shard + 1 ? [i] : []));
      for (const node of replicas) {
        await synced(node, 'test_runs_local');
        await synced(node, 'test_case_runs_local');
        const runs = await api.query(`SELECT run_id, count() FROM test_runs_local WHERE project_id = '${p.projectId}' AND run_id LIKE 'load-%' GROUP BY run_id ORDER BY run_id FORMAT TSV`, node);
        expect(runs).toBe(mine.map((u) => `${u.runId}\t1\n`).sort().join(''));
        const cases = await api.query(`SELECT count(), uniqExact(run_id, test_case_id) FROM test_case_runs_local WHERE project_id = '${p.projectId}' AND run_id LIKE 'load-%' FORMAT TSV`, node);
        expect(cases).toBe(`${mine.length * LOAD_CASES}\t${mine.length * LOAD_CASES}\n`);
      }
    }
  }, 360_000);

  it('removes claims from ZooKeeper once they are old; a claim decided before stays decided by its row', async () => {
    const coordinator = openZooKeeperCoordinator(`127.0.0.1:${api.cluster.zookeeper.port}`, `${api.database}_sweep`);
    try {
      const keys = Array.from({ length: 20 }, (_, i) => `key-${i}`);
      for (const key of keys) expect(await coordinator.claimOnce(key, 'first')).toEqual({ value: 'first', created: true });
      expect(await coordinator.claimOnce('key-3', 'second')).toEqual({ value: 'first', created: false });
      // Younger than a day: kept.
      expect(await coordinator.sweepClaims(CLAIMS_KEPT_MS, Date.now())).toBe(0);
      expect(await coordinator.claimOnce('key-3', 'second')).toEqual({ value: 'first', created: false });
      // A day later: every one removed, and the key can be created again.
      expect(await coordinator.sweepClaims(CLAIMS_KEPT_MS, Date.now() + CLAIMS_KEPT_MS + 1000)).toBe(keys.length);
      expect(await coordinator.claimOnce('key-3', 'second')).toEqual({ value: 'second', created: true });
    } finally {
      await coordinator.close();
    }
    // A run id claimed long ago is still owned by its first uploader: its row decides, not ZooKeeper.
    const p = onShard[0]!;
    expect((await call(0, 'POST', `/${p.handle}/runs`, p.token, run('swept-1', ['s']))).status).toBe(201);
    const sweeper = openZooKeeperCoordinator(`127.0.0.1:${api.cluster.zookeeper.port}`, api.database);
    try {
      expect(await sweeper.sweepClaims(0, Date.now() + 1000)).toBeGreaterThan(0);
    } finally {
      await sweeper.close();
    }
    expect((await call(1, 'POST', `/${p.handle}/runs`, p.mrToken, run('swept-1', ['t'], { branch: 'feature/t' }))).status).toBe(409);
  }, 60_000);

  it('moves a single-node install onto the cluster with nothing lost (copy-from), and serves it from there', async () => {
    // The old install: one clickhouse-server, written through the service's own code.
    const old = await startClickHouseServer();
    try {
      const oldDb = database(openServerEngine({ url: old.url }), 'stress_gate');
      await migrate(oldDb.engine, 'stress_gate');
      const seeded = await seedProject(oldDb, 'moving');
      const { call: oldCall } = testApp(oldDb);
      expect((await oldCall('POST', '/api/v1/projects/moving/runs', seeded.token, run('main-1', ['a', 'b', 'c']))).status).toBe(201);
      expect((await oldCall('POST', '/api/v1/projects/moving/runs', seeded.token, run('mr-1', ['a', 'n'], { branch: 'feature/n' }))).status).toBe(201);
      expect((await oldCall('POST', '/api/v1/projects/moving/verdict', seeded.token, { testCases: ids(['a', 'n']) })).status).toBe(200);
      await oldDb.engine.close();

      const env = { ...process.env, ...api.env, CLICKHOUSE_DATABASE: 'moved', LOG_LEVEL: 'warn' };
      const copy = await execFileAsync(process.execPath, [VERDICT_API_BIN, 'copy-from', '--source', `127.0.0.1:${old.tcpPort}`, '--source-database', 'stress_gate'], { env });
      const tables = (JSON.parse(copy.stdout) as { tables: { table: string; source: number; target: number }[] }).tables;
      expect(tables.find((t) => t.table === 'test_case_runs')).toEqual({ table: 'test_case_runs', source: 5, target: 5 });
      expect(tables.find((t) => t.table === 'projects')?.source).toBeGreaterThan(0);
      // Copied into a database that holds rows: refused, nothing written twice.
      await expect(execFileAsync(process.execPath, [VERDICT_API_BIN, 'copy-from', '--source', `127.0.0.1:${old.tcpPort}`], { env })).rejects.toThrow(/already holds \d+ rows; copy into a fresh database/);

      // An instance on the moved database knows the token, the project and its history.
      const moved = await startInstance({ ...api.env, CLICKHOUSE_DATABASE: 'moved' });
      try {
        const res = await fetch(`${moved.url}/api/v1/projects/moving/verdict`, { method: 'POST', headers: { authorization: `Bearer ${seeded.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ testCases: ids(['a', 'b', 'z']) }) });
        expect(res.status).toBe(200);
        expect(((await res.json()) as { candidates: { name: string }[] }).candidates.map((c) => c.name)).toEqual(['z']);
      } finally {
        await moved.stop();
      }
    } finally {
      await old.stop();
      removeServerDir(old);
    }
  }, 180_000);
});

const LOAD_CASES = 20;

interface Answer {
  phase: string;
  phaseStart: number;
  at: number;
  project: number;
  status: number;
  retryAfter: string | null;
}

/**
 * Load on both instances: for each project, verdicts back to back through one instance and
 * uploads of new runs through the other, as the CLI does: a refused upload is posted again (the
 * same run) until it is acknowledged. `phase` labels what happens meanwhile.
 */
function startLoad() {
  let stopping = false;
  let upload = 0;
  const verdicts: Answer[] = [];
  const refusedUploads: Answer[] = [];
  const acknowledged: { project: number; runId: string }[] = [];
  const state = { phase: 'before', phaseStart: Date.now() };
  const at = (project: number, r: { status: number; retryAfter: string | null }): Answer => ({ ...state, at: Date.now(), project, status: r.status, retryAfter: r.retryAfter });
  const loops = onShard.flatMap((p, project) => [
    (async () => {
      while (!stopping) {
        const r = await verdict(project, p, ['seen-0-a', `load-new-${verdicts.length}`]).catch(() => ({ status: 0, retryAfter: null, body: {} }));
        verdicts.push(at(project, r));
        if (r.status !== 200) await new Promise((res) => setTimeout(res, 100));
      }
    })(),
    (async () => {
      let finishing = false;
      while (!stopping || finishing) {
        const runId = `load-${String(upload++).padStart(4, '0')}`;
        // Posted until acknowledged, also after the load stops (a CI job retries its upload).
        for (let attempt = 0; ; attempt++) {
          finishing = true;
          const r = await call((project + 1) % 2, 'POST', `/${p.handle}/runs`, p.token, run(runId, Array.from({ length: LOAD_CASES }, (_, i) => `case-${i}`), { branch: 'main' })).catch(() => ({ status: 0, retryAfter: null, body: {} }));
          if (r.status === 201) {
            acknowledged.push({ project, runId });
            break;
          }
          refusedUploads.push(at(project, r));
          if (deadline !== null && Date.now() > deadline) {
            const logs = api.instances.map((i, n) => `instance ${n}:\n${i.stderr().slice(-3000)}`).join('\n');
            throw new Error(`upload ${runId} not acknowledged by the deadline: ${r.status} ${JSON.stringify(r.body)}\n${logs}`);
          }
          await new Promise((res) => setTimeout(res, 250));
        }
        finishing = false;
      }
    })(),
  ]);
  let deadline: number | null = null;
  return {
    set phase(name: string) {
      state.phase = name;
      state.phaseStart = Date.now();
    },
    refusedUploads,
    async finish(withinMs: number) {
      stopping = true;
      deadline = Date.now() + withinMs;
      await Promise.all(loops);
      return { verdicts, acknowledged };
    },
  };
}

/**
 * Waits until `table` on `node` has every part its shard wrote: SYSTEM SYNC REPLICA, asked again
 * while the node's ZooKeeper session is still being renewed after ZooKeeper came back.
 */
async function synced(node: number, table: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      await api.query(`SYSTEM SYNC REPLICA ${table}`, node);
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

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
