// Starts Debian's clickhouse-server (18.16) as a process on loopback, with its own config and
// data directory under a temp folder, for the tests of the server engine.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CANDIDATES = ['/usr/sbin/clickhouse-server', '/usr/bin/clickhouse-server', '/usr/bin/clickhouse'];

/** @returns {string} */
export function clickhouseServerBinary() {
  const bin = process.env.CLICKHOUSE_SERVER_BIN ?? CANDIDATES.find((p) => existsSync(p));
  if (!bin) {
    throw new Error('clickhouse-server not found: install it (apt-get install clickhouse-server) or set CLICKHOUSE_SERVER_BIN');
  }
  return bin;
}

/** @returns {Promise<number>} */
export async function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {{ port: number }} */ (s.address());
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts a server; `port` (and `tcpPort`) let a test restart one on the same address, `dir` on the
 * same data. `extraConfig`: more of config.xml (a cluster's ZooKeeper, remote_servers and macros).
 */
export async function startClickHouseServer(options = {}) {
  const bin = clickhouseServerBinary();
  const port = options.port ?? (await freePort());
  const tcpPort = options.tcpPort ?? (await freePort());
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'stress-gate-ch-'));
  for (const sub of ['data', 'tmp', 'user_files', 'format_schemas']) mkdirSync(join(dir, sub), { recursive: true });
  writeFileSync(
    join(dir, 'config.xml'),
    `<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><console>1</console></logger>
  <http_port>${port}</http_port>
  <tcp_port>${tcpPort}</tcp_port>
  <listen_host>127.0.0.1</listen_host>
  <path>${dir}/data/</path>
  <tmp_path>${dir}/tmp/</tmp_path>
  <user_files_path>${dir}/user_files/</user_files_path>
  <format_schema_path>${dir}/format_schemas/</format_schema_path>
  <users_config>users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>268435456</mark_cache_size>
  <max_concurrent_queries>100</max_concurrent_queries>
${options.extraConfig ?? ''}
</yandex>
`,
  );
  writeFileSync(
    join(dir, 'users.xml'),
    `<?xml version="1.0"?>
<yandex>
  <profiles><default></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip><ip>::1</ip></networks><profile>default</profile><quota>default</quota></default></users>
  <quotas><default></default></quotas>
</yandex>
`,
  );
  const args = bin.endsWith('/clickhouse') ? ['server', `--config-file=${dir}/config.xml`] : [`--config-file=${dir}/config.xml`];
  const child = spawn(bin, args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], detached: false });
  // Not outliving this process: a benchmark whose output pipe closed (`| head`) dies of EPIPE
  // before its teardown, and its server would go on taking a core from the next run.
  const killOnExit = () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  process.on('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`clickhouse-server exited with ${child.exitCode}: ${stderr}`);
    try {
      const res = await fetch(`${url}/ping`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`clickhouse-server did not answer /ping within 60 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    port,
    tcpPort,
    dir,
    /** The server's process id (benchmarks read its CPU time from /proc). */
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** Removes a server's folder once it is stopped. */
export function removeServerDir(server) {
  rmSync(server.dir, { recursive: true, force: true });
}
