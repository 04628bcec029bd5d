// The verdict API in cluster mode for tests and benchmarks: the local 2×2 cluster
// (clickhouse-cluster.mjs) and several real API processes (`verdict-api serve`) on it, each on a
// loopback port of its own, sharing the database, the ZooKeeper and the secrets key, as instances
// behind a load balancer. `startApis` starts such processes on any ClickHouse (one server too), so
// that a benchmark compares one node and the cluster through the same kind of process. Plain ESM
// (types in cluster-api.d.mts): scripts/ imports it without compiling test code.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { freePort } from './clickhouse-server.mjs';
import { startCluster } from './clickhouse-cluster.mjs';

const BIN = fileURLToPath(new URL('../../bin/verdict-api.js', import.meta.url));
/** The service's Node flags, from the shebang of its bin (started through node, the shebang is not read). */
const NODE_FLAGS = readFileSync(BIN, 'utf8').split('\n', 1)[0].split(/\s+/).filter((w) => w.startsWith('--'));

/**
 * `instances` API processes on the ClickHouse that `clickhouseEnv` names (CLICKHOUSE_URL, and on a
 * cluster CLICKHOUSE_CLUSTER and STRESS_GATE_ZOOKEEPER), in a fresh database, with `extraEnv`
 * added; the first to take the migration lock applies the migrations while the others wait.
 */
export async function startApis(clickhouseEnv, instances = 1, extraEnv = {}) {
  const database = `sg_${randomBytes(4).toString('hex')}`;
  const operatorToken = randomBytes(24).toString('hex');
  const env = {
    ...clickhouseEnv,
    CLICKHOUSE_DATABASE: database,
    STRESS_GATE_OPERATOR_TOKEN: operatorToken,
    STRESS_GATE_SECRETS_KEY: randomBytes(32).toString('hex'),
    ...extraEnv,
  };
  const results = await Promise.allSettled(Array.from({ length: instances }, () => startInstance(env)));
  const started = results.filter((r) => r.status === 'fulfilled').map((r) => r.value);
  const stop = () => Promise.all(started.map((i) => i.stop())).then(() => {});
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  return { instances: started, database, operatorToken, env, stop };
}

/** Starts the cluster and `instances` API processes on it (`extraEnv` added to theirs). */
export async function startClusterApi(instances = 2, extraEnv = {}) {
  const cluster = await startCluster();
  let apis;
  try {
    apis = await startApis({ CLICKHOUSE_URL: cluster.urls(), CLICKHOUSE_CLUSTER: cluster.name, STRESS_GATE_ZOOKEEPER: `127.0.0.1:${cluster.zookeeper.port}` }, instances, extraEnv);
  } catch (error) {
    await cluster.stop();
    cluster.remove();
    throw error;
  }
  return {
    cluster,
    instances: apis.instances,
    database: apis.database,
    operatorToken: apis.operatorToken,
    env: apis.env,
    async query(text, node = 0) {
      const res = await fetch(`${cluster.nodes[node].url}/?database=${apis.database}`, { method: 'POST', body: text });
      const body = await res.text();
      if (!res.ok) throw new Error(`ClickHouse ${res.status}: ${body}`);
      return body;
    },
    async stop() {
      await apis.stop();
      await cluster.stop();
      cluster.remove();
    },
  };
}

/**
 * `verdict-api serve` with `env`, answering /readyz (its migrations applied) before this resolves.
 * Its port is picked before it starts, so another process can take it first: then it is tried again.
 */
export async function startInstance(env) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startInstanceOnce(env);
    } catch (error) {
      if (attempt === 3 || !/EADDRINUSE/.test(String(error))) throw error;
    }
  }
}

async function startInstanceOnce(env) {
  const port = await freePort();
  const child = spawn(process.execPath, [...NODE_FLAGS, BIN, 'serve'], {
    env: { ...process.env, ...env, VERDICT_API_HOST: '127.0.0.1', VERDICT_API_PORT: String(port), LOG_LEVEL: 'warn', STRESS_GATE_DATA_DIR: '/nonexistent-cluster-mode' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr = (stderr + d.toString()).slice(-8000)));
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
    pid: child.pid,
    /** The last of what it wrote on stderr (its warnings and errors). */
    stderr: () => stderr,
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

/** An entitled account with one project and its tokens, made through an instance's operator and admin routes. */
export async function seedClusterProject(api, handle, instance = 0) {
  const base = api.instances[instance].url;
  const post = async (path, token, body) => {
    const res = await fetch(`${base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await res.text();
    if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${text}`);
    return JSON.parse(text);
  };
  const account = await post('/api/v1/admin/accounts', api.operatorToken, { name: `account of ${handle}`, entitled: true });
  const admin = (await post(`/api/v1/admin/accounts/${account.accountId}/credentials`, api.operatorToken, { name: 'tests' })).credential;
  const project = await post(`/api/v1/accounts/${account.accountId}/projects`, admin, { handle, defaultBranch: 'main' });
  const token = (await post(`/api/v1/projects/${handle}/tokens`, admin, { name: 'ci', scope: 'default-branch' })).token;
  const mrToken = (await post(`/api/v1/projects/${handle}/tokens`, admin, { name: 'mr', scope: 'merge-request' })).token;
  return { handle, projectId: project.projectId, accountId: account.accountId, token, mrToken, admin };
}
