// Starts the real verdict API (`verdict-api demo`: embedded chDB, an entitled demo account,
// project "demo", a fresh token) as a child process on a free loopback port: this checkout's
// bin by default, or another command (e.g. `npx verdict-api` in a folder that installed it).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../../verdict-api/bin/verdict-api.js', import.meta.url));

export interface VerdictApiProcess {
  url: string;
  project: string;
  token: string;
  /** The demo account's admin credential (settings, quarantine, webhooks, tokens). */
  admin: string;
  stop(): Promise<void>;
}

/** How to start it: `command` gets `demo --write-env FILE` appended; `env` replaces process.env. */
export interface VerdictApiCommand {
  command: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

export async function startVerdictApi(
  how: VerdictApiCommand = { command: [process.execPath, BIN] },
): Promise<VerdictApiProcess> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'stress-gate-api-'));
  const envFile = path.join(dir, 'api.env');
  const [file, ...args] = how.command;
  const child: ChildProcess = spawn(file!, [...args, 'demo', '--write-env', envFile], {
    cwd: how.cwd,
    // Webhooks go to the tests' receivers on loopback, which an operator allows so.
    env: { STRESS_GATE_WEBHOOK_ALLOW: '127.0.0.1/32', ...(how.env ?? process.env), VERDICT_API_PORT: '0', STRESS_GATE_DATA_DIR: path.join(dir, 'chdb'), LOG_LEVEL: 'warn', CLICKHOUSE_URL: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
    // Its own process group, so that stop() also ends the server behind a launcher such as npx.
    detached: true,
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const deadline = Date.now() + 60_000;
  let text = '';
  while (!text.includes('STRESS_GATE_TOKEN=')) {
    if (child.exitCode !== null) throw new Error(`verdict-api demo exited with ${child.exitCode}: ${stderr}`);
    if (Date.now() > deadline) throw new Error(`verdict-api demo did not start within 60 s: ${stderr}`);
    await new Promise((r) => setTimeout(r, 200));
    text = await readFile(envFile, 'utf8').catch(() => '');
  }
  const env = Object.fromEntries(text.trim().split('\n').map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]));
  return {
    url: env['STRESS_GATE_URL']!,
    project: env['STRESS_GATE_PROJECT']!,
    token: env['STRESS_GATE_TOKEN']!,
    admin: env['STRESS_GATE_ADMIN_TOKEN']!,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        process.kill(-child.pid!, 'SIGTERM');
        await exited;
      }
      // A launcher may exit before the server behind it has closed chDB: wait for the group.
      for (let i = 0; i < 100 && groupAlive(child.pid!); i++) await new Promise((r) => setTimeout(r, 100));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Sets the demo project's repetition curve to `repetitions` for every test up to 5 minutes:
 * integration tests that need the gate's behaviour, not its ten repetitions, run in less time.
 */
export async function useRepetitions(api: VerdictApiProcess, repetitions: number): Promise<void> {
  const res = await fetch(`${api.url}/api/v1/projects/${api.project}/settings`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${api.admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({ stress: { curve: [{ maxDurationMs: 300_000, bound: 'exclusive', repetitions }] } }),
  });
  if (!res.ok) throw new Error(`setting the curve failed: ${res.status} ${await res.text()}`);
}
