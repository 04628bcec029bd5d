// Attack test (issue 31): a quarantined test marked skip is kept out of the first pass by a test
// filter the CLI writes: Surefire's excludes file (one pattern a line) or the Gradle plugin's skip
// list (Gradle's exclude patterns, where * is a wildcard). A skipped identity holding a newline
// or a wildcard wrote a pattern that excludes every test. Real verdict API, real Maven, real Gradle.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { main, realDeps } from '../../src/cli.js';
import type { BuildRunner } from '../../src/build-tool/run-build.js';
import { gitlabCiEnv } from '../support/ci-env.js';
import { checkoutProject, writeTree } from '../support/fixture-project.js';
import { mavenExample, MVN_ARGS, warmMaven } from '../support/maven-project.js';
import { startVerdictApi, type VerdictApiProcess } from '../support/verdict-api-process.js';

let api: VerdictApiProcess;
let maven: string;
let gradle: string;

beforeAll(async () => {
  await warmMaven();
  api = await startVerdictApi();
  maven = await mavenExample();
  gradle = await writeTree(checkoutProject());
}, 600_000);
afterAll(async () => {
  await api?.stop();
  await rm(maven, { recursive: true, force: true });
  await rm(gradle, { recursive: true, force: true });
});

async function quarantine(module: string, suite: string, name: string) {
  const res = await fetch(`${api.url}/api/v1/projects/${api.project}/quarantine`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api.admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({ module, suite, name, state: 'skipped', owner: 'mallory', reason: 'looks harmless' }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { testCaseId: string }).testCaseId;
}
const unquarantine = (id: string) => fetch(`${api.url}/api/v1/projects/${api.project}/quarantine/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${api.admin}` } });

/** One CI job in-process, with Gradle's or Maven's runner spied on: the filter file it is given is read as the build starts. */
async function ciJob(tool: 'gradle' | 'mvn', dir: string, args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const filters: string[] = [];
  const deps = realDeps(gitlabCiEnv('main', 'report', api));
  const spy: BuildRunner = async (executable, runArgs, options) => {
    for (const a of runArgs) {
      const file = /^-(?:PstressGate\.skip|Dsurefire\.excludesFile)=(.*)$/.exec(a)?.[1];
      if (file) filters.push(await readFile(file, 'utf8'));
    }
    return deps.runBuild(executable, runArgs, options);
  };
  const code = await main([tool, ...args], { ...deps, runBuild: spy, cwd: dir, out: (t) => out.push(t), err: (t) => err.push(t) });
  const reportDir = tool === 'gradle' ? 'build' : 'target';
  const report = JSON.parse(await readFile(path.join(dir, reportDir, 'stress-gate/report.json'), 'utf8')) as { runId: string };
  const page = (await (await fetch(`${api.url}/api/v1/projects/${api.project}/runs/${report.runId}`, { headers: { authorization: `Bearer ${api.token}` } })).json()) as { testCases?: unknown[] };
  return { code, out: out.join(''), err: err.join(''), filters, ran: page.testCases?.length ?? 0 };
}

describe('skipped identities are checked before a test filter is written', () => {
  it('Maven: a class name holding a newline and **/* does not exclude every test', async () => {
    const id = await quarantine(':app', 'dev.stressgate.example.app.Nothing\n**/*\nx', 'm');
    try {
      const job = await ciJob('mvn', maven, [...MVN_ARGS, 'clean', 'test']);
      process.stdout.write(`maven: ${job.ran} tests ran; excludes file(s): ${JSON.stringify(job.filters)}\n`);
      expect(job.filters.join('\n')).not.toMatch(/^\*\*\/\*$/m);
      expect(job.ran).toBeGreaterThan(5);
      expect(job.err).toMatch(/cannot be kept out of the build/);
    } finally {
      await unquarantine(id);
    }
  }, 600_000);

  it('Gradle: a class name or method name holding * is not written into the skip list', async () => {
    const ids = [await quarantine(':app', '*', '*'), await quarantine(':app', 'com.shop.CheckoutTest', 'clears*')];
    try {
      const job = await ciJob('gradle', gradle, ['--offline', '-q', ':app:cleanTest', ':app:test']);
      process.stdout.write(`gradle: ${job.ran} tests ran; skip list(s): ${JSON.stringify(job.filters)}\n`);
      expect(job.filters.join('')).not.toContain('*');
      expect(job.ran).toBeGreaterThan(0);
      expect(job.err).toMatch(/cannot be kept out of the build/);
    } finally {
      for (const id of ids) await unquarantine(id);
    }
  }, 600_000);
});
