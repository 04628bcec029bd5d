// The service's command: serve, demo (embedded, with its own entitled account), and admin
// commands that create accounts, projects and tokens.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createAccount, setEntitlement } from './accounts/accounts.js';
import { createProject, getProjectByHandle } from './accounts/projects.js';
import { createToken } from './accounts/tokens.js';
import { type Config, loadConfig } from './config/config.js';
import { VerdictApiError } from './errors/errors.js';
import { createLogger } from './log/logger.js';
import { startServer } from './server.js';
import type { Database } from './storage/database.js';
import { migrate } from './storage/migrate.js';
import { openDatabase } from './storage/open.js';
import { formatAnswers } from './telemetry/format-table.js';
import { runTelemetry } from './telemetry/queries.js';

const USAGE = `usage: verdict-api <command> [options]

commands:
  serve                                   serve the API (CLICKHOUSE_URL set: that server; else embedded chDB)
  demo [--write-env F]                     serve on embedded chDB with an entitled demo account, project "demo"
                                          (default branch main) and a fresh token, printed and written to F
  admin create-account --name N [--entitled]
  admin entitle --account ID [--off]
  admin create-project --account ID --handle H [--default-branch B]
  admin create-token --project H
  telemetry [--project H] [--since YYYY-MM-DD]   run the tuning queries (clickhouse/queries) and print tables

environment: VERDICT_API_HOST (127.0.0.1), VERDICT_API_PORT (8787), CLICKHOUSE_URL, CLICKHOUSE_DATABASE (stress_gate),
             STRESS_GATE_DATA_DIR (.data/chdb), STRESS_GATE_SWEEP_INTERVAL_SECONDS (300), LOG_LEVEL (info)
embedded chDB allows one process per data directory: stop the server before running admin commands against it.`;

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
  const server = await startServer(db, log, config.VERDICT_API_HOST, config.VERDICT_API_PORT, { sweepIntervalMs: config.STRESS_GATE_SWEEP_INTERVAL_SECONDS * 1000 });
  process.stdout.write(`verdict API listening on ${server.url} (${db.engine.kind} ClickHouse, database ${db.name})\n`);
  return waitForSignal(async () => {
    await server.close();
    await db.engine.close();
  });
}

async function demoCommand(config: Config, args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { 'write-env': { type: 'string' } } });
  if (config.CLICKHOUSE_URL) throw new UsageError('demo runs on embedded chDB; unset CLICKHOUSE_URL');
  const log = createLogger(config.LOG_LEVEL);
  const db = openDatabase(config);
  await migrate(db.engine, db.name);
  let project = await getProjectByHandle(db, 'demo');
  if (!project) {
    const account = await createAccount(db, 'Demo', true); // the embedded demo entitles its own account
    project = await createProject(db, { accountId: account.accountId, handle: 'demo', defaultBranch: 'main' });
  }
  const { token } = await createToken(db, project.projectId);
  const server = await startServer(db, log, config.VERDICT_API_HOST, config.VERDICT_API_PORT, { sweepIntervalMs: config.STRESS_GATE_SWEEP_INTERVAL_SECONDS * 1000 });
  const env = `STRESS_GATE_URL=${server.url}\nSTRESS_GATE_PROJECT=demo\nSTRESS_GATE_TOKEN=${token}\n`;
  if (values['write-env']) writeFileSync(values['write-env'], env, { mode: 0o600 });
  process.stdout.write(
    `verdict API (demo) listening on ${server.url} on embedded ClickHouse (data in ${config.STRESS_GATE_DATA_DIR})\n` +
      `  project demo, default branch main, account entitled to the stress gate\n` +
      `  ${env.trim().split('\n').join('\n  ')}\n` +
      `  try: curl -H "Authorization: Bearer ${token}" ${server.url}/api/v1/projects/demo/settings\n`,
  );
  return waitForSignal(async () => {
    await server.close();
    await db.engine.close();
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
    },
  });
  const need = (key: keyof typeof values): string => {
    const value = values[key];
    if (typeof value !== 'string' || value === '') throw new UsageError(`admin ${sub}: --${key} is required`);
    return value;
  };
  const db = openDatabase(config);
  try {
    await migrate(db.engine, db.name);
    const out = await adminAction(db, sub, need, values);
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return 0;
  } finally {
    await db.engine.close();
  }
}

async function adminAction(db: Database, sub: string | undefined, need: (k: never) => string, values: Record<string, unknown>): Promise<unknown> {
  const req = need as (k: string) => string;
  switch (sub) {
    case 'create-account':
      return createAccount(db, req('name'), values.entitled === true);
    case 'entitle':
      return setEntitlement(db, req('account'), values.off !== true);
    case 'create-project': {
      const p = await createProject(db, { accountId: req('account'), handle: req('handle'), defaultBranch: (values['default-branch'] as string | undefined) ?? null });
      return { projectId: p.projectId, handle: p.handle, defaultBranch: p.defaultBranch };
    }
    case 'create-token': {
      const project = await getProjectByHandle(db, req('project'));
      if (!project) throw new VerdictApiError('NOT_FOUND', `no project "${req('project')}"`);
      return { project: project.handle, ...(await createToken(db, project.projectId)) };
    }
    default:
      throw new UsageError(sub ? `unknown admin command "${sub}"` : 'missing admin command');
  }
}

async function telemetryCommand(config: Config, args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { project: { type: 'string' }, since: { type: 'string' } } });
  const since = values.since === undefined ? undefined : new Date(values.since.length === 10 ? `${values.since}T00:00:00Z` : values.since);
  if (since && Number.isNaN(since.getTime())) throw new UsageError(`telemetry: --since must be a date (YYYY-MM-DD), not "${values.since}"`);
  const db = openDatabase(config);
  try {
    await migrate(db.engine, db.name);
    let projectId: string | undefined;
    if (values.project !== undefined) {
      const project = await getProjectByHandle(db, values.project);
      if (!project) throw new VerdictApiError('NOT_FOUND', `no project "${values.project}"`);
      projectId = project.projectId;
    }
    const answers = await runTelemetry(db, { projectId, since });
    const scope = `${values.project ? `project ${values.project}` : 'all projects'}${since ? `, since ${since.toISOString().slice(0, 10)}` : ''}`;
    process.stdout.write(`Stress gate telemetry (${db.engine.kind} ClickHouse, database ${db.name}, ${scope})\n\n${formatAnswers(answers)}`);
    return answers.some((a) => a.error !== null) ? 1 : 0;
  } finally {
    await db.engine.close();
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
