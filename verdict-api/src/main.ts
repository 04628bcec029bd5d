// The service's command: serve, demo (embedded, with its own entitled account), and admin
// commands that create accounts, projects, tokens and viewer credentials.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { getProjectByHandle } from './accounts/projects.js';
import { type AdminActions, localAdmin, remoteAdmin } from './admin/admin-actions.js';
import { type Config, loadConfig } from './config/config.js';
import { demoDashboardUrl, demoEnv, demoHandles, demoKeyPrefix } from './demo/demo-env.js';
import { setUpDemoProjects } from './demo/demo-projects.js';
import { VerdictApiError } from './errors/errors.js';
import { createLogger } from './log/logger.js';
import { startServer } from './server.js';
import type { ConnectionLimits } from './limits/connection-limits.js';
import { ACCOUNT_RATE, type AccountRate, shareOfRate } from './limits/account-rate.js';
import { STORAGE_QUOTA, type StorageQuota } from './limits/storage-quota.js';
import { copyFrom } from './storage/copy-from.js';
import { migrateDatabase, openDatabase } from './storage/open.js';
import { formatAnswers } from './telemetry/format-table.js';
import { runTelemetry } from './telemetry/queries.js';

const USAGE = `usage: verdict-api <command> [options]

commands:
  serve                                   serve the API (CLICKHOUSE_URL set: that server; else embedded chDB)
  demo [--project H]... [--write-env F]   serve on embedded chDB with an entitled demo account, its projects H
                                          (repeatable; default: one project "demo"; default branch main), fresh tokens
                                          (default-branch and merge-request) and an admin credential, printed and
                                          written to F: the first project as STRESS_GATE_PROJECT, STRESS_GATE_TOKEN,
                                          STRESS_GATE_MR_TOKEN, …; with several, each also as STRESS_GATE_DEMO_<H>_PROJECT,
                                          _TOKEN, _MR_TOKEN, _DASHBOARD_URL (H upper-cased, "-" and "." as "_")
  admin create-account --name N [--entitled]                     (operator)
  admin entitle --account ID [--off]                              (operator)
  admin create-admin-credential --account ID [--name N]           (operator) prints the credential once
  admin create-project --account ID --handle H [--default-branch B]
  admin create-token --project H [--name N] [--scope S]           prints the token once; S: merge-request (the
                                                                  default) or default-branch (protected-branch jobs only)
  admin list-tokens --project H
  admin revoke-token --project H --token-id ID
  admin create-viewer --project H [--name N]                     prints the viewer credential once: it signs in to the
                                                                  project's dashboard pages and reads, never writes
  admin list-viewers --project H
  admin revoke-viewer --project H --viewer-id ID
  telemetry [--project H] [--since YYYY-MM-DD]   run the tuning queries (clickhouse/queries) and print tables
  copy-from --source [USER:PASSWORD@]HOST:PORT [--source-database D]
                                          copy every row of a single-node install (its native port, D default
                                          stress_gate) into this database (a cluster's: CLICKHOUSE_CLUSTER), migrated
                                          first, and compare each table; refuses a target table that holds rows
  every admin command takes --server URL to act on a running server over HTTP, with the
  credential from STRESS_GATE_OPERATOR_TOKEN or STRESS_GATE_ADMIN_TOKEN (an account's admin
  credential); without --server it opens the database itself

environment: VERDICT_API_HOST (127.0.0.1), VERDICT_API_PORT (8787), CLICKHOUSE_URL, CLICKHOUSE_DATABASE (stress_gate),
             CLICKHOUSE_CLUSTER, STRESS_GATE_ZOOKEEPER, STRESS_GATE_API_INSTANCES (1),
             STRESS_GATE_DATA_DIR ($XDG_DATA_HOME/stress-gate/chdb, else ~/.local/share/stress-gate/chdb),
             STRESS_GATE_SWEEP_INTERVAL_SECONDS (300), STRESS_GATE_OPERATOR_TOKEN,
             STRESS_GATE_PUBLIC_URL, STRESS_GATE_VERDICT_CONCURRENCY (4 embedded, 12 server),
             STRESS_GATE_WEBHOOK_ALLOW (none: webhooks reach public addresses only),
             STRESS_GATE_ACCOUNT_REQUESTS_PER_SECOND (100; 0: no limit), STRESS_GATE_ACCOUNT_BURST (1000),
             STRESS_GATE_ACCOUNT_ROWS_PER_DAY (50000000), STRESS_GATE_ACCOUNT_MIB_PER_DAY (20480),
             STRESS_GATE_ACCOUNT_ROWS_RETAINED (10000000000), STRESS_GATE_ACCOUNT_MIB_RETAINED (4194304; 0: no limit), LOG_LEVEL (info)
embedded chDB allows one process per data directory: against a running embedded server, use --server.`;

class UsageError extends Error {}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    const config = loadConfig();
    switch (command) {
      case 'serve':
        return await serveCommand(config);
      case 'demo':
        return await demoCommand(config, rest);
      case 'admin':
        return await adminCommand(config, rest);
      case 'telemetry':
        return await telemetryCommand(config, rest);
      case 'copy-from':
        return await copyFromCommand(config, rest);
      case '--help':
      case '-h':
      case 'help':
        process.stdout.write(`${USAGE}\n`);
        return 0;
      default:
        throw new UsageError(command ? `unknown command "${command}"` : 'missing command');
    }
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      process.stderr.write(`verdict-api: ${(error as Error).message}\n\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof VerdictApiError) {
      process.stderr.write(`verdict-api: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

async function serveCommand(config: Config): Promise<number> {
  const log = createLogger(config.LOG_LEVEL);
  const db = openDatabase(config);
  const server = await startServer(db, log, config.VERDICT_API_HOST, config.VERDICT_API_PORT, serverOptions(config));
  process.stdout.write(`verdict API listening on ${server.url} (${storeDescription(config, db)})\n`);
  return waitForSignal(async () => {
    await server.close();
    await db.engine.close();
    await db.coordinator?.close();
  });
}

async function demoCommand(config: Config, args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { 'write-env': { type: 'string' }, project: { type: 'string', multiple: true } } });
  if (config.CLICKHOUSE_URL) throw new UsageError('demo runs on embedded chDB; unset CLICKHOUSE_URL');
  const wanted = demoHandles(values.project);
  if ('error' in wanted) throw new UsageError(wanted.error);
  const log = createLogger(config.LOG_LEVEL);
  const db = openDatabase(config);
  await migrateDatabase(db);
  const { projects, adminCredential } = await setUpDemoProjects(db, wanted.handles);
  const server = await startServer(db, log, config.VERDICT_API_HOST, config.VERDICT_API_PORT, serverOptions(config));
  const env = demoEnv(server.url, projects, adminCredential);
  if (values['write-env']) writeFileSync(values['write-env'], env, { mode: 0o600 });
  const several = projects.length > 1;
  const names = projects.map((p) => `${p.handle}${several ? ` (keys ${demoKeyPrefix(p.handle)}_…)` : ''}`).join(', ');
  process.stdout.write(
    `verdict API (demo) listening on ${server.url} on embedded ClickHouse (data in ${config.STRESS_GATE_DATA_DIR})\n` +
      `  project${several ? 's' : ''} ${names}, default branch main, one account entitled to the stress gate\n` +
      `  ${env.trim().split('\n').join('\n  ')}\n` +
      `  dashboard: ${server.url}/sign-in (sign in with the admin credential STRESS_GATE_ADMIN_TOKEN above), then ${demoDashboardUrl(server.url, projects[0]!.handle)}\n` +
      `  try: curl -H "Authorization: Bearer ${adminCredential}" ${server.url}/api/v1/projects/${projects[0]!.handle}/settings\n`,
  );
  return waitForSignal(async () => {
    await server.close();
    await db.engine.close();
    await db.coordinator?.close();
  });
}

async function adminCommand(config: Config, args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' },
      entitled: { type: 'boolean', default: false },
      off: { type: 'boolean', default: false },
      account: { type: 'string' },
      handle: { type: 'string' },
      'default-branch': { type: 'string' },
      project: { type: 'string' },
      'token-id': { type: 'string' },
      'viewer-id': { type: 'string' },
      server: { type: 'string' },
      scope: { type: 'string' },
    },
  });
  const need = (key: keyof typeof values): string => {
    const value = values[key];
    if (typeof value !== 'string' || value === '') throw new UsageError(`admin ${sub}: --${key} is required`);
    return value;
  };
  if (values.server) {
    const credential = process.env['STRESS_GATE_OPERATOR_TOKEN'] || process.env['STRESS_GATE_ADMIN_TOKEN'];
    if (!credential) throw new UsageError('admin --server: set STRESS_GATE_OPERATOR_TOKEN or STRESS_GATE_ADMIN_TOKEN to the credential to act with');
    const out = await adminAction(remoteAdmin(values.server, credential), sub, need, values);
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return 0;
  }
  const db = openForCommand(config);
  try {
    await migrateDatabase(db);
    const out = await adminAction(localAdmin(db), sub, need, values);
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return 0;
  } finally {
    await db.engine.close();
    await db.coordinator?.close();
  }
}

async function adminAction(admin: AdminActions, sub: string | undefined, need: (k: never) => string, values: Record<string, unknown>): Promise<unknown> {
  const req = need as (k: string) => string;
  const name = (fallback: string) => (typeof values.name === 'string' && values.name !== '' ? values.name : fallback);
  switch (sub) {
    case 'create-account':
      return admin.createAccount(req('name'), values.entitled === true);
    case 'entitle':
      return admin.entitle(req('account'), values.off !== true);
    case 'create-admin-credential':
      return admin.createAdminCredential(req('account'), name('admin'));
    case 'create-project':
      return admin.createProject(req('account'), req('handle'), (values['default-branch'] as string | undefined) ?? null);
    case 'create-token': {
      // Least privilege by default: a default-branch token is asked for by name.
      const scope = values.scope ?? 'merge-request';
      if (scope !== 'default-branch' && scope !== 'merge-request') throw new UsageError(`admin create-token: --scope must be default-branch or merge-request, not "${String(scope)}"`);
      return admin.createToken(req('project'), name('ci'), scope);
    }
    case 'list-tokens':
      return admin.listTokens(req('project'));
    case 'revoke-token':
      return admin.revokeToken(req('project'), req('token-id'));
    case 'create-viewer':
      return admin.createViewer(req('project'), name('viewer'));
    case 'list-viewers':
      return admin.listViewers(req('project'));
    case 'revoke-viewer':
      return admin.revokeViewer(req('project'), req('viewer-id'));
    default:
      throw new UsageError(sub ? `unknown admin command "${sub}"` : 'missing admin command');
  }
}

async function copyFromCommand(config: Config, args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { source: { type: 'string' }, 'source-database': { type: 'string' } } });
  const source = /^(?:([^:@]+):([^@]*)@)?([A-Za-z0-9.-]+:\d{1,5})$/.exec(values.source ?? '');
  if (!source) throw new UsageError('copy-from: --source must be HOST:PORT (the old server\'s native port, e.g. old-host:9000), optionally USER:PASSWORD@ before it');
  if (!config.CLICKHOUSE_URL) throw new UsageError('copy-from: set CLICKHOUSE_URL (and CLICKHOUSE_CLUSTER) to the ClickHouse to copy into');
  const db = openForCommand(config);
  try {
    await migrateDatabase(db);
    const copied = await copyFrom(db, { address: source[3]!, database: values['source-database'] ?? 'stress_gate', user: source[1], password: source[2] }, (line) => process.stderr.write(`copy-from: ${line}\n`));
    process.stdout.write(`${JSON.stringify({ tables: copied }, null, 2)}\n`);
    return 0;
  } finally {
    await db.engine.close();
    await db.coordinator?.close();
  }
}

/** The engine, the database and, for embedded chDB, where its data lives: printed at start. */
function storeDescription(config: Config, db: { engine: { kind: string }; name: string }): string {
  const data = db.engine.kind === 'embedded' ? `, data in ${config.STRESS_GATE_DATA_DIR}` : '';
  return `${db.engine.kind} ClickHouse, database ${db.name}${data}`;
}

/** Opens the database for a command that works on it directly, saying on stderr which one. */
function openForCommand(config: Config): ReturnType<typeof openDatabase> {
  const db = openDatabase(config);
  process.stderr.write(`verdict-api: ${storeDescription(config, db)}\n`);
  return db;
}

function serverOptions(config: Config) {
  return {
    sweepIntervalMs: config.STRESS_GATE_SWEEP_INTERVAL_SECONDS * 1000,
    ...(config.STRESS_GATE_OPERATOR_TOKEN ? { operatorToken: config.STRESS_GATE_OPERATOR_TOKEN } : {}),
    ...(config.STRESS_GATE_PUBLIC_URL ? { publicUrl: config.STRESS_GATE_PUBLIC_URL } : {}),
    ...(config.STRESS_GATE_VERDICT_CONCURRENCY ? { verdictConcurrency: config.STRESS_GATE_VERDICT_CONCURRENCY } : {}),
    ...(config.STRESS_GATE_WEBHOOK_ALLOW ? { webhookAllow: config.STRESS_GATE_WEBHOOK_ALLOW } : {}),
    ...accountRateOf(config),
    storageQuota: storageQuotaOf(config),
    ...connectionsOf(config),
  };
}

/** Connection caps the environment sets (limits/connection-limits.ts for the rest). */
function connectionsOf(config: Config): { connections?: Partial<ConnectionLimits> } {
  const total = config.STRESS_GATE_MAX_CONNECTIONS;
  const perAddress = config.STRESS_GATE_MAX_CONNECTIONS_PER_ADDRESS;
  if (total === undefined && perAddress === undefined) return {};
  return { connections: { ...(total !== undefined ? { total } : {}), ...(perAddress !== undefined ? { perAddress } : {}) } };
}

/** The per-account request rate the environment asks for (limits/account-rate.ts ACCOUNT_RATE for what is unset; 0 per second: none). */
function accountRateOf(config: Config): { accountRate?: AccountRate | null } {
  const perSecond = config.STRESS_GATE_ACCOUNT_REQUESTS_PER_SECOND;
  const burst = config.STRESS_GATE_ACCOUNT_BURST;
  const instances = config.STRESS_GATE_API_INSTANCES;
  if (perSecond === undefined && burst === undefined && instances === 1) return {};
  if (perSecond === 0) return { accountRate: null };
  return { accountRate: shareOfRate({ perSecond: perSecond ?? ACCOUNT_RATE.perSecond, burst: burst ?? ACCOUNT_RATE.burst }, instances) };
}

/** The storage quota the environment asks for (limits/storage-quota.ts STORAGE_QUOTA for what is unset; 0: no limit). */
function storageQuotaOf(config: Config): StorageQuota {
  const mib = (value: number | undefined, fallback: number) => (value === undefined ? fallback : Math.floor(value * 1024 * 1024));
  return {
    rowsPerDay: config.STRESS_GATE_ACCOUNT_ROWS_PER_DAY ?? STORAGE_QUOTA.rowsPerDay,
    bytesPerDay: mib(config.STRESS_GATE_ACCOUNT_MIB_PER_DAY, STORAGE_QUOTA.bytesPerDay),
    rowsRetained: config.STRESS_GATE_ACCOUNT_ROWS_RETAINED ?? STORAGE_QUOTA.rowsRetained,
    bytesRetained: mib(config.STRESS_GATE_ACCOUNT_MIB_RETAINED, STORAGE_QUOTA.bytesRetained),
  };
}

async function telemetryCommand(config: Config, args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { project: { type: 'string' }, since: { type: 'string' } } });
  const since = values.since === undefined ? undefined : new Date(values.since.length === 10 ? `${values.since}T00:00:00Z` : values.since);
  if (since && Number.isNaN(since.getTime())) throw new UsageError(`telemetry: --since must be a date (YYYY-MM-DD), not "${values.since}"`);
  const db = openForCommand(config);
  try {
    await migrateDatabase(db);
    let projectId: string | undefined;
    let defaultBranch: string | null = null;
    if (values.project !== undefined) {
      const project = await getProjectByHandle(db, values.project);
      if (!project) throw new VerdictApiError('NOT_FOUND', `no project "${values.project}"`);
      projectId = project.projectId;
      defaultBranch = project.defaultBranch;
    }
    const answers = await runTelemetry(db, { projectId, defaultBranch, since });
    const scope = `${values.project ? `project ${values.project}` : 'all projects'}${since ? `, since ${since.toISOString().slice(0, 10)}` : ''}`;
    process.stdout.write(`Stress gate telemetry (${db.engine.kind} ClickHouse, database ${db.name}, ${scope})\n\n${formatAnswers(answers)}`);
    return answers.some((a) => a.error !== null) ? 1 : 0;
  } finally {
    await db.engine.close();
    await db.coordinator?.close();
  }
}

function waitForSignal(stop: () => Promise<void>): Promise<number> {
  return new Promise((resolve) => {
    const handler = () => {
      void stop().then(() => resolve(0));
    };
    process.once('SIGINT', handler);
    process.once('SIGTERM', handler);
  });
}
