// Shared by the Gradle benchmarks (bench-stress-pass, bench-overhead): paths, flags, child
// processes with a hard timeout, and small statistics.
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { flagMap, intFlag as intFlagOf } from './bench-util.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const CLI = join(ROOT, 'orchestrator/bin/stress-orchestrator.js');
export const API_BIN = join(ROOT, 'verdict-api/bin/verdict-api.js');
export const JAR = join(ROOT, 'gradle-plugin/build/libs/stress-gate-gradle-plugin.jar');
export const JUNIT_CP = ['/usr/share/java/junit4.jar', '/usr/share/java/hamcrest-core.jar'];
export const STEP_TIMEOUT_MS = 5 * 60_000; // every child process is killed after this

/** Flags as every benchmark reads them; the Gradle ones bound their integers (default 0..100). */
export const flags = flagMap;
export const intFlag = (m: Map<string, string>, name: string, fallback: number, max = 100): number => intFlagOf(m, name, fallback, max);

export const log = (line: string): void => void process.stdout.write(`${line}\n`);
export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n === 0 ? NaN : n % 2 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
};
export const sec = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
export const load = (): string => loadavg().map((l) => l.toFixed(2)).join(' ');

export interface Ran {
  code: number | null;
  ms: number;
  stdout: string;
  stderr: string;
}

/** Runs a command with a hard timeout; resolves with its exit code, wall time and output. */
/** Runs a command and resolves with its exit code, wall time and output; killed after `limitMs` (STEP_TIMEOUT_MS). */
export function run(cmd: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; limitMs?: number }): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.limitMs ?? STEP_TIMEOUT_MS);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, ms: performance.now() - t0, stdout, stderr });
    });
  });
}

export function check(r: Ran, what: string): Ran {
  if (r.code !== 0) throw new Error(`${what} exited with ${r.code}\n${r.stdout.slice(-2000)}\n${r.stderr.slice(-4000)}`);
  return r;
}


/** Wilson score interval at 95% for k successes of n. */
export function wilson(k: number, n: number, z = 1.96): [number, number] {
  if (n === 0) return [0, 1];
  const ph = k / n;
  const d = 1 + (z * z) / n;
  const centre = (ph + (z * z) / (2 * n)) / d;
  const half = (z * Math.sqrt((ph * (1 - ph)) / n + (z * z) / (4 * n * n))) / d;
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

export const pct = (x: number): string => (Number.isFinite(x) ? `${(x * 100).toFixed(0)}%` : '—');
export const range = ([a, b]: [number, number]): string => `${pct(a)}–${pct(b)}`;

/** Prints a Markdown table, its columns padded. */
export function table(head: string[], rows: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  log(line(head));
  log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) log(line(row));
}
