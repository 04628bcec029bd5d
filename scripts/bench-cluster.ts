// The verdict API on one clickhouse-server with one API process and on the local 2×2 cluster
// (clickhouse-cluster.mjs: ZooKeeper and 4 clickhouse-servers 18.16, 2 shards × 2 replicas) with
// two API processes, in one run and under the same load, side by side. Every API is a real
// `verdict-api serve` process (cluster-api.mjs), each in its database. On each:
//   1. test_case_branch_presence gets --rows rows (default 10,000,000 over 1,000 projects) as
//      bench-load fills it (bench-common fillPresence); on the cluster through the Distributed
//      table, so each project's rows land on its shard, then merged on every replica;
//   2. --uploaders clients post runs of --upload-cases test cases back to back for --solo seconds
//      (the uploads alone), then --clients closed-loop verdict clients (bench-load's verdicts of
//      --identities identities, --new of them never seen) join them for --seconds. Clients and
//      uploaders are spread over the API instances.
// Both setups are started and filled first, warmed up with --warmup seconds (10) of the load
// each, not measured, then measured in turn, --rounds times (default 2),
// the other standing idle, so that other work on a shared machine falls on both; the figures are
// summed over the rounds.
// The benchmarked project is put on shard --shard (default 2: not the shard of the node the
// instances talk to, as most projects of a larger cluster are not). Prints a table: verdicts/s,
// p50/p99/max, errors, uploads' test cases/s alone and under load, and the CPU per verdict and
// per 1,000 uploaded test cases of every API process, clickhouse-server and ZooKeeper
// (/proc/<pid>/stat), with the machine's other work beside it (another job on a shared machine)
// and each round's verdicts/s, p99 and other work as it ends.
//   npm run bench:cluster -- [--rows N] [--seconds 30] [--clients 20] [--uploaders 2] [--solo 10]
//     [--identities 1000] [--new 10] [--upload-cases 1000] [--shard 1|2] [--warmup 10] [--rounds 2] [--setup single|cluster|both]
import { removeServerDir, startClickHouseServer } from '../verdict-api/test/support/clickhouse-server.mjs';
import { type Apis, type ClusterProject, seedClusterProject, startApis, startClusterApi } from '../verdict-api/test/support/cluster-api.mjs';
import { shardOfProject } from '../verdict-api/dist/storage/cluster.js';
import { database } from '../verdict-api/dist/storage/database.js';
import { openServerEngine } from '../verdict-api/dist/storage/server-engine.js';
import { fillPresence } from './bench-common.js';
import { addCpu, addPhase, cpuNow, cpuSince, type CpuUse } from './bench-cluster-cpu.js';
import { type PhaseResult, type Plan, runClients, verdictWork } from './bench-load-clients.js';
import { hostChecks, intFlag, log, ms, parseOptions, summarize } from './bench-util.js';

/** One account drives the whole load: no request rate or storage quota (bench-common's openBench does the same). */
const UNLIMITED = { STRESS_GATE_ACCOUNT_REQUESTS_PER_SECOND: '0', STRESS_GATE_ACCOUNT_ROWS_PER_DAY: '0', STRESS_GATE_ACCOUNT_MIB_PER_DAY: '0', STRESS_GATE_ACCOUNT_ROWS_RETAINED: '0', STRESS_GATE_ACCOUNT_MIB_RETAINED: '0' };

/** A running setup: its API processes, what they were given as CLICKHOUSE_URL, and the processes whose CPU counts. */
interface Setup {
  label: string;
  apis: Apis;
  clickhouseUrl: string;
  cluster?: string;
  shards: number;
  /** Each node's HTTP URL. */
  nodes: string[];
  pids: { api: number[]; clickhouse: number[]; zookeeper: number[] };
  stop(): Promise<void>;
}

async function single(): Promise<Setup> {
  const server = await startClickHouseServer();
  const stopServer = async () => {
    await server.stop();
    removeServerDir(server);
  };
  const apis = await startApis({ CLICKHOUSE_URL: server.url }, 1, UNLIMITED).catch(async (error: unknown) => {
    await stopServer();
    throw error;
  });
  const pids = { api: apis.instances.map((i) => i.pid), clickhouse: [server.pid!], zookeeper: [] };
  return { label: '1 node, 1 API', apis, clickhouseUrl: server.url, shards: 1, nodes: [server.url], pids, stop: async () => (await apis.stop(), await stopServer()) };
}

async function cluster(): Promise<Setup> {
  const api = await startClusterApi(2, UNLIMITED);
  const { nodes, zookeeper } = api.cluster;
  const pids = { api: api.instances.map((i) => i.pid), clickhouse: nodes.map((n) => n.pid!), zookeeper: [zookeeper.pid!] };
  return { label: '2x2 cluster, 2 APIs', apis: api, clickhouseUrl: api.cluster.urls(), cluster: api.cluster.name, shards: 2, nodes: nodes.map((n) => n.url), pids, stop: () => api.stop() };
}

/** A statement on one node over HTTP, answered as text. */
async function ask(node: string, text: string): Promise<string> {
  const res = await fetch(node, { method: 'POST', body: text });
  const body = await res.text();
  if (!res.ok) throw new Error(`ClickHouse ${res.status}: ${body}`);
  return body.trim();
}

/** Waits until no node has a merge, fetch or queued replication entry of `db` left (the replicas have caught up). */
async function settle(s: Setup, db: string): Promise<void> {
  const deadline = Date.now() + 20 * 60_000;
  for (;;) {
    const pending = await Promise.all(s.nodes.map((n) => ask(n, `SELECT (SELECT count() FROM system.replication_queue WHERE database = '${db}') + (SELECT count() FROM system.merges WHERE database = '${db}')`)));
    if (pending.every((p) => p === '0')) return;
    if (Date.now() > deadline) throw new Error(`replication not caught up after 20 minutes: ${pending.join(', ')} entries`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * OPTIMIZE … FINAL of a local table on the leader replica of each shard; the other replica merges
 * its copy from the replication log. Asked of another replica, 18.16 passes it on to the leader,
 * which failed now and then ("Unknown log entry type: 0"), and so does OPTIMIZE … ON CLUSTER.
 */
async function optimizeLocal(s: Setup, table: string): Promise<void> {
  const db = s.apis.database;
  const leaders = [];
  for (const n of s.nodes) if ((await ask(n, `SELECT is_leader FROM system.replicas WHERE database = '${db}' AND table = '${table}'`)) === '1') leaders.push(n);
  if (leaders.length !== s.shards) throw new Error(`${leaders.length} leader replicas of ${table} for ${s.shards} shards`);
  await Promise.all(leaders.map((n) => ask(n, `OPTIMIZE TABLE ${db}.${table} FINAL`)));
}

/** The benchmarked project, on shard `want` (1-based) of the setup: projects are made until one lands there. */
async function benchProject(s: Setup, want: number): Promise<ClusterProject> {
  for (let i = 0; i < 30; i++) {
    const p = await seedClusterProject(s.apis, `bench-${i}`);
    if (shardOfProject(p.projectId, s.shards) === Math.min(want, s.shards) - 1) return p;
  }
  throw new Error(`no project landed on shard ${want} in 30 tries`);
}

const allPids = (s: Setup): number[] => [...s.pids.api, ...s.pids.clickhouse, ...s.pids.zookeeper];

/** A setup's figures, over its rounds. */
interface Figures {
  label: string;
  fill: string;
  solo: PhaseResult;
  load: PhaseResult;
  soloCpu: CpuUse;
  loadCpu: CpuUse;
}

interface Prepared {
  s: Setup;
  project: ClusterProject;
  figures: Figures | null;
  fill: string;
}

/** Starts a setup, makes its project and fills its presence (merged, and on the cluster replicated). */
async function prepare(make: () => Promise<Setup>, rows: number, shard: number): Promise<Prepared> {
  const s = await make();
  try {
    const project = await benchProject(s, shard);
    const engine = (timeout?: number) => openServerEngine({ url: s.clickhouseUrl, ...(s.cluster ? { cluster: s.cluster } : {}), ...(timeout ? { requestTimeoutMs: timeout } : {}) });
    const [direct, bulk] = [engine(), engine(30 * 60_000)];
    const t = performance.now();
    try {
      const target = { db: database(direct, s.apis.database), bulk, project };
      const optimizeShards = () => optimizeLocal(s, 'test_case_branch_presence_local').then(() => settle(s, s.apis.database));
      await (s.cluster ? fillPresence(target, rows, optimizeShards) : fillPresence(target, rows));
    } finally {
      await Promise.all([direct.close(), bulk.close()]);
    }
    const table = s.cluster ? 'test_case_branch_presence_local' : 'test_case_branch_presence';
    const perNode = await Promise.all(s.nodes.map((n) => ask(n, `SELECT count() FROM ${s.apis.database}.${table}`)));
    const fill = `${((performance.now() - t) / 1000).toFixed(0)} s`;
    log(`${s.label}: presence filled and merged in ${fill}, rows per node ${perNode.map(Number).map((n) => n.toLocaleString('en-US')).join(' / ')}${s.cluster ? `; project ${project.handle} on shard ${shardOfProject(project.projectId, s.shards) + 1}` : ''}`);
    return { s, project, figures: null, fill };
  } catch (error) {
    await s.stop();
    throw error;
  }
}

/** One round of the load on `p` while the other setups stand idle; its figures are added to p's. */
async function round(p: Prepared, all: Prepared[], plan: Omit<Plan, 'urls' | 'handle' | 'token'>, n: number): Promise<void> {
  // Nothing left over from the setup before (its merges and replication) in this one's figures.
  await Promise.all(all.map((q) => settle(q.s, q.s.apis.database)));
  const idle = all.filter((q) => q !== p).flatMap((q) => allPids(q.s));
  const c0 = cpuNow(p.s.pids, idle);
  let c1 = c0;
  const { solo, load } = await runClients(
    // Each round's uploads numbered apart from the warm-up's and the other rounds': new runs, new commits.
    { ...plan, firstUpload: n * 1_000_000, urls: p.s.apis.instances.map((i) => i.url), handle: p.project.handle, token: p.project.token },
    () => (c1 = cpuNow(p.s.pids, idle)),
  );
  const c2 = cpuNow(p.s.pids, idle);
  const f: Figures = { label: p.s.label, fill: p.fill, solo, load, soloCpu: cpuSince(c0, c1), loadCpu: cpuSince(c1, c2) };
  const lat = summarize(load.verdicts.length ? load.verdicts : [Number.NaN]);
  log(
    `  round ${n}, ${p.s.label}: ${(load.verdicts.length / load.seconds).toFixed(1)} verdicts/s, p99 ${ms(lat.p99)}, ${Math.round((solo.uploads * plan.uploadCases) / solo.seconds)} test cases/s alone; ` +
      `other work on the machine ${(f.loadCpu.others / f.loadCpu.wall).toFixed(2)} cores under load`,
  );
  p.figures = p.figures
    ? { ...f, solo: addPhase(p.figures.solo, solo), load: addPhase(p.figures.load, load), soloCpu: addCpu(p.figures.soloCpu, f.soloCpu), loadCpu: addCpu(p.figures.loadCpu, f.loadCpu) }
    : f;
}

/** The side-by-side table: a row a figure, a column a setup. */
function report(results: Figures[], cases: number): void {
  const errors = (e: Record<string, number>) => (Object.keys(e).length === 0 ? '0' : JSON.stringify(e));
  const num = (x: number, digits = 0) => x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  const cores = (cpuMs: number, wall: number) => (cpuMs / wall).toFixed(2);
  const rows: [string, (f: Figures) => string][] = [
    ['presence filled and merged in', (f) => f.fill],
    ['uploads alone: test cases/s', (f) => num((f.solo.uploads * cases) / f.solo.seconds)],
    ['  upload p50 / p99', (f) => (f.solo.uploadLatencies.length ? `${ms(summarize(f.solo.uploadLatencies).p50)} / ${ms(summarize(f.solo.uploadLatencies).p99)}` : '-')],
    ['  CPU per 1,000 test cases (all)', (f) => `${num(f.soloCpu.service / Math.max(1, (f.solo.uploads * cases) / 1000), 1)} ms`],
    ['  upload errors', (f) => errors(f.solo.uploadErrors)],
    ['verdicts/s', (f) => num(f.load.verdicts.length / f.load.seconds, 1)],
    ['  p50 / p99 / max', (f) => ['p50', 'p99', 'max'].map((q) => ms(summarize(f.load.verdicts.length ? f.load.verdicts : [Number.NaN])[q as 'p50'])).join(' / ')],
    ['  verdict errors, wrong answers', (f) => `${errors(f.load.verdictErrors)}, ${f.load.wrongAnswers}`],
    ['uploads under load: test cases/s', (f) => num((f.load.uploads * cases) / f.load.seconds)],
    ['  upload errors', (f) => errors(f.load.uploadErrors)],
    ['CPU per verdict (uploads included)', (f) => `${num(f.loadCpu.service / Math.max(1, f.load.verdicts.length), 2)} ms`],
    ['  API processes', (f) => `${num(f.loadCpu.api / Math.max(1, f.load.verdicts.length), 2)} ms`],
    ['  clickhouse-servers', (f) => `${num(f.loadCpu.clickhouse / Math.max(1, f.load.verdicts.length), 2)} ms`],
    ['  ZooKeeper', (f) => `${num(f.loadCpu.zookeeper / Math.max(1, f.load.verdicts.length), 2)} ms`],
    ['cores under load: API / CH / ZK', (f) => [f.loadCpu.api, f.loadCpu.clickhouse, f.loadCpu.zookeeper].map((x) => cores(x, f.loadCpu.wall)).join(' / ')],
    ['  clickhouse-server by node', (f) => f.loadCpu.nodes.map((x) => cores(x, f.loadCpu.wall)).join(' / ')],
    ['  the other setup, standing idle', (f) => cores(f.loadCpu.idle, f.loadCpu.wall)],
    ['  the clients (this process)', (f) => cores(f.loadCpu.bench, f.loadCpu.wall)],
    ['  other work on the machine', (f) => cores(f.loadCpu.others, f.loadCpu.wall)],
  ];
  const widths = [Math.max(...rows.map(([name]) => name.length)), ...results.map((f) => Math.max(f.label.length, ...rows.map(([, v]) => v(f).length)))];
  const line = (cells: string[]) => log(cells.map((c, i) => (i === 0 ? c.padEnd(widths[0]!) : c.padStart(widths[i]!))).join('  '));
  line(['', ...results.map((f) => f.label)]);
  for (const [name, value] of rows) line([name, ...results.map(value)]);
}

async function main(): Promise<void> {
  const { rows, flags } = parseOptions(process.argv.slice(2), { rows: 10_000_000 });
  const identities = intFlag(flags, 'identities', 1_000);
  const fresh = intFlag(flags, 'new', 10);
  if (fresh > identities) throw new Error('--new must not exceed --identities');
  const setup = flags.get('setup') ?? 'both';
  if (!['single', 'cluster', 'both'].includes(setup)) throw new Error(`--setup must be single, cluster or both, not ${setup}`);
  const plan = {
    clients: intFlag(flags, 'clients', 20),
    uploaders: intFlag(flags, 'uploaders', 2),
    seconds: intFlag(flags, 'seconds', 30),
    solo: intFlag(flags, 'solo', 10),
    uploadCases: intFlag(flags, 'upload-cases', 1_000),
    fault: false,
    ...verdictWork(identities, fresh, 'grouped'),
  };
  const shard = intFlag(flags, 'shard', 2, 2);
  log(
    `cluster benchmark: ${plan.clients} verdict clients x ${identities} identities (${fresh} never seen) + ${plan.uploaders} upload clients x ${plan.uploadCases} cases, ` +
      `${plan.solo} s of uploads alone then ${plan.seconds} s together; ${rows.toLocaleString('en-US')} presence rows; the project on shard ${shard} of the cluster`,
  );
  const rounds = intFlag(flags, 'rounds', 2, 100);
  const warmup = intFlag(flags, 'warmup', 10);
  const prepared: Prepared[] = [];
  try {
    if (setup !== 'cluster') prepared.push(await prepare(single, rows, shard));
    if (setup !== 'single') prepared.push(await prepare(cluster, rows, shard));
    // Not measured: the API processes' JIT, their caches of the project's known ids, the first parts of the upload tables.
    for (const p of prepared) if (warmup > 0) await runClients({ ...plan, solo: 0, seconds: warmup, firstUpload: 0, urls: p.s.apis.instances.map((i) => i.url), handle: p.project.handle, token: p.project.token }, () => {});
    log(hostChecks());
    for (let n = 1; n <= rounds; n++) for (const p of prepared) await round(p, prepared, plan, n);
  } finally {
    for (const p of prepared) await p.s.stop();
  }
  const results = prepared.map((p) => p.figures!);
  log('');
  report(results, plan.uploadCases);
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
