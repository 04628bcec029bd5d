// The gate on a Maven reactor shaped like real ones (test/fixtures/build-shapes/maven: a parent POM,
// one module per shape: the JUnit Platform with the engine Surefire adds itself, the aggregate,
// vintage, the JUnit 4 and TestNG providers, JaCoCo's agent through @{argLine}, the fork's system
// properties, environment and working directory, Jupiter's parallel mode, tag filters, custom
// includes, Failsafe, a module depending on another, forkCount=2 without reuse, the module path),
// through real parts: real Maven, the real CLI process and the real verdict API. The feature branch
// adds to each module a stable test and a test that fails only as its JVM's first test on its
// third invocation: each repetition is the build's own test run again the way the build ran it, so
// every flaky test is caught, every stable one passes every repetition, nothing is a gate error.
// One reactor run covers every shape; each assertion names its shape.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { gitlabCiEnv } from '../support/ci-env.js';
import { applyShapesFeature, MAVEN_SHAPES, resetFlakyCounts, shapesCopy, warmShapesMaven } from '../support/build-shapes.js';
import { expectShapes } from '../support/shape-assertions.js';
import { startVerdictApi, useRepetitions, type VerdictApiProcess } from '../support/verdict-api-process.js';

const BIN = fileURLToPath(new URL('../../bin/stress-orchestrator.js', import.meta.url));
const MVN = ['-o', '-B', '-q', '-Dsurefire.printSummary=false', '-Dfailsafe.printSummary=false'];
let api: VerdictApiProcess;
let dir: string;
let tmp: string;

beforeAll(async () => {
  await warmShapesMaven();
  api = await startVerdictApi();
  // Three repetitions catch these flakes (invocation 2 of 1..3; again alone, 5 of 4..6) in 30% of the time of ten.
  await useRepetitions(api, 3);
  dir = await shapesCopy('maven');
  tmp = await mkdtemp(path.join(os.tmpdir(), 'stress-gate-shapes-tmp-'));
}, 600_000);
afterAll(async () => {
  await api?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** One CI job: `stress-orchestrator mvn -o … <goals>` in the reactor root, configured by the environment. */
async function gate(branch: string, mode: string, goals: string[]) {
  await resetFlakyCounts(dir);
  const summary = path.join(tmp, `summary-${Date.now()}.md`);
  const env = { ...gitlabCiEnv(branch, mode, api), TMPDIR: tmp, GITHUB_STEP_SUMMARY: summary };
  const r = await execa(process.execPath, [BIN, 'mvn', ...MVN, ...goals], { cwd: dir, env, extendEnv: false, reject: false, stdin: 'ignore' });
  const report = JSON.parse(await readFile(path.join(dir, 'target/stress-gate/report.json'), 'utf8'));
  return { code: r.exitCode, out: String(r.stdout), err: String(r.stderr), report, summary: await readFile(summary, 'utf8').catch(() => '') };
}

/** Runs a command the gate printed, as printed (`npx stress-orchestrator` is this checkout's CLI), with no server configured. */
async function asPrinted(command: string) {
  await resetFlakyCounts(dir);
  const shell = command.replace(/^npx (?:(?:--no|-p \S+) )?stress-orchestrator /, `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} `);
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, JAVA_HOME: process.env.JAVA_HOME, TMPDIR: tmp };
  const r = await execa('sh', ['-c', shell], { cwd: dir, env, extendEnv: false, reject: false, stdin: 'ignore' });
  return { code: r.exitCode, out: String(r.stdout) };
}

describe('the gate on real Maven build shapes (one reactor, a module per shape)', () => {
  it('uploads the default branch\'s history: nothing is new', async () => {
    const main = await gate('main', 'report', ['clean', 'verify']);
    expect({ code: main.code, outcome: main.report.outcome, problems: main.report.problems, err: main.err.slice(-3000) }).toMatchObject({ code: 0, outcome: 'no_candidates', problems: [] });
  }, 600_000);

  it('feature branch, whole reactor, enforce: every shape\'s flaky test caught, its stable tests passed every repetition, the tag-excluded test never a candidate', async () => {
    await applyShapesFeature(dir, 'maven');
    const run = await gate('feature/shapes', 'enforce', ['clean', 'verify']);
    expectShapes(run, MAVEN_SHAPES);
    // The job summary says why too.
    expect(run.summary).toContain('expected 30 but was 27');
  }, 900_000);

  it('feature branch, -pl reactor-app -am: the application and the library it depends on', async () => {
    const run = await gate('feature/shapes', 'enforce', ['-pl', 'reactor-app', '-am', 'clean', 'verify']);
    expectShapes(run, MAVEN_SHAPES.filter((s) => s.shape === 'reactor-lib' || s.shape === 'reactor-app'));
    // The printed reproduce command, run as printed with no server: 1 on the flaky test, 0 on the stable one.
    const flaky = run.report.candidates.find((c: { module: string; name: string }) => c.module === ':reactor-app' && c.name === 'flaky').reproduce as string;
    const again = await asPrinted(flaky.replace('--repetitions 50', '--repetitions 3'));
    expect({ code: again.code, out: again.out }).toMatchObject({ code: 1, out: expect.stringContaining('expected 30 but was 27') });
    const stable = await asPrinted(flaky.replace('NewTest.flaky', 'NewTest.stable').replace('--repetitions 50', '--repetitions 2'));
    expect({ code: stable.code, out: stable.out }).toMatchObject({ code: 0, out: expect.stringMatching(/NewTest\.stable +2 repetitions, passed/) });
  }, 600_000);
});
