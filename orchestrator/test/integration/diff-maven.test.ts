// Modified and renamed tests through real parts on Maven: real git, real Maven (Surefire 3.5.4 and
// the JUnit Platform, Jupiter 5.14.4, offline, every version pinned), the real CLI process and the
// real verdict API, on the scenario of support/diff-scenario.ts (as diff-gradle.test.ts): on day
// one the tests the merge request adds are stressed and its renames are not; with history the
// one-line change inside an old test makes it a candidate that is caught, the renamed class and the
// moved method keep their history, and the renamed test whose body changed is stressed.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { access, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { gitlabCiEnv } from '../support/ci-env.js';
import { writeTree } from '../support/fixture-project.js';
import { candidateLines, commitScenario, diffScenario, expectModifiedAndRenamed, git, renamedLines, type DiffReport } from '../support/diff-scenario.js';
import { startVerdictApi, useRepetitions, type VerdictApiProcess } from '../support/verdict-api-process.js';

const BIN = fileURLToPath(new URL('../../bin/stress-orchestrator.js', import.meta.url));
const M2 = path.join(os.homedir(), '.m2', 'repository');
const MVN = ['-o', '-q', '-B', '-Dsurefire.printSummary=false'];
const POM = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>dev.stressgate.diff</groupId>
  <artifactId>shop</artifactId>
  <version>1.0.0</version>
  <properties>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    <maven.compiler.release>17</maven.compiler.release>
  </properties>
  <dependencies>
    <dependency><groupId>org.junit.jupiter</groupId><artifactId>junit-jupiter</artifactId><version>5.14.4</version><scope>test</scope></dependency>
  </dependencies>
  <build>
    <pluginManagement>
      <plugins>
        <plugin><artifactId>maven-clean-plugin</artifactId><version>3.4.1</version></plugin>
        <plugin><artifactId>maven-resources-plugin</artifactId><version>3.3.1</version></plugin>
        <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.14.1</version></plugin>
        <plugin><artifactId>maven-surefire-plugin</artifactId><version>3.5.4</version></plugin>
      </plugins>
    </pluginManagement>
    <plugins>
      <plugin>
        <artifactId>maven-surefire-plugin</artifactId>
        <configuration><systemPropertyVariables><fixture.dir>\${project.build.directory}/counts</fixture.dir></systemPropertyVariables></configuration>
      </plugin>
    </plugins>
  </build>
</project>
`;
let api: VerdictApiProcess;
let tmp: string;
let repo: string;
const dirs: string[] = [];

/** Resolves the POM's plugins and dependencies into ~/.m2 once per machine (a plain online build of main); the gate's builds run `mvn -o`. */
async function warm(dir: string): Promise<void> {
  const stamp = path.join(M2, `.stress-gate-diff-maven-${createHash('sha256').update(POM).digest('hex').slice(0, 16)}`);
  if (await access(stamp).then(() => true, () => false)) return;
  const r = await execa('mvn', ['-q', '-B', '-Dsurefire.printSummary=false', 'clean', 'test'], { cwd: dir, reject: false, stdin: 'ignore' });
  if (r.exitCode !== 0) throw new Error(`warming ~/.m2 failed (mvn exit ${r.exitCode}):\n${String(r.stdout).slice(-3000)}\n${String(r.stderr).slice(-3000)}`);
  await mkdir(M2, { recursive: true });
  await writeFile(stamp, 'resolved by orchestrator/test/integration/diff-maven.test.ts\n');
}

beforeAll(async () => {
  api = await startVerdictApi();
  await useRepetitions(api, 4);
  tmp = await mkdtemp(path.join(os.tmpdir(), 'stress-gate-diff-maven-tmp-'));
  const s = diffScenario('jupiter', 'src/test/java/shop/');
  repo = await writeTree({ 'pom.xml': POM, '.mvn/jvm.config': '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC\n', ...s.main }, 'stress-gate-diff-maven-');
  dirs.push(repo);
  await warm(repo);
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
