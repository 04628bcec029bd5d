// The gate as a user installs it: `npm pack` of both packages, `npm install` of the two tarballs
// into a Gradle build outside this repository (its own git history, no settings block, JUnit 4
// from Debian's jars), then `npx verdict-api demo` and `npx stress-orchestrator` from that
// install. Real npm, real Gradle 4.4.1, the real verdict API; nothing points into this checkout.
// Needs the builds and the plugin jar (`make install`; the pack's prepack rebuilds the rest).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execa } from 'execa';
import { access, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { packageRoot } from '../../src/base/package-root.js';
import { checkoutProject, writeTree } from '../support/fixture-project.js';
import { startVerdictApi, type VerdictApiProcess } from '../support/verdict-api-process.js';

const REPO = path.resolve(packageRoot(), '..');
const CHECKOUT = 'app/src/test/java/com/shop/CheckoutTest.java';

let packDir: string;
let dir: string;
let api: VerdictApiProcess;

/**
 * The environment of a user's shell: no npm lifecycle variables (npm_config_local_prefix would
 * point npm at this repository), no CI variables of whoever runs this suite, and no PATH entry
 * inside this checkout (such as its node_modules/.bin).
 */
function userEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const key of ['HOME', 'JAVA_HOME', 'LANG', 'TMPDIR', 'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy']) {
    if (process.env[key] !== undefined) env[key] = process.env[key];
  }
  env['PATH'] = (process.env['PATH'] ?? '')
    .split(path.delimiter)
    .filter((p) => p !== '' && path.resolve(p) !== REPO && !path.resolve(p).startsWith(REPO + path.sep))
    .join(path.delimiter);
  return { ...env, ...extra };
}

async function git(...args: string[]): Promise<void> {
  await execa('git', ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, env: userEnv() });
}

beforeAll(async () => {
  const started = Date.now();
  packDir = await mkdtemp(path.join(os.tmpdir(), 'stress-gate-pack-'));
  await execa('npm', ['pack', '-w', 'orchestrator', '-w', 'verdict-api', '--pack-destination', packDir], { cwd: REPO });
  const tarballs = (await readdir(packDir)).filter((f) => f.endsWith('.tgz')).map((f) => path.join(packDir, f));
  expect(tarballs).toHaveLength(2);

  // The user's repository: the checkout fixture without CheckoutTest, which the feature branch adds.
  const tree = checkoutProject();
  delete tree[CHECKOUT];
  tree['.gitignore'] = 'node_modules/\nbuild/\n.gradle/\n*.count\n';
  tree['package.json'] = `${JSON.stringify({ name: 'shop', private: true }, null, 2)}\n`;
  dir = await writeTree(tree, 'stress-gate-user-');
  // --prefer-offline: dependencies come from the local npm cache when it has them.
  await execa('npm', ['install', '--save-dev', '--prefer-offline', '--no-audit', '--no-fund', ...tarballs], { cwd: dir, env: userEnv() });
  await git('init', '-q', '-b', 'main');
  await git('add', '.');
  await git('commit', '-q', '-m', 'Shop with a cart');
  process.stderr.write(`pack + install: ${Date.now() - started} ms\n`);

  api = await startVerdictApi({ command: ['npx', '--no-install', 'verdict-api'], cwd: dir, env: userEnv() });
}, 240_000);

afterAll(async () => {
  await api?.stop();
  await rm(packDir, { recursive: true, force: true });
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** One CI job (generic `CI=true`: branch and commit come from git) running the installed CLI. */
async function ciJob(mode: string) {
  await rm(path.join(dir, 'appliesDiscount.count'), { force: true });
  const env = userEnv({ CI: 'true', STRESS_GATE_URL: api.url, STRESS_GATE_PROJECT: api.project, STRESS_GATE_TOKEN: api.token, STRESS_GATE_LOG_LEVEL: 'warn' });
  const started = Date.now();
  const r = await execa('npx', ['--no-install', 'stress-orchestrator', 'gradle', '--offline', '-q', ':app:cleanTest', ':app:test', '--stress-new-tests', mode], { cwd: dir, env, reject: false });
  const report = JSON.parse(await readFile(path.join(dir, 'build/stress-gate/report.json'), 'utf8'));
  process.stderr.write(`$ npx stress-orchestrator gradle … --stress-new-tests ${mode}  (${Date.now() - started} ms, exit ${r.exitCode})\n${r.stdout}\n`);
  return { code: r.exitCode, out: r.stdout, err: r.stderr, report };
}

async function getRun(runId: string) {
  const res = await fetch(`${api.url}/api/v1/projects/${api.project}/runs/${runId}`, { headers: { Authorization: `Bearer ${api.token}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as { branch: string; isCi: boolean; testCases: { suite: string; name: string; isNew: boolean }[] };
}

describe('installed from the packed tarballs into a Gradle build outside the repository', () => {
  it('carries everything the CLI needs at run time, and not the verdict API', async () => {
    const cli = path.join(dir, 'node_modules/@stress-gate/orchestrator');
    const pkg = JSON.parse(await readFile(path.join(cli, 'package.json'), 'utf8'));
    expect(Object.keys(pkg.dependencies)).not.toContain('@stress-gate/verdict-api');
    expect(Object.keys(pkg.dependencies)).not.toContain('chdb');
    expect((await readdir(path.join(cli, 'gradle-plugin'))).sort()).toEqual(['stress-gate-gradle-plugin.jar', 'stress-gate.init.gradle']);
    // Both build tools: the JVM runner (and JUnit Platform listener), and Maven's fork agent.
    expect((await readdir(path.join(cli, 'jvm-runner/target'))).sort()).toEqual(['stress-gate-jvm-runner-agent.jar', 'stress-gate-jvm-runner.jar']);
    expect((await readdir(path.join(dir, 'node_modules/@stress-gate/verdict-api/migrations'))).length).toBeGreaterThan(0);
  });

  it("ships the types its exports name: a TypeScript consumer of the verdict API's contract compiles", async () => {
    const api = path.join(dir, 'node_modules/@stress-gate/verdict-api');
    const pkg = JSON.parse(await readFile(path.join(api, 'package.json'), 'utf8')) as { exports: Record<string, { types: string }> };
    for (const [subpath, { types }] of Object.entries(pkg.exports)) {
      // TypeScript alone would fall back to the .d.ts beside `default`; other tools do not.
      expect({ subpath, types, shipped: await access(path.join(api, types)).then(() => true, () => false) }).toEqual({ subpath, types, shipped: true });
    }
    await writeFile(
      path.join(dir, 'uses-contract.mts'),
      [
        "import { RunUpload, type VerdictResponse } from '@stress-gate/verdict-api/contract';",
        "import { testCaseId } from '@stress-gate/verdict-api/identity';",
        "export const id: string = testCaseId('project', { module: ':app', suite: 'S', name: 'n' });",
        'export const answer: VerdictResponse | null = null;',
        'export { RunUpload };',
        '',
      ].join('\n'),
    );
    const tsc = path.join(REPO, 'node_modules/typescript/bin/tsc');
    const flags = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext'];
    const r = await execa(process.execPath, [tsc, ...flags, 'uses-contract.mts'], { cwd: dir, env: userEnv(), reject: false });
    await rm(path.join(dir, 'uses-contract.mts'));
    expect(`${r.stdout}${r.stderr}`).toBe('');
    expect(r.exitCode).toBe(0);
  }, 60_000);

  it('uploads the default branch history from a CI job on main', async () => {
    const r = await ciJob('enforce');
    expect(r.code).toBe(0);
    expect(r.report).toMatchObject({ outcome: 'no_candidates', exitCode: 0 });
    const run = await getRun(r.report.runId);
    expect(run).toMatchObject({ branch: 'main', isCi: true });
    expect(run.testCases.map((t) => `${t.suite}.${t.name}`)).toEqual(['com.shop.CartTest.existing']);
  }, 120_000);

  it('on a feature branch that adds a flaky test: report mode exits 0, enforce mode catches it and exits 1', async () => {
    await git('checkout', '-q', '-b', 'feature/checkout');
    await writeFile(path.join(dir, CHECKOUT), checkoutProject()[CHECKOUT]!);
    await git('add', '.');
    await git('commit', '-q', '-m', 'Checkout, with a flaky discount test');

    const report = await ciJob('report');
    expect(report.code).toBe(0);
    expect(report.out).toContain('  :app CheckoutTest.appliesDiscount   10 repetitions, 2 failed\n');
    expect(report.out.replace(/\n {3}/g, ' ')).toContain('would have blocked this merge request.');
    expect((await getRun(report.report.runId)).branch).toBe('feature/checkout');

    const enforce = await ciJob('enforce');
    expect(enforce.code).toBe(1);
    expect(enforce.out.replace(/\n {3}/g, ' ')).toContain(' ! CheckoutTest.appliesDiscount failed 2 of 10 repetitions and blocked this merge request.');
    expect(enforce.report).toMatchObject({ mode: 'enforce', outcome: 'failed', blocked: true, exitCode: 1 });
  }, 240_000);
});
