// The order probe through real parts on Maven: real Maven (Surefire 3.5.4 with its JUnit 4,
// JUnit Platform and TestNG providers, offline, every version pinned), the real CLI process and
// the real verdict API, on the scenario of support/order-scenario.ts (as order-probe-gradle.test.ts):
// a victim and a polluter are caught and stored, with the pair, the seed and a command that, run
// as printed with no server, fails (and its reverse passes); a stable new test is not flagged.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { gitlabCiEnv } from '../support/ci-env.js';
import { writeFiles, writeTree } from '../support/fixture-project.js';
import { asPrinted, expectOrderFindings, expectReplays, expectStored, orderScenario, type Framework } from '../support/order-scenario.js';
import { pinnedPom, testDependency, warmMavenProject } from '../support/pinned-pom.js';
import { startVerdictApi, useRepetitions, type VerdictApiProcess } from '../support/verdict-api-process.js';

const BIN = fileURLToPath(new URL('../../bin/stress-orchestrator.js', import.meta.url));
/** Every gate build: offline, quiet, no summary. */
const MVN = ['-o', '-q', '-B', '-Dsurefire.printSummary=false'];
let api: VerdictApiProcess;
let tmp: string;
const dirs: string[] = [];

beforeAll(async () => {
  api = await startVerdictApi();
  await useRepetitions(api, 3);
  tmp = await mkdtemp(path.join(os.tmpdir(), 'stress-gate-order-maven-tmp-'));
}, 120_000);
afterAll(async () => {
  await api?.stop();
  for (const d of [...dirs, tmp]) await rm(d, { recursive: true, force: true });
});

/**
 * Maven's own JVM with the C1 compiler only (a real project's .mvn/jvm.config): each of the five
 * builds a framework runs starts in about half the time on a busy machine. Surefire's forks, and so
 * the probe's JVMs, are started without it.
 */
const MAVEN_JVM = { '.mvn/jvm.config': '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC\n' };

const POMS: Record<Framework, string> = {
  junit4: pinnedPom('dev.stressgate.order', testDependency('junit', 'junit', '4.13.2')),
  jupiter: pinnedPom('dev.stressgate.order', testDependency('org.junit.jupiter', 'junit-jupiter', '5.14.4')),
  testng: pinnedPom('dev.stressgate.order', testDependency('org.testng', 'testng', '7.5.1')),
};

/** The scenario (support/order-scenario.ts) as a one-module Maven build: Surefire's junit4, JUnit Platform (partners selected by unique ID) or TestNG provider. */
function project(framework: Framework) {
  const scenario = orderScenario(framework, 'src/test/java/shop/');
  return { ...scenario, main: { 'pom.xml': POMS[framework], ...MAVEN_JVM, ...scenario.main } };
}

async function gate(dir: string, branch: string, mode: string) {
  const env = { ...gitlabCiEnv(branch, mode, api), TMPDIR: tmp };
  const r = await execa(process.execPath, [BIN, 'mvn', ...MVN, 'clean', 'test'], { cwd: dir, env, extendEnv: false, reject: false, stdin: 'ignore' });
  const report = JSON.parse(await readFile(path.join(dir, 'target/stress-gate/report.json'), 'utf8'));
  return { code: r.exitCode, out: String(r.stdout), err: String(r.stderr), report };
}

describe.each([
  ['JUnit 4', project('junit4')],
  ['Jupiter', project('jupiter')],
  ['TestNG', project('testng')],
])('the order probe on real Maven (%s)', (label, fx) => {
  let dir: string;
  beforeAll(async () => {
    dir = await writeTree(fx.main, 'stress-gate-order-maven-');
    dirs.push(dir);
    await warmMavenProject(dir, 'order-probe-maven');
  }, 300_000);

  it('blocks a victim and a polluter in enforce, names each pair with its seed, and leaves a stable new test alone', async () => {
    const onMain = await gate(dir, 'main', 'report');
    expect({ code: onMain.code, outcome: onMain.report.outcome, err: onMain.err.slice(-2000) }).toMatchObject({ code: 0, outcome: 'no_candidates' });
    await writeFiles(dir, fx.feature);
    const r = await gate(dir, `feature/order-${label.replace(/\W/g, '')}`, 'enforce');
    const found = expectOrderFindings(r, fx.names);
    // A module-less Maven test name needs no quoting.
    expect(found.victim.orderProbe!.findings[0]!.reproduce).toContain(` mvn --run-order shop.CartTest.${fx.names.partner} --run-order shop.CartTest.${fx.names.victim} -- ${MVN.join(' ')} clean test`);
    await expectStored(api, r.report.runId, fx.names);
    await expectReplays((command) => asPrinted(dir, command, tmp), found, fx.names);
  }, 300_000);
});
