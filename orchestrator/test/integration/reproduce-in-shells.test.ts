// The printed reproduce command, pasted where an author stands: `npm pack` of the orchestrator,
// installed as the scoped package into a Gradle project outside this repository (the unscoped name
// `stress-orchestrator` is nowhere), and a test whose name is hostile to shells (a JUnit 4
// Parameterized invocation named with ', \, $, a backtick, double quotes and spaces) that fails
// every other run (a counter file, never luck). The CLI run from elsewhere (an agent's own install)
// prints `npx -p @stress-gate/orchestrator@<version> …`; run from the project's install it prints
// `npx --no …`. Each printed command, run as printed by sh and by fish, exits 1 on the flaky test.
// Real npm, real Gradle 4.4.1, JUnit 4 from Debian's jars; no server.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execa } from 'execa';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { packageRoot } from '../../src/base/package-root.js';
import { writeTree, lockedCounter } from '../support/fixture-project.js';

const REPO = path.resolve(packageRoot(), '..');
const VERSION = (JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
const JUNIT = "files('/usr/share/java/junit4.jar', '/usr/share/java/hamcrest-core.jar')";
/** The parameter that names the invocation: every character a shell might read. */
const HOSTILE_JAVA = 'it\'s a \\\\\' \\\\\\\\ $HOME `id` \\"q\\" ✓';
/** The same as JUnit names it (the Java literal above, unescaped). */
const HOSTILE = 'it\'s a \\\' \\\\ $HOME `id` "q" ✓';

let tmp: string;
let project: string;
let tools: string;

/** A user's environment: no npm lifecycle variables, no PATH entry inside this checkout; npm never goes online. */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const key of ['HOME', 'JAVA_HOME', 'LANG', 'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy']) {
    if (process.env[key] !== undefined) env[key] = process.env[key];
  }
  env['PATH'] = (process.env['PATH'] ?? '')
    .split(path.delimiter)
    .filter((p) => p !== '' && path.resolve(p) !== REPO && !path.resolve(p).startsWith(REPO + path.sep))
    .join(path.delimiter);
  // A missing package fails at once rather than being fetched (npx installs without asking when stdin is not a terminal).
  return { ...env, TMPDIR: tmp, npm_config_offline: 'true', npm_config_update_notifier: 'false' };
}

const counter = () => rm(path.join(project, 'flips.count'), { force: true });

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'stress-gate-reproduce-'));
  const packDir = await mkdtemp(path.join(tmp, 'pack-'));
  await execa('npm', ['pack', '-w', 'orchestrator', '--pack-destination', packDir], { cwd: REPO });
  const tarball = path.join(packDir, (await readdir(packDir)).find((f) => f.endsWith('.tgz'))!);

  project = await writeTree(
    {
      'settings.gradle': "rootProject.name = 'shop'\n",
      'build.gradle': `apply plugin: 'java'
dependencies { testCompile ${JUNIT} }
test { systemProperty 'fixture.dir', rootProject.projectDir.absolutePath }
`,
      'src/test/java/shop/FlipTest.java': `package shop;
import java.util.Arrays;
import java.util.Collection;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;
import static org.junit.Assert.assertTrue;
@RunWith(Parameterized.class)
public class FlipTest {${lockedCounter('new java.io.File(System.getProperty("fixture.dir"), name + ".count")')}
  @Parameters(name = "{index}: {0}")
  public static Collection<Object[]> data() { return Arrays.asList(new Object[][] { { "${HOSTILE_JAVA}" } }); }
  private final String word;
  public FlipTest(String word) { this.word = word; }
  /** Passes the first run (the build's), then fails every other one. */
  @Test public void flips() throws Exception { int n = bump("flips"); assertTrue("run " + n + " of " + word, n % 2 == 0); }
}
`,
      'package.json': `${JSON.stringify({ name: 'shop', private: true }, null, 2)}\n`,
    },
    'stress-gate-reproduce-project-',
  );
  // The CI agent's own tools, outside the project.
  tools = await writeTree({ 'package.json': '{ "name": "agent-tools", "private": true }\n' }, 'stress-gate-agent-tools-');
  for (const dir of [project, tools]) {
    await execa('npm', ['install', '--save-dev', '--prefer-offline', '--no-audit', '--no-fund', tarball], { cwd: dir, env: { ...userEnv(), npm_config_offline: undefined } });
  }
}, 300_000);

afterAll(async () => {
  for (const dir of [project, tools]) if (dir) await rm(dir, { recursive: true, force: true });
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** Runs the CLI at `bin` in the project on the flaky invocation; returns the command it printed. */
async function printedBy(bin: string): Promise<string> {
  await counter();
  const r = await execa(bin, ['gradle', '--offline', '-q', 'cleanTest', 'test', '--stress-tests', 'shop.FlipTest.*', '--repetitions', '4'], { cwd: project, env: userEnv(), extendEnv: false, reject: false, stdin: 'ignore' });
  expect({ code: r.exitCode, out: r.stdout, err: r.stderr.slice(-2000) }).toMatchObject({ code: 1 });
  const lines = r.stdout.split('\n');
  const command = lines[lines.indexOf('   Reproduce:') + 1]!.replace(/^ {5}/, '');
  const report = JSON.parse(await readFile(path.join(project, 'build/stress-gate/report.json'), 'utf8')) as { candidates: { name: string; reproduce?: string }[] };
  expect(report.candidates.map((c) => c.name)).toEqual([`flips[0: ${HOSTILE}]`]);
  expect(report.candidates[0]!.reproduce).toBe(command);
  process.stderr.write(`printed: ${command}\n`);
  return command;
}

/** Runs `command` as pasted into `shell` in the project (counter reset: the build's run passes). */
async function pasted(shell: 'sh' | 'fish', command: string) {
  await counter();
  const args = shell === 'fish' ? ['--no-config', '-c', command] : ['-c', command];
  const r = await execa(shell, args, { cwd: project, env: userEnv(), extendEnv: false, reject: false, stdin: 'ignore' });
  return { code: r.exitCode, out: r.stdout, err: r.stderr.slice(-2000) };
}

describe('the printed reproduce command, pasted into sh and fish where only the scoped package is installed', () => {
  it('run by an install outside the project: the scoped package at its version; exits 1 on the flaky test in sh and in fish', async () => {
    const command = await printedBy(path.join(tools, 'node_modules/.bin/stress-orchestrator'));
    expect(command.startsWith(`npx -p @stress-gate/orchestrator@${VERSION} stress-orchestrator gradle --stress-tests `)).toBe(true);
    expect(command.endsWith(' --repetitions 4 -- --offline -q cleanTest test')).toBe(true);
    for (const shell of ['sh', 'fish'] as const) {
      const r = await pasted(shell, command);
      expect({ shell, ...r }).toMatchObject({ shell, code: 1, out: expect.stringContaining('Stress-testing tests\n  1 test case, 1 stressed, 0 excluded\n') });
      expect(r.out).toMatch(/FlipTest\.flips\[0: .*\] +\d+ repetitions, [1-9]\d* failed/);
    }
  }, 600_000);

  it("run from the project's own install: npx --no; exits 1 on the flaky test in sh and in fish", async () => {
    const command = await printedBy(path.join(project, 'node_modules/.bin/stress-orchestrator'));
    expect(command.startsWith('npx --no stress-orchestrator gradle --stress-tests ')).toBe(true);
    for (const shell of ['sh', 'fish'] as const) {
      const r = await pasted(shell, command);
      expect({ shell, code: r.code, err: r.err }).toMatchObject({ shell, code: 1 });
      expect(r.out).toContain('1 test case, 1 stressed, 0 excluded');
    }
  }, 600_000);
});
