// The order probe through real parts: real Gradle 4.4 (JUnit 4 and TestNG), the real CLI process
// and the real verdict API, on the scenario of support/order-scenario.ts: a victim and a polluter
// are caught and stored, with the pair, the seed and a command that, run as printed with no server,
// fails (and its reverse passes); a stable new test beside them is not flagged.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { gitlabCiEnv } from '../support/ci-env.js';
import { writeFiles, writeTree } from '../support/fixture-project.js';
import { asPrinted, expectOrderFindings, expectReplays, expectStored, orderScenario } from '../support/order-scenario.js';
import { startVerdictApi, useRepetitions, type VerdictApiProcess } from '../support/verdict-api-process.js';

const BIN = fileURLToPath(new URL('../../bin/stress-orchestrator.js', import.meta.url));
const JUNIT = "files('/usr/share/java/junit4.jar', '/usr/share/java/hamcrest-core.jar')";
let api: VerdictApiProcess;
let tmp: string;
const dirs: string[] = [];

beforeAll(async () => {
  api = await startVerdictApi();
  await useRepetitions(api, 3);
  tmp = await mkdtemp(path.join(os.tmpdir(), 'stress-gate-order-tmp-'));
}, 120_000);
afterAll(async () => {
  await api?.stop();
  for (const d of [...dirs, tmp]) await rm(d, { recursive: true, force: true });
});

const GRADLE: Record<'junit4' | 'testng', string> = {
  junit4: `apply plugin: 'java'\ndependencies { testCompile ${JUNIT} }\n`,
  testng: `apply plugin: 'java'\ndependencies { testCompile files('/usr/share/java/testng.jar', '/usr/share/java/jcommander.jar') }\ntest { useTestNG() }\n`,
};

/** The scenario (support/order-scenario.ts) as a Gradle build of one module, :app. */
function project(framework: 'junit4' | 'testng') {
  const scenario = orderScenario(framework, 'app/src/test/java/shop/');
  return { ...scenario, main: { 'settings.gradle': "rootProject.name = 'shop'\ninclude 'app'\n", 'app/build.gradle': GRADLE[framework], ...scenario.main } };
}

async function gate(dir: string, branch: string, mode: string, extra: Record<string, string> = {}) {
  const env = { ...gitlabCiEnv(branch, mode, api), TMPDIR: tmp, ...extra };
  const r = await execa(process.execPath, [BIN, 'gradle', '--offline', '-q', 'clean', 'test'], { cwd: dir, env, extendEnv: false, reject: false, stdin: 'ignore' });
  const report = JSON.parse(await readFile(path.join(dir, 'build/stress-gate/report.json'), 'utf8'));
  return { code: r.exitCode, out: String(r.stdout), err: String(r.stderr), report };
}

describe.each([
  ['JUnit 4', project('junit4')],
  ['TestNG', project('testng')],
])('the order probe on real Gradle (%s)', (label, fx) => {
  let dir: string;
  beforeAll(async () => {
    dir = await writeTree(fx.main, 'stress-gate-order-');
    dirs.push(dir);
  });

  it('blocks a victim and a polluter in enforce, names each pair with its seed, and leaves a stable new test alone', async () => {
    const onMain = await gate(dir, 'main', 'report');
    expect({ code: onMain.code, err: onMain.err.slice(-2000) }).toMatchObject({ code: 0 });
    await writeFiles(dir, fx.feature);
    const r = await gate(dir, `feature/order-${label.replace(/\W/g, '')}`, 'enforce');
    const found = expectOrderFindings(r, fx.names);
    expect(found.victim.orderProbe!.findings[0]!.reproduce).toContain(` gradle --run-order ':app shop.CartTest.${fx.names.partner}' --run-order ':app shop.CartTest.${fx.names.victim}' -- --offline -q clean test`);
    await expectStored(api, r.report.runId, fx.names);
    await expectReplays((command) => asPrinted(dir, command, tmp), found, fx.names);
  }, 600_000);
});
