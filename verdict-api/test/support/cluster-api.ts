// The verdict API in cluster mode for tests: the local 2×2 cluster (clickhouse-cluster.mjs) and
// several real API processes (`verdict-api serve`) on it, each on a loopback port of its own,
// sharing the database, the ZooKeeper and the secrets key, as instances behind a load balancer.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { freePort } from './clickhouse-server.mjs';
import { startCluster } from './clickhouse-cluster.mjs';

const BIN = fileURLToPath(new URL('../../bin/verdict-api.js', import.meta.url));

export type Cluster = Awaited<ReturnType<typeof startCluster>>;

export interface ApiInstance {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export interface ClusterApi {
  cluster: Cluster;
  instances: ApiInstance[];
  database: string;
  operatorToken: string;
  /** What every instance was started with (startInstance with it adds one more). */
  env: Record<string, string>;
  /** A statement on one node (the first by default), answered as text (TabSeparated). */
  query(text: string, node?: number): Promise<string>;
  stop(): Promise<void>;
}

/** Starts the cluster and `instances` API processes on it; the first applies the migrations before the others start. */
export async function startClusterApi(instances = 2): Promise<ClusterApi> {
  const cluster = await startCluster();
  const database = `sg_${randomBytes(4).toString('hex')}`;
  const operatorToken = randomBytes(24).toString('hex');
  const env = {
    CLICKHOUSE_URL: cluster.urls(),
    CLICKHOUSE_CLUSTER: cluster.name,
    CLICKHOUSE_DATABASE: database,
    STRESS_GATE_ZOOKEEPER: `127.0.0.1:${cluster.zookeeper.port}`,
    STRESS_GATE_OPERATOR_TOKEN: operatorToken,
    STRESS_GATE_SECRETS_KEY: randomBytes(32).toString('hex'),
  };
  const started: ApiInstance[] = [];
  try {
    // Side by side: the migration lock lets one apply them while the other waits for it.
    started.push(...(await Promise.all(Array.from({ length: instances }, () => startInstance(env)))));
  } catch (error) {
    await Promise.all(started.map((i) => i.stop()));
    await cluster.stop();
    cluster.remove();
    throw error;
  }
  return {
    cluster,
    instances: started,
    database,
    operatorToken,
    env,
    async query(text, node = 0) {
      const res = await fetch(`${cluster.nodes[node]!.url}/?database=${database}`, { method: 'POST', body: text });
      const body = await res.text();
      if (!res.ok) throw new Error(`ClickHouse ${res.status}: ${body}`);
      return body;
    },
    async stop() {
      await Promise.all(started.map((i) => i.stop()));
      await cluster.stop();
      cluster.remove();
    },
  };
}

/** `verdict-api serve` with `env`, answering /readyz (its migrations applied) before this resolves. */
export async function startInstance(env: Record<string, string>): Promise<ApiInstance> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [BIN, 'serve'], {
    env: { ...process.env, ...env, VERDICT_API_HOST: '127.0.0.1', VERDICT_API_PORT: String(port), LOG_LEVEL: 'warn', STRESS_GATE_DATA_DIR: '/nonexistent-cluster-mode' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-8000)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`verdict-api serve exited with ${child.exitCode}: ${stderr}`);
    const ready = await fetch(`${url}/readyz`).then((r) => r.ok, () => false);
    if (ready) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`verdict-api serve was not ready within 180 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface ClusterProject {
  handle: string;
  projectId: string;
  accountId: string;
  /** The project's default-branch CI token. */
  token: string;
  /** A merge-request token of the project. */
  mrToken: string;
  /** The account's admin credential. */
  admin: string;
}

/** An entitled account with one project and its tokens, made through `api`'s operator and admin routes. */
export async function seedClusterProject(api: ClusterApi, handle: string, instance = 0): Promise<ClusterProject> {
  const base = api.instances[instance]!.url;
  const post = async (path: string, token: string, body: unknown) => {
    const res = await fetch(`${base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await res.text();
    if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${text}`);
    return JSON.parse(text) as Record<string, string>;
  };
  const account = await post('/api/v1/admin/accounts', api.operatorToken, { name: `account of ${handle}`, entitled: true });
  const admin = (await post(`/api/v1/admin/accounts/${account['accountId']}/credentials`, api.operatorToken, { name: 'tests' }))['credential']!;
  const project = await post(`/api/v1/accounts/${account['accountId']}/projects`, admin, { handle, defaultBranch: 'main' });
  const token = (await post(`/api/v1/projects/${handle}/tokens`, admin, { name: 'ci', scope: 'default-branch' }))['token']!;
  const mrToken = (await post(`/api/v1/projects/${handle}/tokens`, admin, { name: 'mr', scope: 'merge-request' }))['token']!;
  return { handle, projectId: project['projectId']!, accountId: account['accountId']!, token, mrToken, admin };
}
