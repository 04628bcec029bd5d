// Modified and renamed tests through real parts: real git, real Gradle 4.4 (JUnit 4), the real CLI
// process and the real verdict API, on the scenario of support/diff-scenario.ts. On day one (no
// default-branch history) the tests the merge request adds are stressed, the renames it makes are
// not; with history, a one-line change inside an old test makes it a candidate that is caught,
// a renamed class and a moved method keep their history, a renamed test whose body changed is
// stressed; a shallow clone says why detection was skipped, or fetches the merge base.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { gitlabCiEnv } from '../support/ci-env.js';
import { writeTree } from '../support/fixture-project.js';
import { candidateLines, commitScenario, diffScenario, expectModifiedAndRenamed, git, renamedLines, type DiffReport } from '../support/diff-scenario.js';
import { startVerdictApi, useRepetitions, type VerdictApiProcess } from '../support/verdict-api-process.js';

const BIN = fileURLToPath(new URL('../../bin/stress-orchestrator.js', import.meta.url));
const BUILD = `apply plugin: 'java'
dependencies { testCompile files('/usr/share/java/junit4.jar', '/usr/share/java/hamcrest-core.jar') }
test { systemProperty 'fixture.dir', "$buildDir/counts" }
`;
let api: VerdictApiProcess;
let tmp: string;
let repo: string;
const dirs: string[] = [];

beforeAll(async () => {
  api = await startVerdictApi();
  await useRepetitions(api, 4);
  tmp = await mkdtemp(path.join(os.tmpdir(), 'stress-gate-diff-tmp-'));
  const s = diffScenario('junit4', 'app/src/test/java/shop/');
  repo = await writeTree({ 'settings.gradle': "rootProject.name = 'shop'\ninclude 'app'\n", 'app/build.gradle': BUILD, ...s.main }, 'stress-gate-diff-');
  dirs.push(repo);
  await commitScenario(repo, s.feature, 'build/\n.gradle/\n');
}, 120_000);
afterAll(async () => {
  await api?.stop();
  for (const d of [...dirs, tmp]) await rm(d, { recursive: true, force: true });
});

/** A GitLab job in `dir` on `branch`; a merge request's job names its target branch. */
async function gate(dir: string, branch: string, mode: string, extra: Record<string, string> = {}) {
  const mr = branch === 'main' ? {} : { CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main', CI_MERGE_REQUEST_IID: '7' };
  const env = { ...gitlabCiEnv(branch, mode, api), ...mr, TMPDIR: tmp, ...extra };
  const r = await execa(process.execPath, [BIN, 'gradle', '--offline', '-q', 'clean', 'test'], { cwd: dir, env, extendEnv: false, reject: false, stdin: 'ignore' });
  const report = JSON.parse(await readFile(path.join(dir, 'build/stress-gate/report.json'), 'utf8')) as DiffReport;
  return { code: r.exitCode, out: String(r.stdout), err: String(r.stderr), report };
}

describe('modified and renamed tests on real Gradle', () => {
  it('on day one, stresses the tests the merge request adds and modifies, labelled, and not its renames', async () => {
    const r = await gate(repo, 'feature', 'report');
    expect({ code: r.code, err: r.err.slice(-2000) }).toMatchObject({ code: 0 });
    expect(r.report.diff).toMatchObject({ status: 'analysed', dayOne: true });
    expect(candidateLines(r.report)).toEqual(['CartTest.added diff passed', 'CartTest.discount modified failed', 'CartTest.renamedChanged diff passed']);
    expect(renamedLines(r.report)).toEqual(['BillingServiceTest.answers <- ServiceTest.answers', 'OtherTest.toMove <- CartTest.toMove']);
    expect(r.out).toContain('no default-branch history yet');
    expect(r.out).toContain('— new (from the diff)');
  }, 300_000);

  it('with history, stresses the modified test and catches it, keeps the renames out, stresses a renamed test whose body changed', async () => {
    await git(repo, 'checkout', '-q', 'main');
    const onMain = await gate(repo, 'main', 'report');
    expect({ code: onMain.code, outcome: onMain.report.outcome, diff: onMain.report.diff?.status, err: onMain.err.slice(-2000) }).toMatchObject({ code: 0, outcome: 'no_candidates', diff: 'skipped' });
    await git(repo, 'checkout', '-q', 'feature');
    const r = await gate(repo, 'feature', 'enforce');
    expectModifiedAndRenamed(r);
    // Modified tests are report-only unless the project says otherwise: caught, shown, not blocking.
    expect({ code: r.code, blocked: r.report.blocked }).toEqual({ code: 0, blocked: false });
    expect(r.out).toContain('Modified tests are report-only in this project');
    // The run as stored: each candidate's origin and the renamed tests with where they came from.
    const stored = await fetch(`${api.url}/api/v1/projects/${api.project}/runs/${(r.report as unknown as { runId: string }).runId}`, { headers: { Authorization: `Bearer ${api.token}` } });
    const run = (await stored.json()) as { gate: { candidates: { name: string; origin?: string }[]; renamed: { name: string; from: { suite: string; name: string } }[]; diff: { status: string } | null } };
    expect(run.gate.diff).toMatchObject({ status: 'analysed' });
    expect(run.gate.renamed.map((t) => `${t.name} <- ${t.from.suite}.${t.from.name}`).sort()).toEqual(['answers <- shop.ServiceTest.answers', 'toMove <- shop.CartTest.toMove']);
    expect(run.gate.candidates.find((c) => c.name === 'discount')).toMatchObject({ origin: 'modified' });

    // A project that makes modified tests block: the same merge request is blocked in enforce.
    const patched = await fetch(`${api.url}/api/v1/projects/${api.project}/settings`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${api.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ stress: { modifiedTestsBlock: true } }),
    });
    expect(patched.status).toBe(200);
    const blocking = await gate(repo, 'feature', 'enforce');
    expect({ code: blocking.code, blocked: blocking.report.blocked }).toEqual({ code: 1, blocked: true });
    expect(blocking.out).toMatch(/discount — modified/);
    await fetch(`${api.url}/api/v1/projects/${api.project}/settings`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${api.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ stress: { modifiedTestsBlock: false } }),
    });
  }, 300_000);

  it('in a shallow clone without the merge base, says why detection was skipped; allowed to fetch, it finds the modified test', async () => {
    const shallow = path.join(tmp, 'shallow');
    await execa('git', ['clone', '-q', '--depth', '1', '--branch', 'feature', `file://${repo}`, shallow]);
    const skipped = await gate(shallow, 'feature', 'report', { STRESS_GATE_FETCH_MERGE_BASE: '0' });
    expect(skipped.report.diff).toMatchObject({ status: 'skipped' });
    expect(skipped.report.diff!.why).toContain('shallow clone');
    expect(skipped.out).toContain('Modified and renamed test detection was skipped');
    // The server's fingerprints still know the renames; no test is called modified without the diff.
    expect(candidateLines(skipped.report)).toEqual(['CartTest.added new passed', 'CartTest.renamedChanged new passed']);
    expect(renamedLines(skipped.report)).toEqual(['BillingServiceTest.answers <- ServiceTest.answers', 'OtherTest.toMove <- CartTest.toMove']);
    const fetched = await gate(shallow, 'feature', 'report');
    expect(fetched.report.diff).toMatchObject({ status: 'analysed', fetched: true });
    expectModifiedAndRenamed(fetched);
  }, 300_000);
});
