// The benchmarks' helpers that touch no database: flags, synthetic identities, requests, figures. The load
// benchmark's client worker imports only this module, so chDB's native addon is never loaded in a
// thread that is terminated (its teardown there hung the main thread's next chDB call for minutes).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Agent, request } from 'node:http';
import type { EngineKind } from '../verdict-api/dist/storage/engine.js';
import type { Identity } from '../verdict-api/dist/identity/test-case-id.js';

export const IDENTITIES_PER_PROJECT = 10_000;

export interface Options {
  engines: EngineKind[];
  rows: number;
  [key: string]: unknown;
}

/** `--engine embedded|server|both` and `--rows N` (argv wins over BENCH_ENGINE / BENCH_ROWS). */
export function parseOptions(argv: string[], defaults: { rows: number }): Options & { flags: Map<string, string> } {
  const flags = flagMap(argv);
  const engine = flags.get('engine') ?? process.env.BENCH_ENGINE ?? 'both';
  if (!['embedded', 'server', 'both'].includes(engine)) throw new Error(`--engine must be embedded, server or both, not ${engine}`);
  const rows = Number((flags.get('rows') ?? process.env.BENCH_ROWS ?? String(defaults.rows)).replaceAll('_', ''));
  if (!Number.isInteger(rows) || rows < 0) throw new Error('--rows must be a non-negative integer');
  return { engines: engine === 'both' ? ['embedded', 'server'] : [engine as EngineKind], rows, flags };
}

/** `--name value` and `--name=value` pairs; anything else is refused. */
export function flagMap(argv: string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) throw new Error(`unexpected argument ${a}`);
    const eq = a.indexOf('=');
    if (eq > 0) flags.set(a.slice(2, eq), a.slice(eq + 1));
    else flags.set(a.slice(2), argv[++i] ?? '');
  }
  return flags;
}

/** An integer flag 0..max (or BENCH_<NAME>), `fallback` when absent. */
export const intFlag = (flags: Map<string, string>, name: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number => {
  const v = flags.get(name) ?? process.env[`BENCH_${name.toUpperCase().replaceAll('-', '_')}`];
  const n = v === undefined ? fallback : Number(v);
  if (!Number.isInteger(n) || n < 0 || n > max) throw new Error(max === Number.MAX_SAFE_INTEGER ? `--${name} must be a non-negative integer` : `--${name} must be an integer 0..${max}`);
  return n;
};

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

/**
 * The load benchmarks' upload k (bench-load's stream, bench-server-cpu's replay): `cases` test
 * cases on a feature branch, half known and half never seen, and a commit of its own, except that
 * every fourth upload is a rerun of the commit before (CI reruns happen; 400 uploads of one commit
 * do not, and would make each upload's check for a commit with both a failing and a passing run
 * read every earlier one).
 */
export function loadUploadBody(runId: string, k: number, cases: number): string {
  const testCases = [];
  for (let i = 0; i < cases; i++) {
    const id = i % 2 === 0 ? knownIdentity((k * cases + i) % IDENTITIES_PER_PROJECT) : newIdentity(1_000_000 + k * cases + i);
    testCases.push({ ...id, status: i % 97 === 5 ? 'failure' : 'success', durationMs: ((i * 7919) % 12_000) + 0.5 });
  }
  return JSON.stringify({ runId, branch: 'feature/load', commit: `c0ffee-${k % 4 === 3 ? k - 1 : k}`, isCi: true, status: 'success', durationMs: 60_000, testCases });
}

/**
 * POSTs a body encoded beforehand over node:http. The clients share the API's two cores: fetch cost
 * a verdict client about 2 ms of CPU per request, and encoded an upload's 9-MiB string inside its
 * timed request, CPU the API then lacked (real clients run elsewhere).
 */
export function postBody(url: string, headers: Record<string, string>, body: Buffer, agent?: Agent): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', ...(agent ? { agent } : {}), headers: { ...headers, 'content-length': body.length } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

// ---------------------------------------------------------------------------------------------

export function summarize(samples: number[]): { n: number; p50: number; p99: number; max: number; mean: number } {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
  return { n: s.length, p50: at(0.5), p99: at(0.99), max: s[s.length - 1]!, mean: s.reduce((a, b) => a + b, 0) / s.length };
}

export const ms = (x: number): string => `${x.toFixed(1)} ms`;
export const log = (line: string): void => void process.stdout.write(`${line}\n`);

/**
 * The API runs in the benchmark's own process: measure it with the Node flags the service starts
 * with (the shebang of verdict-api/bin/verdict-api.js). Without them, runs this script again with
 * them and exits with its code; returns when they are in effect.
 */
export function withServiceNodeFlags(): void {
  const bin = new URL('../verdict-api/bin/verdict-api.js', import.meta.url);
  const shebang = readFileSync(bin, 'utf8').split('\n', 1)[0]!;
  const flags = shebang.split(/\s+/).filter((w) => w.startsWith('--'));
  const have = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  if (flags.every((f) => have.includes(f))) return;
  const again = spawnSync(process.execPath, [...process.execArgv, ...flags, ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(again.status ?? 1);
}

/** Ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const USER_HZ = 100;

/**
 * User + system CPU time, in ms, of a process (`/proc/<pid>/stat`) or one of its threads
 * (`/proc/<pid>/task/<tid>/stat`), in 10-ms ticks; NaN where the file cannot be read.
 */
export function procCpuMs(statFile: string): number {
  try {
    const fields = readFileSync(statFile, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ;
  } catch {
    return Number.NaN;
  }
}

/** The machine's CPU time since boot, in ms over all cores: busy (neither idle nor waiting for I/O) and in all. */
export function machineCpuMs(): { busy: number; total: number } {
  const ticks = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = ticks.reduce((a, x) => a + x, 0);
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
  return { busy: ((total - idle) * 1000) / USER_HZ, total: (total * 1000) / USER_HZ };
}

/** The host check's work, run in a fresh process: SHA-1 and JSON of a fixed document, the median CPU of 5 tries in ms. */
const HOST_CHECK = `
const { createHash } = require('node:crypto');
const doc = JSON.stringify(Array.from({ length: 50000 }, (_, i) => ({ module: ':m' + (i % 7), suite: 'com.acme.S' + (i % 500), name: 'test_' + i + '()', durationMs: i % 997 })));
const tries = [];
for (let k = 0; k < 5; k++) {
  const c = process.cpuUsage();
  JSON.parse(doc);
  createHash('sha1').update(doc).update(doc).digest();
  const used = process.cpuUsage(c);
  tries.push((used.user + used.system) / 1000);
}
console.log(tries.sort((a, b) => a - b)[2]);`;

/**
 * The host's speed at this moment, as the CPU time a fresh Node process takes for a fixed piece
 * of work (a process of its own, so that this one's heap and threads do not count). On a shared
 * virtual machine the same code's figures move with it: comparing it between runs tells the host
 * from the change. NaN if the check could not run.
 */
export function hostCheckMs(): number {
  const check = spawnSync(process.execPath, ['-e', HOST_CHECK], { encoding: 'utf8' });
  return check.status === 0 ? Number(check.stdout.trim()) : Number.NaN;
}

/**
 * What creating a file costs on the file system the benchmarks' databases live in (tmpdir(), so
 * TMPDIR moves both), written the way ClickHouse writes a part: a directory, 30 files of 2 KiB in
 * it, then a rename. The CPU per file, in µs. ClickHouse 18.16 writes two files per column and a
 * few more for every part an insert or a merge makes, so where a file costs the kernel a tenth of
 * a millisecond or more, inserts and merges take several times what they take elsewhere. On this
 * sandbox's ext4 the cost moved between 100 and 1,400 µs within an hour (highest just after a
 * benchmark deleted a database's folder), against 15-30 µs on tmpfs.
 */
export function fileCreationUs(parts = 10, filesPerPart = 30): number {
  const dir = mkdtempSync(join(tmpdir(), 'stress-gate-file-check-'));
  try {
    const body = Buffer.alloc(2048, 120);
    const c = process.cpuUsage();
    for (let p = 0; p < parts; p++) {
      const part = join(dir, `tmp_${p}`);
      mkdirSync(part);
      for (let i = 0; i < filesPerPart; i++) writeFileSync(join(part, `${i}.bin`), body);
      renameSync(part, join(dir, `part_${p}`));
    }
    const used = process.cpuUsage(c);
    return (used.user + used.system) / (parts * filesPerPart);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The two checks of the host, printed at the start of a benchmark's run. */
export function hostChecks(): string {
  return `host check ${ms(hostCheckMs())} of CPU for a fixed piece of work, creating a file ${Math.round(fileCreationUs())} µs of CPU in ${tmpdir()} (a part's way) (lower is faster)`;
}
