// A local ClickHouse cluster for the tests of cluster mode: Debian's zookeeper (3.8) and Debian's
// clickhouse-server (18.16) as processes on loopback, 2 shards × 2 replicas, each from a temp
// folder of its own, as the single test server is (clickhouse-server.mjs). Any node can be
// stopped and started again on the same ports and data, and so can ZooKeeper: the fault tests do.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startClickHouseServer } from './clickhouse-server.mjs';

const ZOOKEEPER_JAR = '/usr/share/java/zookeeper.jar';

/** Why the cluster cannot start here (a package missing), or null when it can. */
export function clusterUnavailableReason() {
  if (!existsSync(ZOOKEEPER_JAR)) return `ZooKeeper is not installed (${ZOOKEEPER_JAR} missing): apt-get install zookeeper, or make install as root`;
  return null;
}

/** Asks a ZooKeeper `ruok`; resolves true on `imok`. */
function ruok(port) {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let reply = '';
    socket.setTimeout(1000, () => socket.destroy());
    socket.on('connect', () => socket.write('ruok'));
    socket.on('data', (d) => (reply += d.toString()));
    socket.on('close', () => resolve(reply === 'imok'));
    socket.on('error', () => resolve(false));
  });
}

/** A standalone ZooKeeper; `start()` again after `stop()` keeps its port and data. */
export async function startZooKeeper(options = {}) {
  const port = options.port ?? (await freePort());
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'stress-gate-zk-'));
  mkdirSync(join(dir, 'data'), { recursive: true });
  writeFileSync(
    join(dir, 'zoo.cfg'),
    [`tickTime=500`, `dataDir=${dir}/data`, `clientPort=${port}`, `clientPortAddress=127.0.0.1`, `admin.enableServer=false`, `4lw.commands.whitelist=ruok`, `maxClientCnxns=0`, ''].join('\n'),
  );
  const child = spawn('java', ['-Xmx256m', '-cp', ZOOKEEPER_JAR, 'org.apache.zookeeper.server.ZooKeeperServerMain', join(dir, 'zoo.cfg')], { stdio: ['ignore', 'ignore', 'pipe'] });
  const killOnExit = () => child.exitCode === null && child.kill('SIGKILL');
  process.on('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  let stderr = '';
  child.stderr.on('data', (d) => (stderr = (stderr + d.toString()).slice(-4000)));
  const deadline = Date.now() + 60_000;
  while (!(await ruok(port))) {
    if (child.exitCode !== null) throw new Error(`zookeeper exited with ${child.exitCode}: ${stderr}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`zookeeper did not answer ruok within 60 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    port,
    dir,
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

/**
 * The config every node shares but its macros: ZooKeeper, the cluster `name` (a shard per entry of
 * `shards`, each a list of replicas' TCP ports) and the queue of ON CLUSTER statements.
 */
function clusterConfig(name, zkPort, shards, macros, interserverPort) {
  const replicas = (ports) => ports.map((p) => `<replica><host>127.0.0.1</host><port>${p}</port></replica>`).join('');
  return `
  <zookeeper><node><host>127.0.0.1</host><port>${zkPort}</port></node><session_timeout_ms>6000</session_timeout_ms><operation_timeout_ms>3000</operation_timeout_ms></zookeeper>
  <remote_servers><${name}>${shards.map((ports) => `<shard><internal_replication>true</internal_replication>${replicas(ports)}</shard>`).join('')}</${name}></remote_servers>
  <macros><shard>${macros.shard}</shard><replica>${macros.replica}</replica></macros>
  <distributed_ddl><path>/clickhouse/task_queue/ddl</path></distributed_ddl>
  <merge_tree><zookeeper_session_expiration_check_period>5</zookeeper_session_expiration_check_period></merge_tree>
  <interserver_http_host>127.0.0.1</interserver_http_host>
  <interserver_http_port>${interserverPort}</interserver_http_port>`;
}

/**
 * Starts ZooKeeper and `shards` × `replicas` clickhouse-servers forming the cluster `name`.
 * `nodes[i]` is shard `floor(i / replicas) + 1`, replica `i % replicas + 1`; each can be
 * stopped and started again (`stop()`, `start()`), and so can `zookeeper`.
 */
export async function startCluster(options = {}) {
  const reason = clusterUnavailableReason();
  if (reason) throw new Error(reason);
  // The ports are picked before the servers start, so another process (a test beside this one)
  // can take one in between: a start that fails is tried again on fresh ports.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startClusterOnce(options);
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

async function startClusterOnce({ name = 'stress_gate', shards = 2, replicas = 2 }) {
  const zkHandle = { current: await startZooKeeper() };
  const layout = [];
  for (let s = 0; s < shards; s++) {
    for (let r = 0; r < replicas; r++) {
      layout.push({ shard: s + 1, replica: r + 1, port: await freePort(), tcpPort: await freePort(), interserverPort: await freePort(), dir: mkdtempSync(join(tmpdir(), `stress-gate-ch-s${s + 1}r${r + 1}-`)) });
    }
  }
  const shardPorts = Array.from({ length: shards }, (_, s) => layout.filter((n) => n.shard === s + 1).map((n) => n.tcpPort));
  const nodes = layout.map((n) => {
    const node = {
      ...n,
      url: `http://127.0.0.1:${n.port}`,
      server: null,
      async start() {
        node.server = await startClickHouseServer({
          port: n.port,
          tcpPort: n.tcpPort,
          dir: n.dir,
          extraConfig: clusterConfig(name, zkHandle.current.port, shardPorts, { shard: String(n.shard).padStart(2, '0'), replica: `s${n.shard}r${n.replica}` }, n.interserverPort),
        });
        node.pid = node.server.pid;
      },
      async stop() {
        await node.server?.stop();
        node.server = null;
      },
    };
    return node;
  });
  // One at a time: four servers starting at once on two cores take longer than one after another.
  try {
    for (const node of nodes) await node.start();
  } catch (error) {
    await Promise.all(nodes.map((n) => n.stop()));
    await zkHandle.current.stop();
    for (const n of nodes) rmSync(n.dir, { recursive: true, force: true });
    rmSync(zkHandle.current.dir, { recursive: true, force: true });
    throw error;
  }
  const zookeeper = {
    get port() {
      return zkHandle.current.port;
    },
    get pid() {
      return zkHandle.current.pid;
    },
    stop: () => zkHandle.current.stop(),
    async start() {
      zkHandle.current = await startZooKeeper({ port: zkHandle.current.port, dir: zkHandle.current.dir });
    },
  };
  return {
    name,
    nodes,
    zookeeper,
    /** `http://127.0.0.1:a,http://127.0.0.1:b,…`: every node, as CLICKHOUSE_URL lists them. */
    urls: (order = nodes) => order.map((n) => n.url).join(','),
    async stop() {
      await Promise.all(nodes.map((n) => n.stop()));
      await zookeeper.stop();
    },
    remove() {
      for (const n of nodes) rmSync(n.dir, { recursive: true, force: true });
      rmSync(zkHandle.current.dir, { recursive: true, force: true });
    },
  };
}
