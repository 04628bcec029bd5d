// Attack tests (issue 31, CLI token hygiene): where the CLI would send or show its verdict API
// token. Real Gradle and Maven builds, the real verdict API (embedded chDB) and, for a server named
// in the repository's settings file, a loopback server that records what it is sent.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { main, realDeps } from '../../src/cli.js';
import { secretFingerprint } from '../../src/jvm/secret-name.js';
import { gitlabCiEnv } from '../support/ci-env.js';
import { checkoutProject, writeTree } from '../support/fixture-project.js';
import { mavenExample, MVN_ARGS, warmMaven } from '../support/maven-project.js';
import { startVerdictApi, type VerdictApiProcess } from '../support/verdict-api-process.js';

const PROBE = 'app/src/test/java/com/shop/EnvProbeTest.java';
const PROBE_SOURCE = `package com.shop;
import org.junit.Test;
public class EnvProbeTest {
  // Appends what this JVM sees of the gate's token to a file: the attack of a merge request's test code.
  @Test public void readsTheEnvironment() throws Exception {
    java.nio.file.Path f = java.nio.file.Paths.get(System.getProperty("fixture.dir"), "env-probe.txt");
    String seen = System.getenv("STRESS_GATE_TOKEN") + "," + System.getenv("CI_JOB_TOKEN") + "," + System.getenv("GITLAB_TOKEN") + "," + System.getenv("GITHUB_TOKEN");
    java.nio.file.Files.write(f, (seen + "\\n").getBytes(), java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
  }
}
`;

let api: VerdictApiProcess;
let gradle: string;
let maven: string;
/** A server the repository's settings file names: it records every request's Authorization. */
let recorder: Server;
let recorderUrl: string;
const seenAuthorization: string[] = [];

beforeAll(async () => {
  await warmMaven();
  api = await startVerdictApi();
  gradle = await writeTree(checkoutProject());
  maven = await mavenExample();
  recorder = createServer((req, res) => {
    seenAuthorization.push(String(req.headers.authorization ?? ''));
    req.resume();
    req.on('end', () => res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":"NOT_FOUND","message":"no"}}'));
  });
  await new Promise<void>((r) => recorder.listen(0, '127.0.0.1', r));
  recorderUrl = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`;
}, 600_000);
afterAll(async () => {
  await api?.stop();
  await new Promise<void>((r) => recorder?.close(() => r()));
  await rm(gradle, { recursive: true, force: true });
  await rm(maven, { recursive: true, force: true });
});

/** Every file under `dir`, recursively (none when it does not exist). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

async function job(tool: 'gradle' | 'mvn', dir: string, args: string[], env: NodeJS.ProcessEnv) {
  // The fixture's flaky test counts its runs in this file: every job starts it afresh.
  await rm(path.join(dir, 'appliesDiscount.count'), { force: true });
  const out: string[] = [];
  const err: string[] = [];
  const code = await main([tool, ...args], { ...realDeps(env), cwd: dir, out: (t) => out.push(t), err: (t) => err.push(t) });
  const report = await readFile(path.join(dir, tool === 'gradle' ? 'build' : 'target', 'stress-gate/report.json'), 'utf8').catch(() => '');
  return { code, out: out.join(''), err: err.join(''), report };
}
const GRADLE_ARGS = ['--offline', '-q', ':app:cleanTest', ':app:test'];
// A Gradle daemon keeps the environment it started with: a daemon of an earlier run (with a token
// of another verdict API) would show that one. This test's builds start their own.
const FRESH_GRADLE_ARGS = ['--no-daemon', ...GRADLE_ARGS];

describe('the CLI and its token', () => {
  it('refuses to send its token over http:// to a server that is not on loopback', async () => {
    const env = { ...gitlabCiEnv('main', 'report', api), STRESS_GATE_URL: 'http://10.255.255.1:8080', STRESS_GATE_REQUEST_TIMEOUT_SECONDS: '1' };
    const r = await job('gradle', gradle, GRADLE_ARGS, env);
    process.stdout.write(`http to 10.255.255.1: exit ${r.code}; ${r.err.split('\n')[0]}\n`);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/STRESS_GATE_URL: .*https/);
    // Told so, it goes on.
    const allowed = await job('gradle', gradle, GRADLE_ARGS, { ...env, STRESS_GATE_ALLOW_HTTP: '1' });
    expect(allowed.code).toBe(0);
  }, 300_000);

  it('never prints the user and password of a server URL', async () => {
    const withUserinfo = api.url.replace('http://', 'http://ci-user:hunter2@');
    const r = await job('gradle', gradle, GRADLE_ARGS, { ...gitlabCiEnv('main', 'report', api), STRESS_GATE_URL: withUserinfo });
    expect(`${r.out}\n${r.err}\n${r.report}`).not.toContain('hunter2');
    expect(r.err).toMatch(/STRESS_GATE_URL/);
  }, 300_000);

  it("does not pass the gate's token or the CI system's into the build's or the test JVMs' environment, unless the job keeps one", async () => {
    const history = await job('gradle', gradle, FRESH_GRADLE_ARGS, gitlabCiEnv('main', 'report', api));
    expect(history.code).toBe(0);
    await writeFile(path.join(gradle, PROBE), PROBE_SOURCE);
    const ciCredentials = { CI_JOB_TOKEN: 'glcbt-the-job-token', GITLAB_TOKEN: 'glpat-the-api-token', GITHUB_TOKEN: 'ghs_the-actions-token' };
    const probe = async (extra: NodeJS.ProcessEnv) => {
      await rm(path.join(gradle, 'env-probe.txt'), { force: true });
      const r = await job('gradle', gradle, FRESH_GRADLE_ARGS, { ...gitlabCiEnv('feature/probe', 'report', api), ...ciCredentials, ...extra });
      expect(r.code).toBe(0);
      return (await readFile(path.join(gradle, 'env-probe.txt'), 'utf8')).trim().split('\n');
    };
    const seen = await probe({});
    process.stdout.write(`the probe ran in ${seen.length} JVMs (first pass and stress pass); it saw: ${JSON.stringify([...new Set(seen)].map((s) => s.replace(api.token, '<the token>')))}\n`);
    expect(seen.length).toBeGreaterThan(5);
    expect([...new Set(seen)]).toEqual(['null,null,null,null']);
    // A build that needs the job token (packages read with it) keeps it by name; nothing else comes back.
    const kept = await probe({ STRESS_GATE_BUILD_ENV_KEEP: 'CI_JOB_TOKEN' });
    expect([...new Set(kept)]).toEqual(['null,glcbt-the-job-token,null,null']);
    // The repetitions' own logs stay in build/stress-gate (CI jobs archive the build folder): the
    // kept token is named by its fingerprint there, and no file of the project holds its value
    // (but the probe's own).
    const holding = (await filesUnder(gradle)).filter((f) => !f.endsWith('env-probe.txt')).filter((f) => readFileSync(f).includes('glcbt-the-job-token'));
    expect(holding).toEqual([]);
    const jvmLines = (await filesUnder(path.join(gradle, 'build/stress-gate/repetitions'))).map((f) => readFileSync(f, 'utf8').split('\n')).flat().filter((l) => l.startsWith('{"event":"jvm"'));
    process.stdout.write(`${jvmLines.length} repetition JVMs described themselves; the files that hold the kept token's value: ${holding.length}\n`);
    // A target's first repetition JVM describes itself (later ones of the same JVM are not asked to): one at least per target.
    const targets = await readdir(path.join(gradle, 'build/stress-gate/repetitions'));
    expect(targets.length).toBeGreaterThan(0);
    expect(jvmLines.length).toBeGreaterThanOrEqual(targets.length);
    for (const line of jvmLines) expect((JSON.parse(line) as { secretEnvironment: Record<string, string> }).secretEnvironment['CI_JOB_TOKEN']).toBe(secretFingerprint('glcbt-the-job-token'));
    await rm(path.join(gradle, PROBE), { force: true });
  }, 300_000);

  it("does not send its token to a server named only in the repository's settings file", async () => {
    await mkdir(path.join(maven, '.mvn'), { recursive: true });
    await writeFile(path.join(maven, '.mvn', 'stress-gate.properties'), `serverUrl=${recorderUrl}\nproject=demo\n`);
    const env: NodeJS.ProcessEnv = { ...gitlabCiEnv('main', 'report', api), STRESS_GATE_TOKEN: 'sg_the-secret-token' };
    delete env['STRESS_GATE_URL'];
    delete env['STRESS_GATE_PROJECT'];
    seenAuthorization.length = 0;
    const r = await job('mvn', maven, [...MVN_ARGS, 'clean', 'test'], env);
    process.stdout.write(`settings-file server: exit ${r.code}; it was sent ${JSON.stringify(seenAuthorization)}\n`);
    expect(seenAuthorization.filter((a) => a.includes('the-secret-token'))).toEqual([]);
    expect(r.err).toMatch(/stress-gate\.properties/);
    // Confirmed by the user (an environment variable the repository cannot set), it is used.
    seenAuthorization.length = 0;
    await job('mvn', maven, [...MVN_ARGS, 'clean', 'test'], { ...env, STRESS_GATE_TRUST_SETTINGS_URL: '1' });
    expect(seenAuthorization.some((a) => a.includes('the-secret-token'))).toBe(true);
  }, 300_000);
});
