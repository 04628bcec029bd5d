// The gate on a Gradle 4.4.1 multi-project build shaped like real ones
// (test/fixtures/build-shapes/gradle: a root build configuring every subproject, one subproject per
// shape: the test task's systemProperty/jvmArgs/environment/workingDir, a second Test task on a
// source set of its own wired into check, TestNG with a data provider, the JUnit Platform through
// JUnit 4's JUnitPlatform runner), through real parts: Debian's Gradle, the real CLI process, the
// real verdict API, the direct executor. The feature branch adds to each subproject a stable test
// and a test that fails only as its JVM's first test on its third invocation: every flaky test is
// caught, every stable one passes every repetition, nothing is a gate error. One build run covers
// every shape; each assertion names its shape.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { gitlabCiEnv } from '../support/ci-env.js';
import { applyShapesFeature, GRADLE_SHAPES, resetFlakyCounts, shapesCopy, warmShapesGradle } from '../support/build-shapes.js';
import { expectShapes } from '../support/shape-assertions.js';
import { startVerdictApi, useRepetitions, type VerdictApiProcess } from '../support/verdict-api-process.js';

const BIN = fileURLToPath(new URL('../../bin/stress-orchestrator.js', import.meta.url));
let api: VerdictApiProcess;
let dir: string;
let tmp: string;

beforeAll(async () => {
  await warmShapesGradle();
  api = await startVerdictApi();
  // Three repetitions catch these flakes (invocation 2 of 1..3; again alone, 5 of 4..6) in 30% of the time of ten.
  await useRepetitions(api, 3);
  dir = await shapesCopy('gradle');
  tmp = await mkdtemp(path.join(os.tmpdir(), 'stress-gate-shapes-tmp-'));
}, 300_000);
afterAll(async () => {
  await api?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** One CI job: `stress-orchestrator gradle --offline -q clean check` (check runs test and integTest). */
async function gate(branch: string, mode: string) {
  await resetFlakyCounts(dir);
  const env = { ...gitlabCiEnv(branch, mode, api), TMPDIR: tmp };
  const r = await execa(process.execPath, [BIN, 'gradle', '--offline', '-q', 'clean', 'check'], { cwd: dir, env, extendEnv: false, reject: false, stdin: 'ignore' });
  const report = JSON.parse(await readFile(path.join(dir, 'build/stress-gate/report.json'), 'utf8'));
  return { code: r.exitCode, out: String(r.stdout), err: String(r.stderr), report };
}

describe('the gate on real Gradle build shapes (one multi-project build, a subproject per shape)', () => {
  it('uploads the default branch\'s history: nothing is new', async () => {
    const main = await gate('main', 'report');
    expect({ code: main.code, outcome: main.report.outcome, problems: main.report.problems, err: main.err.slice(-3000) }).toMatchObject({ code: 0, outcome: 'no_candidates', problems: [] });
  }, 300_000);

  it('feature branch, enforce: every shape\'s flaky test caught, its stable tests passed every repetition, in the direct executor', async () => {
    await applyShapesFeature(dir, 'gradle');
    const run = await gate('feature/shapes', 'enforce');
    expectShapes(run, GRADLE_SHAPES, { executor: 'direct', fallback: null });
  }, 600_000);
});
