// The service's configuration: one valibot schema over the environment, with defaults.
import { homedir } from 'node:os';
import path from 'node:path';
import * as v from 'valibot';
import { VerdictApiError } from '../errors/errors.js';
import { fieldPath } from '../validation/parse-body.js';
import { parseAllowList } from './webhook-allow-list.js';

/**
 * Where embedded chDB keeps its data when STRESS_GATE_DATA_DIR is unset: a per-user data
 * directory, `$XDG_DATA_HOME/stress-gate/chdb`, else `~/.local/share/stress-gate/chdb`. Never
 * beside the package's files: an installed package lives in node_modules, which `npm ci` deletes.
 */
export function defaultDataDir(env: Record<string, string | undefined>, home: string = homedir()): string {
  const xdg = env['XDG_DATA_HOME'];
  // The XDG base directory spec: a relative path there is invalid and must be ignored.
  const base = xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(home, '.local', 'share');
  return path.join(base, 'stress-gate', 'chdb');
}

const port = v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(0), v.maxValue(65535));

export const ConfigSchema = v.object({
  /** Interface to listen on. Default 127.0.0.1. */
  VERDICT_API_HOST: v.optional(v.pipe(v.string(), v.minLength(1)), '127.0.0.1'),
  /** Port to listen on; 0 picks a free one. Default 8787. */
  VERDICT_API_PORT: v.optional(port, '8787'),
  /**
   * A ClickHouse server (http://user:pass@host:8123), or a cluster's nodes separated by commas,
   * tried in that order (every API instance should list them in the same order). Unset: embedded chDB.
   */
  CLICKHOUSE_URL: v.optional(
    v.pipe(
      v.string(),
      v.check((value) => value.split(',').every((u) => URL.canParse(u.trim()) && /^https?:$/.test(new URL(u.trim()).protocol)), 'must be a URL such as http://127.0.0.1:8123, or several separated by commas'),
    ),
  ),
  /**
   * The cluster (a name in the servers' remote_servers) to lay the tables out over: sharded by
   * project, replicated (storage/cluster.ts). Needs CLICKHOUSE_URL and STRESS_GATE_ZOOKEEPER.
   */
  CLICKHOUSE_CLUSTER: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, 'must be a plain identifier'))),
  /**
   * The cluster's ZooKeeper (host:port, several separated by commas), where API instances claim
   * run ids, gate results and handles, and take the migration lock: ClickHouse has no compare-and-set.
   */
  STRESS_GATE_ZOOKEEPER: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9.-]+:\d{1,5}(,[A-Za-z0-9.-]+:\d{1,5})*$/, 'must be host:port, or several separated by commas'))),
  /** The database the service owns. Default stress_gate. */
  CLICKHOUSE_DATABASE: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, 'must be a plain identifier')), 'stress_gate'),
  /** chDB's data directory, kept across restarts. Default: defaultDataDir() (loadConfig fills it in). */
  STRESS_GATE_DATA_DIR: v.pipe(v.string(), v.minLength(1)),
  /** Seconds between sweeps (flaky-mark cooldown, quarantine expiry). Default 300. */
  STRESS_GATE_SWEEP_INTERVAL_SECONDS: v.optional(v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(1, 'must be >= 1')), '300'),
  /** The operator credential (creates and entitles accounts over HTTP). Unset: no operator. At least 32 characters. */
  STRESS_GATE_OPERATOR_TOKEN: v.optional(v.pipe(v.string(), v.minLength(32, 'must be at least 32 characters'), v.maxLength(512, 'must be at most 512 characters'), v.regex(/^\S+$/, 'must not contain spaces'))),
  /** The dashboard's public base URL (links, Origin checks behind a proxy). Default: the request's own origin. */
  STRESS_GATE_PUBLIC_URL: v.optional(v.pipe(v.string(), v.url('must be a URL such as https://stress.example.com'))),
  /**
   * Verdicts worked on at once; more wait their turn. Unset: 4 on embedded chDB, 12 on a server
   * (http/app.ts). Higher serves more verdicts while the run uploads beside them slow down.
   */
  STRESS_GATE_VERDICT_CONCURRENCY: v.optional(v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(1, 'must be >= 1'), v.maxValue(1000, 'must be <= 1000'))),
  /**
   * Ranges webhooks may reach although they are not public (loopback, private, link-local):
   * addresses or CIDRs, comma-separated, e.g. 10.20.0.0/16. Default: none, public addresses only.
   */
  STRESS_GATE_WEBHOOK_ALLOW: v.optional(
    v.pipe(
      v.string(),
      v.rawCheck(({ dataset, addIssue }) => {
        if (!dataset.typed) return;
        try {
          parseAllowList(dataset.value);
        } catch (error) {
          addIssue({ message: (error as Error).message });
        }
      }),
    ),
  ),
  /** Each account's API requests per second (refill of its bucket). Default 100; 0: no limit. */
  STRESS_GATE_ACCOUNT_REQUESTS_PER_SECOND: v.optional(v.pipe(v.string(), v.transform(Number), v.number('must be a number'), v.minValue(0, 'must be >= 0'))),
  /**
   * How many API instances share the traffic behind a load balancer: each enforces its share of
   * every account's rate and burst (limits/account-rate.ts shareOfRate). Default 1.
   */
  STRESS_GATE_API_INSTANCES: v.optional(v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(1, 'must be >= 1'), v.maxValue(1000, 'must be <= 1000')), '1'),
  /** Each account's API requests at once (its bucket). Default 1000. */
  STRESS_GATE_ACCOUNT_BURST: v.optional(v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(1, 'must be >= 1'))),
  /** Rows (test cases and repetitions) each account may store per UTC day. Default 50,000,000; 0: no limit. */
  STRESS_GATE_ACCOUNT_ROWS_PER_DAY: v.optional(v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(0, 'must be >= 0'))),
  /** Upload bytes (MiB, fractions allowed) each account may store per UTC day. Default 20,480 (20 GiB); 0: no limit. */
  STRESS_GATE_ACCOUNT_MIB_PER_DAY: v.optional(v.pipe(v.string(), v.transform(Number), v.number('must be a number'), v.minValue(0, 'must be >= 0'))),
  /** Rows each account may store in all (nothing expires). Default 10,000,000,000; 0: no limit. */
  STRESS_GATE_ACCOUNT_ROWS_RETAINED: v.optional(v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(0, 'must be >= 0'))),
  /** Upload bytes (MiB) each account may store in all. Default 4,194,304 (4 TiB); 0: no limit. */
  STRESS_GATE_ACCOUNT_MIB_RETAINED: v.optional(v.pipe(v.string(), v.transform(Number), v.number('must be a number'), v.minValue(0, 'must be >= 0'))),
  /** Connections the API holds at once; more are closed as they arrive. Default: half the process's descriptor limit, at most 10,000. */
  STRESS_GATE_MAX_CONNECTIONS: v.optional(v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(1, 'must be >= 1'))),
  /** Connections one client address holds at once (behind a proxy, all clients are its address: raise it). Default 256. */
  STRESS_GATE_MAX_CONNECTIONS_PER_ADDRESS: v.optional(v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(1, 'must be >= 1'))),
  /**
   * The key webhook secrets are sealed with (64 hexadecimal characters): every API process over
   * one database needs the same. Unset: the key in STRESS_GATE_SECRETS_KEY_FILE.
   */
  STRESS_GATE_SECRETS_KEY: v.optional(v.pipe(v.string(), v.regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters (32 bytes), e.g. from: openssl rand -hex 32'))),
  /** The key's file, created on first start when missing. Default: beside the data directory, `<STRESS_GATE_DATA_DIR>.secrets.key`. */
  STRESS_GATE_SECRETS_KEY_FILE: v.optional(v.pipe(v.string(), v.minLength(1))),
  /** pino level. Default info. */
  LOG_LEVEL: v.optional(v.picklist(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info'),
});

export type Config = v.InferOutput<typeof ConfigSchema>;

/** Reads the configuration or throws with `KEY: message`. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const input: Record<string, string> = Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => e[0] in ConfigSchema.entries && e[1] !== undefined && e[1] !== ''),
  );
  input['STRESS_GATE_DATA_DIR'] ??= defaultDataDir(env);
  const result = v.safeParse(ConfigSchema, input);
  if (result.success) {
    const { CLICKHOUSE_CLUSTER, CLICKHOUSE_URL, STRESS_GATE_ZOOKEEPER } = result.output;
    if (CLICKHOUSE_CLUSTER !== undefined && CLICKHOUSE_URL === undefined) {
      throw new VerdictApiError('CONFIG_INVALID', 'CLICKHOUSE_CLUSTER: needs CLICKHOUSE_URL (the cluster\'s nodes); embedded chDB is one node', 'CLICKHOUSE_CLUSTER');
    }
    if (CLICKHOUSE_CLUSTER !== undefined && STRESS_GATE_ZOOKEEPER === undefined) {
      throw new VerdictApiError('CONFIG_INVALID', 'CLICKHOUSE_CLUSTER: needs STRESS_GATE_ZOOKEEPER (the cluster\'s ZooKeeper), where API instances claim run ids', 'CLICKHOUSE_CLUSTER');
    }
    return result.output;
  }
  const issue = result.issues[0];
  const field = fieldPath((issue.path ?? []).map((p) => p.key as string));
  throw new VerdictApiError('CONFIG_INVALID', `${field}: ${issue.message}`, field);
}
