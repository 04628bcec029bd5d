import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BuildNotRunnableError } from '../base/errors.js';
import { silentLogger } from '../base/log.js';
import { runBuild } from './run-build.js';

// Real processes (bash) standing in for the build tool: how a build that answers SIGINT, one that
// ignores it, and a cancelled one end.
const dir = mkdtempSync(path.join(tmpdir(), 'run-build-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const options = { cwd: dir, env: { PATH: process.env.PATH }, output: { logFile: path.join(dir, 'build.log') }, logger: silentLogger() } as const;
const bash = (script: string) => ['-c', script];

describe('runBuild', () => {
  it("returns the build's exit code and writes its output to the log", async () => {
    const run = await runBuild('bash', bash('echo compiling; echo failing >&2; exit 3'), options);
    expect(run).toMatchObject({ exitCode: 3, interrupted: false, cancelled: false });
    expect(readFileSync(options.output.logFile, 'utf8')).toBe('compiling\nfailing\n');
  });

  it('interrupts a build at the ceiling with SIGINT, as Ctrl-C does: the build ends its own way', async () => {
    const run = await runBuild('bash', bash('trap "echo interrupted; exit 7" INT; sleep 30 >/dev/null 2>&1 & wait'), { ...options, deadlineMs: 300 });
    expect(run).toMatchObject({ exitCode: 7, interrupted: true, cancelled: false });
    expect(run.wallClockMs).toBeLessThan(10_000);
    expect(readFileSync(options.output.logFile, 'utf8')).toBe('interrupted\n');
  });

  it('kills a build that ignores SIGINT once twice the grace has passed', async () => {
    const run = await runBuild('bash', bash('trap "" INT; sleep 30 >/dev/null 2>&1 & wait; sleep 30 >/dev/null 2>&1'), { ...options, deadlineMs: 200, graceMs: 150 });
    expect(run).toMatchObject({ exitCode: 130, interrupted: true, cancelled: false });
    expect(run.wallClockMs).toBeLessThan(10_000);
  });

  it('stops a build when the CI job is cancelled, and says it was cancelled rather than interrupted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort('SIGTERM'), 200);
    const run = await runBuild('bash', bash('trap "exit 130" INT; sleep 30 >/dev/null 2>&1 & wait'), { ...options, deadlineMs: 60_000, signal: controller.signal });
    expect(run).toMatchObject({ exitCode: 130, interrupted: false, cancelled: true });
  });

  it('throws when the build tool cannot be started at all', async () => {
    await expect(runBuild(path.join(dir, 'no-such-tool'), [], options)).rejects.toThrow(BuildNotRunnableError);
  });
});
