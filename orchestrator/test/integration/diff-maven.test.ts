// Modified and renamed tests through real parts on Maven: real git, real Maven (Surefire 3.5.4 and
// the JUnit Platform, Jupiter 5.14.4, offline, every version pinned), the real CLI process and the
// real verdict API, on the scenario of support/diff-scenario.ts (as diff-gradle.test.ts): on day
// one the tests the merge request adds are stressed and its renames are not; with history the
// one-line change inside an old test makes it a candidate that is caught, the renamed class and the
// moved method keep their history, and the renamed test whose body changed is stressed.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { gitlabCiEnv } from '../support/ci-env.js';
import { writeTree } from '../support/fixture-project.js';
import { candidateLines, commitScenario, diffScenario, expectModifiedAndRenamed, git, renamedLines, type DiffReport } from '../support/diff-scenario.js';
import { pinnedPom, testDependency, warmMavenProject } from '../support/pinned-pom.js';
import { startVerdictApi, useRepetitions, type VerdictApiProcess } from '../support/verdict-api-process.js';

const BIN = fileURLToPath(new URL('../../bin/stress-orchestrator.js', import.meta.url));
const MVN = ['-o', '-q', '-B', '-Dsurefire.printSummary=false'];
const POM = pinnedPom(
  'dev.stressgate.diff',
  testDependency('org.junit.jupiter', 'junit-jupiter', '5.14.4'),
  '<systemPropertyVariables><fixture.dir>${project.build.directory}/counts</fixture.dir></systemPropertyVariables>',
);
let api: VerdictApiProcess;
let tmp: string;
let repo: string;
const dirs: string[] = [];

beforeAll(async () => {
  api = await startVerdictApi();
  await useRepetitions(api, 4);
  tmp = await mkdtemp(path.join(os.tmpdir(), 'stress-gate-diff-maven-tmp-'));
  const s = diffScenario('jupiter', 'src/test/java/shop/');
  repo = await writeTree({ 'pom.xml': POM, '.mvn/jvm.config': '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC\n', ...s.main }, 'stress-gate-diff-maven-');
  dirs.push(repo);
  await warmMavenProject(repo, 'diff-maven');
  await commitScenario(repo, s.feature, 'target/\n');
}, 300_000);
afterAll(async () => {
  await api?.stop();
  for (const d of [...dirs, tmp]) await rm(d, { recursive: true, force: true });
});

async function gate(branch: string, mode: string) {
  const mr = branch === 'main' ? {} : { CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main', CI_MERGE_REQUEST_IID: '7' };
  const env = { ...gitlabCiEnv(branch, mode, api), ...mr, TMPDIR: tmp };
  const r = await execa(process.execPath, [BIN, 'mvn', ...MVN, 'clean', 'test'], { cwd: repo, env, extendEnv: false, reject: false, stdin: 'ignore' });
  const report = JSON.parse(await readFile(path.join(repo, 'target/stress-gate/report.json'), 'utf8')) as DiffReport;
  return { code: r.exitCode, out: String(r.stdout), err: String(r.stderr), report };
}

describe('modified and renamed tests on real Maven (Jupiter)', () => {
  it('on day one stresses what the merge request adds and modifies; with history, catches the modified test and keeps the renames out', async () => {
    const first = await gate('feature', 'report');
    expect({ code: first.code, err: first.err.slice(-2000) }).toMatchObject({ code: 0 });
    expect(first.report.diff).toMatchObject({ status: 'analysed', dayOne: true });
    expect(candidateLines(first.report)).toEqual(['CartTest.added diff passed', 'CartTest.discount modified failed', 'CartTest.renamedChanged diff passed']);
    expect(renamedLines(first.report)).toEqual(['BillingServiceTest.answers <- ServiceTest.answers', 'OtherTest.toMove <- CartTest.toMove']);

    await git(repo, 'checkout', '-q', 'main');
    const onMain = await gate('main', 'report');
    expect({ code: onMain.code, outcome: onMain.report.outcome, err: onMain.err.slice(-2000) }).toMatchObject({ code: 0, outcome: 'no_candidates' });
    await git(repo, 'checkout', '-q', 'feature');
    const r = await gate('feature', 'enforce');
    expectModifiedAndRenamed(r);
    expect({ code: r.code, blocked: r.report.blocked }).toEqual({ code: 0, blocked: false });
  }, 600_000);
});
