// `verdict-api demo --project H …`: one account with a project per handle, each with its own
// default-branch and merge-request tokens in the env file, a merge-request token minted over the
// running server with the admin credential (what scripts/demo.sh does per feature branch), and
// `demo` alone still one project "demo" under the keys every caller reads.
import { afterEach, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { startDemoServer, type DemoServer } from '../support/demo-server.js';

const BIN = fileURLToPath(new URL('../../bin/verdict-api.js', import.meta.url));
const run = promisify(execFile);

const started: DemoServer[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((d) => d.stop()));
});

async function startDemo(projects: string[]): Promise<DemoServer> {
  const demo = await startDemoServer({}, { projects });
  started.push(demo);
  return demo;
}

const get = (url: string, token: string) => fetch(url, { headers: { Authorization: `Bearer ${token}` } });
/** A CI token's first request: the verdict on one test case. */
const verdict = (url: string, handle: string, token: string) =>
  fetch(`${url}/api/v1/projects/${handle}/verdict`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ testCases: [{ module: ':app', suite: 'S', name: 'n', durationMs: 1 }] }),
  });

describe('verdict-api demo --project', () => {
  it('serves one project "demo" under the common keys when no --project is given', async () => {
    const { vars } = await startDemo([]);
    expect(Object.keys(vars).sort()).toEqual(
      ['STRESS_GATE_ADMIN_TOKEN', 'STRESS_GATE_DASHBOARD_URL', 'STRESS_GATE_MR_TOKEN', 'STRESS_GATE_PROJECT', 'STRESS_GATE_TOKEN', 'STRESS_GATE_URL'].sort(),
    );
    expect(vars['STRESS_GATE_PROJECT']).toBe('demo');
    expect((await get(`${vars['STRESS_GATE_URL']}/api/v1/projects/demo/settings`, vars['STRESS_GATE_ADMIN_TOKEN']!)).status).toBe(200);
  }, 90_000);

  it('serves a project per handle in one account, each with its own tokens, and mints merge-request tokens over the server', async () => {
    const { vars } = await startDemo(['demo-gradle', 'demo-maven']);
    const url = vars['STRESS_GATE_URL']!;
    const admin = vars['STRESS_GATE_ADMIN_TOKEN']!;
    expect(vars).toMatchObject({
      STRESS_GATE_PROJECT: 'demo-gradle',
      STRESS_GATE_TOKEN: vars['STRESS_GATE_DEMO_DEMO_GRADLE_TOKEN'],
      STRESS_GATE_MR_TOKEN: vars['STRESS_GATE_DEMO_DEMO_GRADLE_MR_TOKEN'],
      STRESS_GATE_DEMO_DEMO_GRADLE_PROJECT: 'demo-gradle',
      STRESS_GATE_DEMO_DEMO_MAVEN_PROJECT: 'demo-maven',
      STRESS_GATE_DEMO_DEMO_MAVEN_DASHBOARD_URL: `${url}/projects/demo-maven/runs`,
    });
    expect(vars['STRESS_GATE_DEMO_DEMO_MAVEN_TOKEN']).toMatch(/^sg_/);
    expect(vars['STRESS_GATE_DEMO_DEMO_MAVEN_MR_TOKEN']).toMatch(/^sgm_/);

    // One account: its admin credential reads both projects.
    for (const handle of ['demo-gradle', 'demo-maven']) expect((await get(`${url}/api/v1/projects/${handle}/settings`, admin)).status).toBe(200);
    // Each project's tokens are its own: the Maven project's token asks its verdict, not the Gradle project's.
    const mavenVerdict = await verdict(url, 'demo-maven', vars['STRESS_GATE_DEMO_DEMO_MAVEN_TOKEN']!);
    expect(mavenVerdict.status).toBe(200);
    expect(await mavenVerdict.json()).toMatchObject({ entitled: true });
    expect((await verdict(url, 'demo-gradle', vars['STRESS_GATE_DEMO_DEMO_MAVEN_TOKEN']!)).status).toBeGreaterThanOrEqual(400);
    expect((await verdict(url, 'demo-gradle', vars['STRESS_GATE_DEMO_DEMO_GRADLE_MR_TOKEN']!)).status).toBe(200);

    // scripts/demo.sh mints a merge-request token per feature branch this way, the server running.
    const { stdout } = await run(process.execPath, [BIN, 'admin', 'create-token', '--server', url, '--project', 'demo-maven', '--scope', 'merge-request', '--name', 'demo feature/greetings'], {
      env: { ...process.env, STRESS_GATE_ADMIN_TOKEN: admin, STRESS_GATE_OPERATOR_TOKEN: '' },
    });
    const minted = JSON.parse(stdout) as { project: string; token: string; scope: string };
    expect(minted).toMatchObject({ project: 'demo-maven', scope: 'merge-request' });
    expect(minted.token).toMatch(/^sgm_/);
    expect((await verdict(url, 'demo-maven', minted.token)).status).toBe(200);
  }, 90_000);

  it('refuses a handle given twice as a usage error', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'stress-gate-demo-projects-'));
    try {
      const failed = await run(process.execPath, [BIN, 'demo', '--project', 'a', '--project', 'a'], {
        env: { ...process.env, STRESS_GATE_DATA_DIR: join(dir, 'chdb'), CLICKHOUSE_URL: '', LOG_LEVEL: 'warn' },
      }).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failed).toMatchObject({ code: 2 });
      expect(failed?.stderr).toContain('demo: --project a is given twice');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
