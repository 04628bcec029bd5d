// Starts the real verdict API (`verdict-api demo`: embedded chDB, entitled demo account, project
// "demo", a CI token and an admin credential) as a child process on a free loopback port.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/verdict-api.js', import.meta.url));

export interface DemoServer {
  url: string;
  project: string;
  token: string;
  admin: string;
  /** The server process's id (the body attack tests read its memory from /proc). */
  pid: number;
  /** Every key of the env file the demo wrote (with several `projects`, each one's STRESS_GATE_DEMO_<HANDLE>_… keys). */
  vars: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * Starts `verdict-api demo`; `env` is added to the child's environment. `descriptors` sets the
 * process's open-file limit (soft and hard, through prlimit, which execs: the pid is the server's).
 */
export async function startDemoServer(env: Record<string, string> = {}, options: { descriptors?: number; projects?: string[] } = {}): Promise<DemoServer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'stress-gate-dashboard-'));
  const envFile = path.join(dir, 'api.env');
  const command = [process.execPath, BIN, 'demo', '--write-env', envFile, ...(options.projects ?? []).flatMap((h) => ['--project', h])];
  if (options.descriptors !== undefined) command.unshift('prlimit', `--nofile=${options.descriptors}:${options.descriptors}`, '--');
  const child: ChildProcess = spawn(command[0]!, command.slice(1), {
    env: { ...process.env, ...env, VERDICT_API_PORT: '0', STRESS_GATE_DATA_DIR: path.join(dir, 'chdb'), LOG_LEVEL: 'warn', CLICKHOUSE_URL: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const deadline = Date.now() + 60_000;
  let text = '';
  // Whole: the admin credential, the last line, and with several projects each one's keys.
  const own = (options.projects ?? []).length > 1 ? options.projects! : [];
  const whole = (t: string) => t.includes('STRESS_GATE_ADMIN_TOKEN=') && t.endsWith('\n') && own.every((h) => t.includes(`_PROJECT=${h}\n`));
  while (!whole(text)) {
    if (child.exitCode !== null) throw new Error(`verdict-api demo exited with ${child.exitCode}: ${stderr}`);
    if (Date.now() > deadline) throw new Error(`verdict-api demo did not start within 60 s: ${stderr}`);
    await new Promise((r) => setTimeout(r, 200));
    text = await readFile(envFile, 'utf8').catch(() => '');
  }
  const vars = Object.fromEntries(text.trim().split('\n').map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]));
  return {
    url: vars['STRESS_GATE_URL']!,
    project: vars['STRESS_GATE_PROJECT']!,
    token: vars['STRESS_GATE_TOKEN']!,
    admin: vars['STRESS_GATE_ADMIN_TOKEN']!,
    pid: child.pid!,
    vars,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
