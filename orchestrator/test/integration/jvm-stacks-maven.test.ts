// Every Maven test stack the gate supports, through real parts: real Maven (Surefire 3.5.4 with
// its JUnit 4, JUnit 4.7 (parallel) and TestNG providers, and the JUnit Platform provider running
// Jupiter beside vintage), the real CLI process and the real verdict API. On each, a branch adds
// two tests that fail only as the first test of their JVM (every third invocation, across
// processes) and a stable one: both flaky tests are caught because every candidate gets a fresh
// JVM of its own in every repetition, the stable one passes all its repetitions, and nothing is
// the gate's own error.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { gitlabCiEnv } from '../support/ci-env.js';
import { writeFiles, writeTree } from '../support/fixture-project.js';
import { stackProject, type Stack } from '../support/jvm-stacks.js';
import { startVerdictApi, useRepetitions, type VerdictApiProcess } from '../support/verdict-api-process.js';
import { expectStackCaught } from '../support/stack-assertions.js';

const BIN = fileURLToPath(new URL('../../bin/stress-orchestrator.js', import.meta.url));
let api: VerdictApiProcess;
let tmp: string;

beforeAll(async () => {
  api = await startVerdictApi();
  // Four repetitions catch these flakes (every third invocation) in 40% of the time of ten.
  await useRepetitions(api, 4);
  tmp = await mkdtemp(path.join(os.tmpdir(), 'stress-gate-stacks-tmp-'));
}, 120_000);
afterAll(async () => {
  await api?.stop();
  await rm(tmp, { recursive: true, force: true });
});

async function gate(dir: string, branch: string, mode: string, mvnArgs: string[]) {
  const summary = path.join(dir, `summary-${mode}.md`);
  const env = { ...gitlabCiEnv(branch, mode, api), TMPDIR: tmp, GITHUB_STEP_SUMMARY: summary };
  const r = await execa(process.execPath, [BIN, 'mvn', '-B', '-q', '-Dsurefire.printSummary=false', ...mvnArgs, 'clean', 'test'], { cwd: dir, env, extendEnv: false, reject: false, stdin: 'ignore' });
  const report = JSON.parse(await readFile(path.join(dir, 'target/stress-gate/report.json'), 'utf8'));
  return { code: r.exitCode, out: String(r.stdout), err: String(r.stderr), report, summary: await readFile(summary, 'utf8').catch(() => '') };
}

/** Runs a printed command as printed (`npx stress-orchestrator` is this checkout's CLI), with no server configured. */
async function asPrinted(dir: string, command: string) {
  await rm(path.join(dir, 'flaky-counts'), { recursive: true, force: true });
  const shell = command.replace(/^npx stress-orchestrator /, `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} `);
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, JAVA_HOME: process.env.JAVA_HOME, TMPDIR: tmp };
  const r = await execa('sh', ['-c', shell], { cwd: dir, env, extendEnv: false, reject: false, stdin: 'ignore' });
  return { code: r.exitCode, out: String(r.stdout), err: String(r.stderr) };
}

describe.each<Stack>(['maven-junit4', 'maven-junit47-parallel', 'maven-testng', 'maven-jupiter-vintage'])('%s', (stack) => {
  it('catches both new tests that flake only as their JVM\'s first test; the stable ones pass every repetition; no gate error', async () => {
    const p = stackProject(stack);
    const dir = await writeTree(p.main, `stress-gate-${stack}-`);
    try {
      // The default branch: history (online once: the stack's dependencies come from Maven Central).
      const main = await gate(dir, 'main', 'report', []);
      expect({ code: main.code, outcome: main.report.outcome, err: main.err }).toMatchObject({ code: 0, outcome: 'no_candidates' });
      expect(main.err).toContain('stress-gate: Maven: mvn (mvn from PATH)');
      await writeFiles(dir, p.feature);
      const feature = await gate(dir, `feature/${stack}`, 'enforce', ['-o']);
      expectStackCaught(p, feature);
      // The job summary says why too.
      expect(feature.summary).toContain('expected 30 but was 27');
      if (stack === 'maven-junit4') {
        // The printed reproduce command, run as printed with no server: 1 on a flaky test, 0 on the stable one.
        const flaky = feature.report.candidates.find((c: { name: string }) => c.name === 'flakyA').reproduce as string;
        const again = await asPrinted(dir, flaky.replace('--repetitions 50', '--repetitions 6'));
        expect({ code: again.code, out: again.out }).toMatchObject({ code: 1, out: expect.stringContaining('expected 30 but was 27') });
        const stable = await asPrinted(dir, flaky.replace('flakyA', 'stable').replace('--repetitions 50', '--repetitions 3'));
        expect({ code: stable.code, out: stable.out }).toMatchObject({ code: 0, out: expect.stringMatching(/NewFlakyTest\.stable +3 repetitions, passed/) });
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 600_000);
});
