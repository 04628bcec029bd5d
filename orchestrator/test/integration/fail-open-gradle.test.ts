// The gate's faults through real Gradle (Debian's 4.4.1) and the real CLI process, against a fake
// verdict API: a repetition JVM that dies running a candidate blocks in enforce (it is the test
// failing); a cancelled CI job (SIGINT or SIGTERM, in the first pass and in the stress pass)
// stops Gradle, writes the report as cancelled, removes the temp folder and exits 130 or 143.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { access, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { main, realDeps } from '../../src/cli.js';
import { cannedVerdict, startFakeVerdictServer, type FakeVerdictServer } from '../support/fake-verdict-server.js';
import { writeTree } from '../support/fixture-project.js';

const BIN = fileURLToPath(new URL('../../bin/stress-orchestrator.js', import.meta.url));
const JUNIT = "files('/usr/share/java/junit4.jar', '/usr/share/java/hamcrest-core.jar')";
let server: FakeVerdictServer;
let dir: string;

/** :app's FaultTest: `exits` kills its JVM in every run after the first pass; `sleeps` waits in the pass named in sleep-on. */
function faultProject(): Record<string, string> {
  return {
    'settings.gradle': "rootProject.name = 'faults'\ninclude 'app'\n",
    'build.gradle': '',
    'app/build.gradle': `apply plugin: 'java'
dependencies { testCompile ${JUNIT} }
test { systemProperty 'fixture.dir', rootProject.projectDir.absolutePath }
`,
    'app/src/test/java/com/shop/FaultTest.java': `package com.shop;
import org.junit.Test;
import java.io.File;
import java.nio.file.Files;
public class FaultTest {
  static int bump(String name) throws Exception {
    File f = new File(System.getProperty("fixture.dir"), name + ".count");
    int n = f.exists() ? Integer.parseInt(new String(Files.readAllBytes(f.toPath())).trim()) : 0;
    Files.write(f.toPath(), String.valueOf(n + 1).getBytes());
    return n;
  }
  @Test public void exits() throws Exception { if (bump("exits") > 0) System.exit(3); }
  @Test public void sleeps() throws Exception {
    int n = bump("sleeps");
    File mode = new File(System.getProperty("fixture.dir"), "sleep-on");
    String on = mode.exists() ? new String(Files.readAllBytes(mode.toPath())).trim() : "never";
    if (on.equals("first") && n == 0 || on.equals("stress") && n > 0) {
      Files.write(new File(System.getProperty("fixture.dir"), "sleeping").toPath(), new byte[0]);
      Thread.sleep(120_000);
    }
  }
}
`,
  };
}

beforeAll(async () => {
  dir = await writeTree(faultProject());
  server = await startFakeVerdictServer((posted) => cannedVerdict(posted, (p) => p.suite === 'com.shop.FaultTest'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function reset(sleepOn: 'never' | 'first' | 'stress') {
  for (const f of ['exits.count', 'sleeps.count', 'sleeping']) await rm(path.join(dir, f), { force: true });
  await import('node:fs/promises').then((fs) => fs.writeFile(path.join(dir, 'sleep-on'), sleepOn));
}

const baseEnv = () => ({ ...process.env, STRESS_GATE_URL: server.url, STRESS_GATE_PROJECT: 'shop', STRESS_GATE_TOKEN: 'secret', STRESS_GATE_LOG_LEVEL: 'warn', GITHUB_STEP_SUMMARY: '' });

describe('faults through real Gradle', () => {
  it.each(['direct', 'gradle'])('%s executor: a repetition JVM that died running a candidate (System.exit) is that candidate failing, and blocks in enforce', async (executor) => {
    await reset('never');
    const out: string[] = [];
    const code = await main(['gradle', '--offline', '-q', ':app:cleanTest', ':app:test', '--stress-new-tests', 'enforce'], {
      ...realDeps({ ...baseEnv(), STRESS_GATE_EXECUTOR: executor }),
      cwd: dir,
      out: (t) => out.push(t),
      err: () => undefined,
    });
    const report = JSON.parse(await readFile(path.join(dir, 'build/stress-gate/report.json'), 'utf8'));
    expect(code).toBe(1);
    const exits = report.candidates.find((c: { name: string }) => c.name === 'exits');
    // The direct executor's runner logs "started" inside the JVM before the test runs, so every
    // death is seen. Under the Gradle executor the daemon hears "started" from the worker over a
    // socket, and a worker that exits at once can die before that message leaves it: such a
    // repetition is absent (never passed), and the line says "N of 10 repetitions".
    const died = exits.recorded.length;
    if (executor === 'direct') expect(died).toBe(10);
    else expect(died).toBeGreaterThanOrEqual(5);
    expect(exits).toMatchObject({ outcome: 'failed', crashed: died, failures: died, expected: 10 });
    expect(exits.recorded.every((r: { status: string; crashed?: boolean }) => r.status === 'failure' && r.crashed)).toBe(true);
    expect(exits.recorded[2]).toMatchObject({ status: 'failure', durationMs: 0, crashed: true });
    const ran = died === 10 ? '10 repetitions' : `${died} of 10 repetitions`;
    expect(out.join('')).toContain(`FaultTest.exits    ${ran}, ${died} failed (its JVM died ${died} times)`);
    expect(report).toMatchObject({ outcome: 'failed', blocked: true });
  }, 180_000);

  it.each([
    ['SIGTERM', 'first', 143],
    ['SIGINT', 'stress', 130],
  ] as const)('%s during the %s pass: Gradle cancelled, report "cancelled", temp folder removed, exit %i', async (signal, pass, exitCode) => {
    await reset(pass);
    const tmp = await mkdtemp(path.join(os.tmpdir(), 'stress-gate-signal-'));
    const child = spawn(process.execPath, [BIN, 'gradle', '--offline', '-q', ':app:cleanTest', ':app:test', '--stress-new-tests', 'enforce'], {
      cwd: dir,
      env: { ...baseEnv(), TMPDIR: tmp },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const deadline = Date.now() + 120_000;
    while (!(await access(path.join(dir, 'sleeping')).then(() => true, () => false))) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the test never started sleeping: ${stdout}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const sentAt = Date.now();
    child.kill(signal);
    expect(await exited).toBe(exitCode);
    // Gradle was told to cancel: the 120 s sleep did not have to end first.
    expect(Date.now() - sentAt).toBeLessThan(60_000);
    const report = JSON.parse(await readFile(path.join(dir, 'build/stress-gate/report.json'), 'utf8'));
    expect(report).toMatchObject({ outcome: 'cancelled', stop: { kind: 'cancelled', signal }, exitCode, blocked: false });
    expect(stdout).toContain(`Cancelled by ${signal}`);
    expect((await readdir(tmp)).filter((n) => n.startsWith('stress-gate-'))).toEqual([]);
    await rm(tmp, { recursive: true, force: true });
  }, 180_000);
});
