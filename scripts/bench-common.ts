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
import { startServer, type RunningServer } from '../verdict-api/dist/server.js';
import { formatDateTime } from '../verdict-api/dist/sql/bind.js';
import { database, type Database } from '../verdict-api/dist/storage/database.js';
import { openEmbeddedEngine } from '../verdict-api/dist/storage/embedded-engine.js';
import type { ClickHouseEngine, EngineKind } from '../verdict-api/dist/storage/engine.js';
import { openServerEngine } from '../verdict-api/dist/storage/server-engine.js';
import { sql } from '../verdict-api/dist/sql/bind.js';
import { testCaseId, type Identity } from '../verdict-api/dist/identity/test-case-id.js';

export const IDENTITIES_PER_PROJECT = 10_000;
export const DB_NAME = 'bench';

export interface Options {
  engines: EngineKind[];
  rows: number;
  [key: string]: unknown;
}

/** `--engine embedded|server|both` and `--rows N` (argv wins over BENCH_ENGINE / BENCH_ROWS). */
export function parseOptions(argv: string[], defaults: { rows: number }): Options & { flags: Map<string, string> } {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) throw new Error(`unexpected argument ${a}`);
    const eq = a.indexOf('=');
    if (eq > 0) flags.set(a.slice(2, eq), a.slice(eq + 1));
    else flags.set(a.slice(2), argv[++i] ?? '');
  }
  const engine = flags.get('engine') ?? process.env.BENCH_ENGINE ?? 'both';
  if (!['embedded', 'server', 'both'].includes(engine)) throw new Error(`--engine must be embedded, server or both, not ${engine}`);
  const rows = Number((flags.get('rows') ?? process.env.BENCH_ROWS ?? String(defaults.rows)).replaceAll('_', ''));
  if (!Number.isInteger(rows) || rows < 0) throw new Error('--rows must be a non-negative integer');
  return { engines: engine === 'both' ? ['embedded', 'server'] : [engine as EngineKind], rows, flags };
}

export const intFlag = (flags: Map<string, string>, name: string, fallback: number): number => {
  const v = flags.get(name) ?? process.env[`BENCH_${name.toUpperCase().replaceAll('-', '_')}`];
  const n = v === undefined ? fallback : Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer`);
  return n;
};

// ---------------------------------------------------------------------------------------------

export interface Bench {
  kind: EngineKind;
  db: Database;
  /** The same database through an engine without the 30 s request timeout (bulk SQL). */
  bulk: ClickHouseEngine;
  api: RunningServer;
  project: Project;
  token: string;
  /** The clickhouse-server of a server bench (null when embedded): stop it and start it again on the same port and data. */
  chServer: { stop(): Promise<void>; start(): Promise<void> } | null;
  close(): Promise<void>;
}

export interface BenchOptions {
  /** Wraps the API's engine (to time its statements); bulk SQL and setup go around it. */
  wrap?: (engine: ClickHouseEngine) => ClickHouseEngine;
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
  const api = await startServer(db, silentLogger(), '127.0.0.1', 0); // applies the migrations
  cleanups.unshift(() => api.close());
  const account = await createAccount(setup, 'bench-account', true);
  const project = await createProject(setup, { accountId: account.accountId, handle: 'bench', defaultBranch: 'main' });
  const { token } = await createToken(setup, project.projectId);
  return {
    kind,
    db: setup,
    bulk,
    chServer,
    api,
    project,
    token,
    close: async () => {
      for (const c of cleanups) await c();
    },
  };
}

/**
 * Fills test_case_branch_presence with `rows` rows (main, CI) in projects of 10,000 identities:
 * the benchmarked project's 10,000 from JS with the real testCaseId, the rest generated by
 * ClickHouse itself with deterministic ids. Returns the ms each step took.
 */
export async function fillPresence(b: Bench, rows: number): Promise<{ jsMs: number; sqlMs: number; optimizeMs: number; total: number }> {
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
  await b.bulk.command(sql`OPTIMIZE TABLE ${b.db.t('test_case_branch_presence')} FINAL`);
  const t3 = performance.now();
  return { jsMs: t1 - t0, sqlMs: t2 - t1, optimizeMs: t3 - t2, total: t3 - t0 };
}

export async function countPresence(b: Bench): Promise<number> {
  const r = await b.db.engine.query<{ n: unknown }>(sql`SELECT count() AS n FROM ${b.db.t('test_case_branch_presence')}`);
  return Number(r[0]?.n ?? 0);
}

// ---------------------------------------------------------------------------------------------
// Identities that look like a Gradle build's: module path, JUnit class, method (some parameterised).

const MODULES = ['app', 'core', 'billing', 'search', 'auth', 'catalog', 'orders', 'payments', 'notifications', 'reporting'];
const AREAS = ['service', 'repository', 'controller', 'mapper', 'validator', 'client', 'scheduler', 'cache'];
const NOUNS = ['Invoice', 'Customer', 'Order', 'Payment', 'Token', 'Session', 'Product', 'Refund', 'Address', 'Report', 'Cart', 'Ledger'];
const VERBS = ['creates', 'rejects', 'updates', 'deletes', 'computes', 'retries', 'caches', 'serialises', 'validates', 'maps'];
const TAILS = ['WhenInputIsEmpty', 'OnTimeout', 'ForLargeBatch', 'WithUnicodeName', 'AfterRestart', 'UnderConcurrency', 'WhenDisabled', ''];

/** The i-th identity of a synthetic code base: 20 tests per class, 25 classes per module-area. */
function identity(i: number, flavour: string): Identity {
  const cls = Math.floor(i / 20);
  const mod = MODULES[cls % MODULES.length]!;
  const area = AREAS[Math.floor(cls / MODULES.length) % AREAS.length]!;
  const noun = NOUNS[cls % NOUNS.length]!;
  const suite = `com.acme.${mod}.${area}.${noun}${area[0]!.toUpperCase()}${area.slice(1)}${flavour}Test${cls}`;
  const method = `${VERBS[i % VERBS.length]!}${noun}${TAILS[(i >> 2) % TAILS.length]!}`;
  const name = i % 7 === 0 ? `${method}(String, int)[${i % 20}]` : `${method}_${i % 20}()`;
  return { module: `:${mod}:${area}`, suite, name };
}

/** Identities the benchmarked project has run in CI on main (0 ≤ i < 10,000). */
export const knownIdentity = (i: number): Identity => identity(i, '');
/** Identities it never ran (any i ≥ 0). */
export const newIdentity = (i: number): Identity => identity(i, 'Added');

// ---------------------------------------------------------------------------------------------

export function summarize(samples: number[]): { n: number; p50: number; p99: number; max: number; mean: number } {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
  return { n: s.length, p50: at(0.5), p99: at(0.99), max: s[s.length - 1]!, mean: s.reduce((a, b) => a + b, 0) / s.length };
}

export const ms = (x: number): string => `${x.toFixed(1)} ms`;
export const log = (line: string): void => void process.stdout.write(`${line}\n`);
