// The configuration, validated by one valibot schema with defaults. Sources in precedence order:
// command-line flag, environment, the `stressNewTests` block (read back from the plugin's
// manifest). The token is never read from the block: a repository file is no place for it.
//
// Nor does the token go where the repository alone says (docs/security.md): a server URL named
// only in the settings block (or .mvn/stress-gate.properties), which a merge request can edit, is
// not used with the token unless STRESS_GATE_TRUST_SETTINGS_URL says so; an http:// URL to a host
// that is not this machine is refused unless STRESS_GATE_ALLOW_HTTP says so (the token would
// cross the network in clear); and a URL carrying a user name or password is refused, never
// printed (URLs are printed in reports and comments).
import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import * as v from 'valibot';
import { RunId } from '#contract';
import type { ToolFlags } from '../args/parse-args.js';
import { ConfigError, UsageError } from '../base/errors.js';
import { booleanEnv } from './environment.js';

/** The modes a user may ask for; `off` is also what "absent everywhere" means. */
export const MODES = ['report', 'enforce', 'off'] as const;
/** A gate mode. */
export type Mode = (typeof MODES)[number];
/** How the stress pass runs repetitions (jvm/run-repetitions.ts, gradle/gradle-executor.ts). */
export const EXECUTORS = ['direct', 'gradle'] as const;

/** What the plugin's manifest says the settings block holds (all optional). */
export interface BlockSettings {
  mode?: string | null;
  serverUrl?: string | null;
  project?: string | null;
  requestTimeoutSeconds?: number | null;
  executor?: string | null;
}

const optionalText = v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty')));

/** The one schema of the resolved configuration. */
export const ConfigSchema = v.object({
  /** report | enforce | off. Default: off (absent everywhere means off, on CI too). */
  mode: v.optional(v.picklist(MODES, 'expected one of report, enforce, off'), 'off'),
  /** Base URL of the verdict API. Default: none (no upload, no verdict). */
  serverUrl: v.optional(v.pipe(v.string(), v.trim(), v.url('must be a URL such as https://stress.example.com'))),
  /** Project handle on the verdict API. Default: none. */
  project: optionalText,
  /** Bearer token for the verdict API, from --token or STRESS_GATE_TOKEN only. Default: none. */
  token: optionalText,
  /** Timeout of each request to the verdict API, in seconds. Default: 30. */
  requestTimeoutSeconds: v.optional(v.pipe(v.number('must be a number'), v.gtValue(0, 'must be > 0')), 30),
  /** Predicted cost of one fresh test JVM, for the ceiling guard, in ms. Default: 600. */
  jvmStartMs: v.optional(v.pipe(v.number('must be a number'), v.minValue(0, 'must be >= 0')), 600),
  /**
   * How the stress pass runs repetitions: direct (the orchestrator starts the fresh JVMs itself,
   * several at a time) or gradle (one Test task per repetition, one after another). Default: direct.
   */
  executor: v.optional(v.picklist(EXECUTORS, 'expected one of direct, gradle'), 'direct'),
  /** How many repetition JVMs the direct executor runs at a time. Default: the available cores. */
  parallelJvms: v.optional(v.pipe(v.number('must be a number'), v.integer('must be an integer'), v.minValue(1, 'must be >= 1')), availableParallelism()),
  /** Directory the build runs in (absolute). */
  projectDir: v.string(),
  /** Path of the JSON report (absolute). */
  reportFile: v.string(),
  /** This invocation's run id on the verdict API. Default: a new UUID. Shards of one run share it. */
  runId: RunId,
  /** Which shard of the run this job is (0-based). Default: 0. */
  shardIndex: v.optional(v.pipe(v.number('must be a number'), v.integer('must be an integer'), v.minValue(0, 'must be >= 0')), 0),
  /** Post the run report as one merge-request comment (--comment, STRESS_GATE_COMMENT). Default: false. */
  comment: v.optional(v.boolean(), false),
  /** How many shards the run has; their uploads merge into one run. Default: 1. */
  shardTotal: v.optional(v.pipe(v.number('must be a number'), v.integer('must be an integer'), v.minValue(1, 'must be >= 1')), 1),
  /** Warnings about the configuration, printed by the gate (a server URL of the settings file not used, say). */
  notices: v.optional(v.array(v.string()), []),
});
/** The resolved, validated configuration. */
export type Config = v.InferOutput<typeof ConfigSchema>;

type Key = keyof v.InferInput<typeof ConfigSchema>;

const ENV: Partial<Record<Key, string>> = {
  mode: 'STRESS_NEW_TESTS',
  serverUrl: 'STRESS_GATE_URL',
  project: 'STRESS_GATE_PROJECT',
  token: 'STRESS_GATE_TOKEN',
  requestTimeoutSeconds: 'STRESS_GATE_REQUEST_TIMEOUT_SECONDS',
  jvmStartMs: 'STRESS_GATE_JVM_START_MS',
  executor: 'STRESS_GATE_EXECUTOR',
  parallelJvms: 'STRESS_GATE_PARALLEL_JVMS',
  runId: 'STRESS_GATE_RUN_ID',
  shardIndex: 'STRESS_GATE_SHARD_INDEX',
  shardTotal: 'STRESS_GATE_SHARD_TOTAL',
};
const FLAG: Partial<Record<Key, string>> = {
  mode: '--stress-new-tests',
  serverUrl: '--server-url',
  project: '--project',
  token: '--token',
  reportFile: '--report-file',
  projectDir: '--project-dir',
};
const NUMERIC = new Set<Key>(['requestTimeoutSeconds', 'jvmStartMs', 'parallelJvms', 'shardIndex', 'shardTotal']);

/**
 * Resolves the configuration. `block` is null before the first pass (the manifest does not
 * exist yet): call it then to reject a bad flag or env value before Gradle runs, and again after.
 */
export function resolveConfig(
  flags: ToolFlags,
  env: NodeJS.ProcessEnv,
  block: BlockSettings | null,
  cwd: string,
  build: { outputDir: string; settingsPrefix: string } = { outputDir: 'build', settingsPrefix: 'stressNewTests.' },
): Config {
  const input: Record<string, unknown> = {};
  const source: Record<string, string> = {};
  const set = (key: Key, value: unknown, from: string) => {
    if (value === undefined || value === null || input[key] !== undefined) return;
    if (typeof value === 'string' && NUMERIC.has(key)) value = value.trim() === '' ? undefined : Number(value);
    if (value === undefined) return;
    input[key] = value;
    source[key] = from;
  };
  for (const [key, flag] of Object.entries(FLAG) as [Key, string][]) set(key, flags[key as keyof ToolFlags], flag);
  // An empty variable is unset: CI files often write `STRESS_NEW_TESTS: ${{ vars.X }}`.
  for (const [key, name] of Object.entries(ENV) as [Key, string][]) set(key, env[name] === '' ? undefined : env[name], name);
  if (block) {
    set('mode', block.mode, `${build.settingsPrefix}mode`);
    set('serverUrl', block.serverUrl, `${build.settingsPrefix}serverUrl`);
    set('project', block.project, `${build.settingsPrefix}project`);
    set('requestTimeoutSeconds', block.requestTimeoutSeconds, `${build.settingsPrefix}requestTimeoutSeconds`);
    set('executor', block.executor, `${build.settingsPrefix}executor`);
  }
  for (const key of ['mode', 'executor']) if (typeof input[key] === 'string') input[key] = input[key].trim();
  const projectDir = path.resolve(cwd, (input['projectDir'] as string | undefined) ?? '.');
  input['projectDir'] = projectDir;
  input['reportFile'] = input['reportFile']
    ? path.resolve(cwd, input['reportFile'] as string)
    : path.join(projectDir, build.outputDir, 'stress-gate', 'report.json');
  set('runId', randomUUID(), 'runId');
  set('comment', flags.comment ? true : booleanEnv(env, 'STRESS_GATE_COMMENT') || undefined, flags.comment ? '--comment' : 'STRESS_GATE_COMMENT');

  const result = v.safeParse(ConfigSchema, input);
  if (result.success && result.output.shardIndex >= result.output.shardTotal) {
    throw new ConfigError(`${source['shardIndex'] ?? 'shardIndex'}: must be below the shard total ${result.output.shardTotal}; got ${result.output.shardIndex}`);
  }
  if (result.success) return checkedServer(result.output, source['serverUrl'] ?? 'serverUrl', build.settingsPrefix, env);
  const lines = result.issues.map((issue) => {
    const key = v.getDotPath(issue) ?? '';
    const got = key in input ? `; got ${JSON.stringify(key === 'serverUrl' ? withoutUserinfo(String(input[key])) : input[key])}` : '';
    return `${source[key] ?? key}: ${issue.message}${got}`;
  });
  // A mode or executor that is not one of the choices is a usage error, like a bad flag.
  const modeOnly = result.issues.every((i) => ['mode', 'executor'].includes(v.getDotPath(i) ?? ''));
  throw modeOnly ? new UsageError(lines.join('\n')) : new ConfigError(lines.join('\n'));
}

/** The configuration with its server URL checked for where the token may go (see the top). */
function checkedServer(config: Config, from: string, settingsPrefix: string, env: NodeJS.ProcessEnv): Config {
  if (config.serverUrl === undefined) return config;
  const url = new URL(config.serverUrl);
  if (url.username !== '' || url.password !== '') {
    throw new ConfigError(`${from}: must not carry a user name or password (the token authenticates; a server URL is printed in reports and comments)`);
  }
  if (from.startsWith(settingsPrefix) && config.token !== undefined && !booleanEnv(env, 'STRESS_GATE_TRUST_SETTINGS_URL')) {
    // A repository file alone does not get the token: the run goes on without the server.
    const { serverUrl: _dropped, ...rest } = config;
    return {
      ...rest,
      notices: [
        ...config.notices,
        `${from.replace(/: ?$/, '')} names the server ${url.origin}, but the token is not sent to a server named only in the repository (a merge request can change it); ` +
          'set STRESS_GATE_URL or --server-url to it, or STRESS_GATE_TRUST_SETTINGS_URL=1. The run goes on without the verdict API.',
      ],
    };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigError(`${from}: must be an https URL (or http on this machine)`);
  if (url.protocol === 'http:' && !isLoopback(url.hostname) && !booleanEnv(env, 'STRESS_GATE_ALLOW_HTTP')) {
    throw new ConfigError(`${from}: http:// would send the token in clear text to ${url.host}; use https, or set STRESS_GATE_ALLOW_HTTP=1 if the network between is trusted`);
  }
  return config;
}

/** Whether a URL's host is this machine: localhost, 127.0.0.0/8 or ::1. */
export function isLoopback(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return h === 'localhost' || h.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(h) || h === '::1' || h === '0:0:0:0:0:0:0:1';
}

/** A URL as it may be printed: any user name and password replaced. */
export function withoutUserinfo(text: string): string {
  return text.replace(/^((?:[^/@]*:)?\/\/)?[^/@]*@/, (_match, prefix: string | undefined) => `${prefix ?? ''}…@`);
}
