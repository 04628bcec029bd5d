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
  // Four repetitions catch these flakes (invocation 2 of 1..4) in 40% of the time of ten.
  await useRepetitions(api, 4);
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
  const env = { ...gitlabCiEnv(branch, mode, api), TMPDIR: tmp };
  const r = await execa(process.execPath, [BIN, 'mvn', ...MVN, ...goals], { cwd: dir, env, extendEnv: false, reject: false, stdin: 'ignore' });
  const report = JSON.parse(await readFile(path.join(dir, 'target/stress-gate/report.json'), 'utf8'));
  return { code: r.exitCode, out: String(r.stdout), err: String(r.stderr), report };
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
  }, 900_000);

  it('feature branch, -pl reactor-app -am: the application and the library it depends on', async () => {
    const run = await gate('feature/shapes', 'enforce', ['-pl', 'reactor-app', '-am', 'clean', 'verify']);
    expectShapes(run, MAVEN_SHAPES.filter((s) => s.shape === 'reactor-lib' || s.shape === 'reactor-app'));
  }, 600_000);
});
