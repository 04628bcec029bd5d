// Every Gradle test stack the gate supports on Debian's Gradle 4.4.1, through real parts: JUnit 4
// (Debian's jars), TestNG (useTestNG(), with a new data-provider invocation selected alone) and
// the JUnit Platform through JUnit 4's @RunWith(JUnitPlatform.class) (Gradle 4.4 has no
// useJUnitPlatform()), all under the direct executor, with the real CLI process and the real
// verdict API. The same story as jvm-stacks-maven.test.ts: both tests that flake only as their
// JVM's first test are caught, the stable ones pass every repetition, nothing is a gate error.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { gitlabCiEnv } from '../support/ci-env.js';
import { writeFiles, writeTree } from '../support/fixture-project.js';
import { stackProject, warmGradleJars, type Stack } from '../support/jvm-stacks.js';
import { startVerdictApi, useRepetitions, type VerdictApiProcess } from '../support/verdict-api-process.js';
import { expectStackCaught } from '../support/stack-assertions.js';

const BIN = fileURLToPath(new URL('../../bin/stress-orchestrator.js', import.meta.url));
let api: VerdictApiProcess;
let tmp: string;

beforeAll(async () => {
  await warmGradleJars();
  api = await startVerdictApi();
  // Four repetitions catch these flakes (every third invocation) in 40% of the time of ten.
  await useRepetitions(api, 4);
  tmp = await mkdtemp(path.join(os.tmpdir(), 'stress-gate-stacks-tmp-'));
}, 300_000);
afterAll(async () => {
  await api?.stop();
  await rm(tmp, { recursive: true, force: true });
});

async function gate(dir: string, branch: string, mode: string) {
  const env = { ...gitlabCiEnv(branch, mode, api), TMPDIR: tmp };
  const r = await execa(process.execPath, [BIN, 'gradle', '--offline', '-q', 'clean', 'test'], { cwd: dir, env, extendEnv: false, reject: false, stdin: 'ignore' });
  const report = JSON.parse(await readFile(path.join(dir, 'build/stress-gate/report.json'), 'utf8'));
  return { code: r.exitCode, out: String(r.stdout), err: String(r.stderr), report };
}

describe.each<Stack>(['gradle-junit4', 'gradle-testng', 'gradle-platform-runner'])('%s', (stack) => {
  it('catches both new tests that flake only as their JVM\'s first test in the direct executor; the stable ones pass every repetition; no gate error', async () => {
    const p = stackProject(stack);
    const dir = await writeTree(p.main, `stress-gate-${stack}-`);
    try {
      const main = await gate(dir, 'main', 'report');
      expect({ code: main.code, outcome: main.report.outcome, err: main.err }).toMatchObject({ code: 0, outcome: 'no_candidates' });
      await writeFiles(dir, p.feature);
      const feature = await gate(dir, `feature/${stack}`, 'enforce');
      expect(feature.report.stressPass).toMatchObject({ executor: 'direct', fallback: null });
      expectStackCaught(p, feature);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 600_000);
});
