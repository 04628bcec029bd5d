// Shared by the benchmarks: options, one engine + API on a loopback port, the presence fill,
// realistic identities and percentiles. Imports the built service from ../verdict-api/dist.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeServerDir, startClickHouseServer } from '../verdict-api/test/support/clickhouse-server.mjs';
import { createAccount } from '../verdict-api/dist/accounts/accounts.js';
import { createProject, type Project } from '../verdict-api/dist/accounts/projects.js';
import { createToken } from '../verdict-api/dist/accounts/tokens.js';
import { silentLogger } from '../verdict-api/dist/log/logger.js';
import { NO_STORAGE_QUOTA } from '../verdict-api/dist/limits/storage-quota.js';
import { startServer, type RunningServer } from '../verdict-api/dist/server.js';
import { formatDateTime } from '../verdict-api/dist/sql/bind.js';
import { database, type Database } from '../verdict-api/dist/storage/database.js';
import { openEmbeddedEngine } from '../verdict-api/dist/storage/embedded-engine.js';
import type { ClickHouseEngine, EngineKind } from '../verdict-api/dist/storage/engine.js';
import { openServerEngine } from '../verdict-api/dist/storage/server-engine.js';
import { sql } from '../verdict-api/dist/sql/bind.js';
import { testCaseId } from '../verdict-api/dist/identity/test-case-id.js';
import { IDENTITIES_PER_PROJECT, knownIdentity } from './bench-util.js';

export { IDENTITIES_PER_PROJECT, intFlag, knownIdentity, loadUploadBody, log, ms, newIdentity, parseOptions, summarize, type Options } from './bench-util.js';

export const DB_NAME = 'bench';

export interface Bench {
  kind: EngineKind;
  db: Database;
  /** The same database through an engine without the 30 s request timeout (bulk SQL). */
  bulk: ClickHouseEngine;
  api: RunningServer;
  project: Project;
  token: string;
  /** The clickhouse-server of a server bench (null when embedded): stop it and start it again on the same port and data. */
  chServer: { stop(): Promise<void>; start(): Promise<void>; pid(): number | undefined } | null;
  close(): Promise<void>;
}

export interface BenchOptions {
  /** Wraps the API's engine (to time its statements); bulk SQL and setup go around it. */
  wrap?: (engine: ClickHouseEngine) => ClickHouseEngine;
  /** Verdicts the API works on at once (STRESS_GATE_VERDICT_CONCURRENCY); unset: the engine's default. */
  verdictConcurrency?: number;
}

/** A fresh engine (chDB in a temp dir, or a clickhouse-server of its own), migrated, served on a loopback port, with one entitled project. */
export async function openBench(kind: EngineKind, options: BenchOptions = {}): Promise<Bench> {
  const cleanups: (() => Promise<void> | void)[] = [];
  let engine: ClickHouseEngine;
  let bulk: ClickHouseEngine;
  let chServer: Bench['chServer'] = null;
  if (kind === 'embedded') {
    const dir = mkdtempSync(join(tmpdir(), 'stress-gate-bench-chdb-'));
    mkdirSync(dir, { recursive: true });
    engine = openEmbeddedEngine(dir);
    bulk = engine;
    cleanups.push(() => engine.close(), () => rmSync(dir, { recursive: true, force: true }));
  } else {
    // Debian's clickhouse-server 18.16 on loopback, from a temp folder (the integration tests' launcher).
    let server = await startClickHouseServer();
    const first = server;
    engine = openServerEngine({ url: server.url });
    bulk = openServerEngine({ url: server.url, requestTimeoutMs: 30 * 60_000 });
    chServer = {
      pid: () => server.pid,
      stop: () => server.stop(),
      start: async () => {
        server = await startClickHouseServer({ port: first.port, dir: first.dir });
      },
    };
    cleanups.push(
      () => engine.close(),
      () => bulk.close(),
      () => server.stop(),
      () => removeServerDir(first),
    );
  }
  const setup = database(engine, DB_NAME);
  const db = options.wrap ? database(options.wrap(engine), DB_NAME) : setup;
  // One account drives the whole load: its request rate and its storage are not limited (the service's defaults: 100 requests a second, 50 million rows a day per account).
  const api = await startServer(db, silentLogger(), '127.0.0.1', 0, { accountRate: null, storageQuota: NO_STORAGE_QUOTA, ...(options.verdictConcurrency ? { verdictConcurrency: options.verdictConcurrency } : {}) }); // applies the migrations
  cleanups.unshift(() => api.close());
  const account = await createAccount(setup, 'bench-account', true);
  const project = await createProject(setup, { accountId: account.accountId, handle: 'bench', defaultBranch: 'main' });
  const { token } = await createToken(setup, project.projectId, 'ci', 'default-branch');
  return {
    kind,
    db: setup,
    bulk,
    chServer,
    api,
    project,
    token,
    close: async () => {
      // A slow step of the teardown says which one it was (a benchmark that hangs at exit must not look like a slow measurement).
      for (const [i, c] of cleanups.entries()) {
        const t = performance.now();
        await c();
        const took = performance.now() - t;
        if (took > 2000) process.stderr.write(`bench teardown step ${i} (${c.toString().replace(/\s+/g, ' ').slice(0, 60)}) took ${(took / 1000).toFixed(1)} s\n`);
      }
    },
  };
}

/** Where fillPresence writes: the database, an engine for bulk SQL on it, and the benchmarked project. */
export type PresenceTarget = Pick<Bench, 'db' | 'bulk'> & { project: Pick<Project, 'projectId'> };

/**
 * Fills test_case_branch_presence with `rows` rows (main, CI) in projects of 10,000 identities:
 * the benchmarked project's 10,000 from JS with the real testCaseId, the rest generated by
 * ClickHouse itself with deterministic ids; then `optimize` merges it into one part (OPTIMIZE
 * TABLE … FINAL; on a cluster, whose Distributed table has no parts, the caller's way). On a
 * cluster both inserts go through the Distributed table, so each project's rows land on its
 * shard. Returns the ms each step took.
 */
export async function fillPresence(
  b: PresenceTarget,
  rows: number,
  optimize = () => b.bulk.command(sql`OPTIMIZE TABLE ${b.db.t('test_case_branch_presence')} FINAL`),
): Promise<{ jsMs: number; sqlMs: number; optimizeMs: number; total: number }> {
  const t0 = performance.now();
  const own = Math.min(rows, IDENTITIES_PER_PROJECT);
  const ranAt = formatDateTime(new Date(Date.now() - 7 * 86_400_000));
  const ownRows = Array.from({ length: own }, (_, i) => ({
    project_id: b.project.projectId,
    git_branch: 'main',
    is_ci: 1,
    test_case_id: testCaseId(b.project.projectId, knownIdentity(i)),
    ran_at: ranAt,
    run_id: 'bench-fill',
  }));
  if (ownRows.length > 0) await b.db.engine.insert(b.db.t('test_case_branch_presence'), ownRows);
  const t1 = performance.now();
  const others = rows - own;
  if (others > 0) {
    // Project k (0-based) of the others gets rows [k*10000, (k+1)*10000); ids are MD5-derived UUIDs.
    await b.bulk.command(sql`
      INSERT INTO ${b.db.t('test_case_branch_presence')} (project_id, git_branch, is_ci, test_case_id, ran_at, run_id)
      SELECT
        toUUID(UUIDNumToString(MD5(concat('bench-project-', toString(intDiv(number, ${IDENTITIES_PER_PROJECT})))))),
        'main',
        1,
        toUUID(UUIDNumToString(MD5(concat('bench-case-', toString(number))))),
        toDateTime('2025-01-01 00:00:00', 'UTC') + toUInt32(number % 8640000),
        'bench-fill'
      FROM numbers(${others})`);
  }
  const t2 = performance.now();
  // Leave one merged part, as a long-lived table would mostly be, and no merges racing the measurements.
  await optimize();
  const t3 = performance.now();
  return { jsMs: t1 - t0, sqlMs: t2 - t1, optimizeMs: t3 - t2, total: t3 - t0 };
}

export async function countPresence(b: Bench): Promise<number> {
  const r = await b.db.engine.query<{ n: unknown }>(sql`SELECT count() AS n FROM ${b.db.t('test_case_branch_presence')}`);
  return Number(r[0]?.n ?? 0);
}
