// Replays a real Maven project's history through the gate (issue 39's evaluation): each commit of
// a pinned first-parent range that touched tests becomes a merge request against its parent, run
// by the real CLI in report mode against a real verdict API (embedded chDB, loopback), then the
// same commit runs as a CI job of the default branch, so its tests become history (and their body
// fingerprints, where the CLI sends them, the server's). The first commit only seeds history.
//
// What it counts, per merge request and in all: candidates by origin (new / modified / diff),
// renamed tests (not stressed), outcomes, would-have-blocked results and guards, whether the diff
// analysis ran (and why not); for each would-have-block, the test, its failures and a recheck of
// it in Maven (Surefire) itself, so a human can tell a flaky test from a false block. Before
// issue 39's CLI, the report has no `origin`, `renamed` or `diff`: absent counts as `new` / none.
//
// The project: Apache Commons CLI (JUnit 5, Maven, ~800 tests, ~10 s a build). The range holds
// the Oct 2024 help-formatter work: 58 tests added at once, test classes renamed (e047c336) and
// moved to another package (62d1ba73), test methods renamed (625c3cd7, c113423a), and edits
// inside existing tests (the JUnit 5 port, assertThrows). Get its git directory with the search
// tool's fetch (github:apache/commons-cli: /work/.mirror/apache+commons-cli/repo), or
// `git clone --mirror https://github.com/apache/commons-cli.git DIR`, and pass it as --mirror.
//
// Usage: npm run eval:replay -- [--mirror DIR] [--from SEED] [--to LAST] [--product DIR]
//          [--limit N] [--skip SHA,…] [--all-commits] [--recheck N] [--out results.json] [--keep]
//   --skip: commits that land without a merge-request run (default: e9a72ea9, below; '' for none).
//   --product: the stress-gate checkout whose built CLI and verdict API run (default: this one),
//   so one checkout's harness measures another build (a baseline before a feature, say).
// Needs: npm run build (in --product), the JVM runner jar (make plugin), mvn and java, Maven
// Central reachable for the first build (then ~/.m2 serves it).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { flagMap } from './bench-util.js';
import { check, ROOT, run as runCommand, type Ran } from './bench-gradle-common.js';

/** The pinned replay: Apache Commons CLI, first-parent commits after SEED up to LAST (Sep 28 to Oct 19, 2024). */
const PINNED = {
  url: 'https://github.com/apache/commons-cli.git',
  mirror: '/work/.mirror/apache+commons-cli/repo',
  /** "Bump org.apache.commons:commons-parent from 75 to 76 #315": seeds the default branch's history. */
  seed: '4ff0d4adbc2161677e71050ba23c152831f6ad83',
  /** "Port to JUnit 5" (ae92da88), the last replayed merge request. */
  last: 'ae92da886a36a1b869d8769c918e3932e9d67024',
  /**
   * Commits that land on the default branch without a merge-request run: e9a72ea9 adds 58 test
   * methods (121 identities), all new to any version of the gate; their stress pass alone takes the
   * whole 10-minute ceiling (measured once: 28 of 121 stressed before the cut, all passed).
   */
  skip: ['e9a72ea9'],
};
/**
 * The project's own build, minus what only slows every commit: the license audit (RAT) and JaCoCo's
 * agent (which each repetition JVM would start again). Surefire, JUnit and every plugin stay at the
 * versions each commit's POM pins.
 */
const MAVEN_ARGS = ['-B', 'test', '-Drat.skip=true', '-Djacoco.skip=true', '-Danimal.sniffer.skip=true', '-Djapicmp.skip=true'];
/** The default branch's run of a commit its merge request already built: Surefire alone, on the classes that build compiled (the same tests, half the time). */
const MAVEN_TESTS_ONLY = ['-B', 'surefire:test', '-Djacoco.skip=true'];
/** A test file's path (what makes a commit a merge request worth replaying). */
const TEST_PATH = /(^|\/)src\/test\/|Test[^/]*\.java$/;
/** Environment the CLI must not inherit: a CI service's variables would describe this machine's job, not the replay's. */
const CI_KEYS = /^(CI|CONTINUOUS_INTEGRATION|BUILD_NUMBER|RUN_ID|GITHUB_.*|GITLAB_.*|CI_.*|BUILDKITE.*|CIRCLE.*|JENKINS_.*|TRAVIS.*|TEAMCITY_.*|BITBUCKET_.*|CODEBUILD_.*|DRONE.*|SYSTEM_.*|TF_BUILD|STRESS_NEW_TESTS|STRESS_GATE_.*)$/;

const log = (line = ''): void => void process.stdout.write(`${line}\n`);
const sec = (ms: number): string => `${(ms / 1000).toFixed(0)} s`;

// ---------------------------------------------------------------------------------------------
// The JSON report, as loosely as every version of it (before and after issue 39) is written.

interface ReportCandidate {
  module?: string;
  suite: string;
  name: string;
  outcome: string;
  origin?: string;
  expected?: number;
  failures?: number;
  crashed?: number;
  why?: string | null;
  timingSensitive?: { failures: number; repetitions: number } | null;
  failedInBuild?: string;
  renamedFrom?: unknown;
  orderProbe?: { findings?: unknown[] } & Record<string, unknown>;
  evidence?: { failures?: { failure?: { type?: string; message?: string; trace?: string } }[]; groups?: { type?: string; location?: string; count?: number }[] } | null;
}
interface Report {
  outcome?: string;
  stop?: { kind: string } | null;
  firstPass?: { exitCode: number; passed: boolean; testCases: number; failures: number };
  guard?: { name: string; count: number; reason: string } | null;
  candidates?: ReportCandidate[];
  renamed?: { module?: string; suite: string; name: string; from?: { suite: string; name: string } }[];
  diff?: { status: string; why: string | null; base: string | null; added?: number; modified?: number } | null;
  stressPass?: { wallClockMs: number; jvms?: number } | null;
  blocked?: boolean;
  wouldHaveBlocked?: boolean;
  notes?: string[];
  problems?: string[];
}

/** One would-have-block, with what a human needs to judge it. */
interface Block {
  commit: string;
  test: string;
  origin: string;
  outcome: string;
  failures: string;
  message: string;
  /** Surefire's own runs of the test on that commit: passed of run (null: not rechecked). */
  maven: { passed: number; runs: number } | null;
  judgement: string;
}

interface Row {
  commit: string;
  subject: string;
  /** Test identities added and removed by the commit (Surefire's XML of its default-branch run against the one before). */
  added: number;
  removed: number;
  /** Removed and added identities with the same method name: a class renamed or moved (a lower bound of the renames). */
  sameName: number;
  firstPass: string;
  outcome: string;
  guard: string;
  origins: Record<string, number>;
  stressed: Record<string, number>;
  renamed: number;
  renamedList: string[];
  outcomes: Record<string, number>;
  wouldHaveBlocked: boolean;
  blocked: boolean;
  diff: string;
  stressMs: number;
  stepMs: number;
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const t0 = performance.now();
  const f = flagMap(process.argv.slice(2).filter((a) => a !== '--keep' && a !== '--all-commits'));
  const keep = process.argv.includes('--keep');
  const allCommits = process.argv.includes('--all-commits');
  const mirror = f.get('mirror') ?? process.env.BENCH_REPLAY_MIRROR ?? PINNED.mirror;
  const seed = f.get('from') ?? PINNED.seed;
  const last = f.get('to') ?? PINNED.last;
  const product = resolve(f.get('product') ?? ROOT);
  const limit = Number(f.get('limit') ?? Number.POSITIVE_INFINITY);
  const recheck = Number(f.get('recheck') ?? 3);
  const out = f.get('out');
  const skip = (f.get('skip') ?? PINNED.skip.join(',')).split(',').filter(Boolean);
  if (!existsSync(mirror)) {
    throw new Error(`no git directory at ${mirror}: fetch github:apache/commons-cli with the search tool (it lands in ${PINNED.mirror}), or git clone --mirror ${PINNED.url} DIR, and pass --mirror DIR`);
  }
  const cli = join(product, 'orchestrator/bin/stress-orchestrator.js');
  const api = join(product, 'verdict-api/bin/verdict-api.js');
  for (const p of [join(product, 'orchestrator/dist/cli.js'), join(product, 'verdict-api/dist/main.js')]) if (!existsSync(p)) throw new Error(`${p} is missing: npm run build in ${product}`);

  const work = mkdtempSync(join(tmpdir(), 'stress-gate-replay-'));
  const repo = join(work, 'repo');
  const reports = join(work, 'reports');
  mkdirSync(reports);
  const server = await startApi(api, work);
  const rows: Row[] = [];
  const blocks: Block[] = [];
  try {
    check(await run('git', ['clone', '-q', '--no-checkout', mirror, repo], { cwd: work }), 'git clone');
    const git = async (...args: string[]) => check(await run('git', args, { cwd: repo }), `git ${args.join(' ')}`).stdout.trim();
    await git('config', 'user.email', 'replay@example.com');
    await git('config', 'user.name', 'replay');
    // The remote's default branch is main here, as the verdict API's project says (the clone's origin/HEAD named the mirror's).
    await git('update-ref', 'refs/remotes/origin/main', seed);
    await git('symbolic-ref', 'refs/remotes/origin/HEAD', 'refs/remotes/origin/main');
    const commits = (await git('rev-list', '--first-parent', '--reverse', `${seed}..${last}`)).split('\n').filter(Boolean);
    const replayed: { sha: string; parent: string }[] = [];
    for (const sha of commits) {
      const parent = await git('rev-parse', `${sha}^1`);
      const files = (await git('diff', '--name-only', parent, sha)).split('\n');
      if (allCommits || files.some((p) => TEST_PATH.test(p))) replayed.push({ sha, parent });
    }
    const todo = replayed.slice(0, Number.isFinite(limit) ? limit : undefined);
    const skipped = (sha: string) => skip.some((s) => sha.startsWith(s));
    log(`replay of ${mirror}: seed ${seed.slice(0, 8)}, ${commits.length} first-parent commits to ${last.slice(0, 8)}, ${replayed.length} touch tests; replaying ${todo.length}${skip.length ? `, of which ${todo.filter((c) => skipped(c.sha)).length} land without a merge request (--skip ${skip.join(',')})` : ''}`);
    log(`product: ${product} (its CLI and verdict API); verdict API ${server.url}, embedded chDB in ${work}`);
    log(`each merge request: stress-orchestrator mvn ${MAVEN_ARGS.join(' ')} --stress-new-tests report, against its parent as main`);
    log('');

    const baseEnv: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !CI_KEYS.test(k)));
    Object.assign(baseEnv, { STRESS_GATE_URL: server.url, STRESS_GATE_PROJECT: server.project, STRESS_GATE_IS_CI: '1' });

    /** Checks out `sha` clean (no build output of another commit: a renamed test's old class would still run); the same commit keeps its build. */
    let built = '';
    const checkout = async (branch: string, sha: string) => {
      await git('checkout', '-q', '-f', '-B', branch, sha);
      if (built !== sha) await git('clean', '-q', '-ffdx');
      built = sha;
    };
    const gate = async (kind: 'mr' | 'main', sha: string, file: string, env: NodeJS.ProcessEnv, maven = MAVEN_ARGS): Promise<{ report: Report | null; ran: Ran }> => {
      const ran = await run(process.execPath, [cli, 'mvn', ...maven, '--stress-new-tests', 'report', '--report-file', file], { cwd: repo, env });
      writeFileSync(`${file}.log`, `${ran.stdout}\n--- stderr ---\n${ran.stderr}`);
      const report = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Report) : null;
      if (!report) log(`  ${kind} run of ${sha.slice(0, 8)} wrote no report (exit ${ran.code}): ${ran.stderr.trim().split('\n').slice(-3).join(' | ')}`);
      return { report, ran };
    };
    /** The default branch's CI job on `sha`: its tests become history. Returns the test identities Surefire reported. */
    const defaultBranchRun = async (sha: string, label: string): Promise<Set<string>> => {
      await git('update-ref', 'refs/remotes/origin/main', sha);
      const maven = built === sha ? MAVEN_TESTS_ONLY : MAVEN_ARGS;
      await checkout('main', sha);
      const { report, ran } = await gate('main', sha, join(reports, `${label}-main.json`), { ...baseEnv, STRESS_GATE_TOKEN: server.token, STRESS_GATE_BRANCH: 'main', STRESS_GATE_COMMIT: sha }, maven);
      if (report?.candidates?.length) log(`  note: the default branch's run of ${sha.slice(0, 8)} had ${report.candidates.length} candidates (expected none once its own upload is history)`);
      if (ran.code !== 0) log(`  note: the default branch's build of ${sha.slice(0, 8)} exited ${ran.code}`);
      return surefireIdentities(repo);
    };

    log(`seed ${seed.slice(0, 8)}: the default branch's history`);
    let history = await defaultBranchRun(seed, '00-seed');
    log(`  ${history.size} test identities ran (${sec(performance.now() - t0)})`);
    log('');

    for (const [i, { sha, parent }] of todo.entries()) {
      const s0 = performance.now();
      const label = `${String(i + 1).padStart(2, '0')}-${sha.slice(0, 8)}`;
      const subject = await git('log', '-1', '--format=%s', sha);
      if (skipped(sha)) {
        history = await defaultBranchRun(sha, label);
        log(`${label} ${subject.slice(0, 60)}: landed without a merge request (--skip); ${history.size} test identities (total ${sec(performance.now() - t0)})`);
        continue;
      }
      // The merge request: its branch at `sha`, the default branch (local and origin) at its parent, so the merge base is the parent and the diff is exactly this commit.
      await git('update-ref', 'refs/heads/main', parent);
      await git('update-ref', 'refs/remotes/origin/main', parent);
      const branch = `replay/${sha.slice(0, 8)}`;
      await checkout(branch, sha);
      const mrEnv = {
        ...baseEnv,
        STRESS_GATE_TOKEN: server.mrToken,
        STRESS_GATE_BRANCH: branch,
        STRESS_GATE_COMMIT: sha,
        // The merge request's target (issue 39's base-ref setting): the default branch, at the parent.
        STRESS_GATE_BASE_REF: 'main',
      };
      const file = join(reports, `${label}-mr.json`);
      const { report, ran } = await gate('mr', sha, file, mrEnv);
      const r: Report = report ?? {};
      const mrIds = surefireIdentities(repo);
      for (const c of (r.candidates ?? []).filter(wouldBlock)) blocks.push(await judge(c, sha, repo, recheck));
      // Then the same commit lands on the default branch.
      const now = await defaultBranchRun(sha, label);
      const ids = now.size ? now : mrIds;
      const added = [...ids].filter((x) => !history.has(x));
      const removed = [...history].filter((x) => !ids.has(x));
      const method = (id: string) => id.split('#')[1]!.replace(/[([].*$/, '');
      const removedNames = new Set(removed.map(method));
      history = ids;

      const cands = r.candidates ?? [];
      const origins: Record<string, number> = {};
      const stressed: Record<string, number> = {};
      const outcomes: Record<string, number> = {};
      for (const c of cands) {
        const o = c.origin ?? 'new';
        origins[o] = (origins[o] ?? 0) + 1;
        if (['passed', 'failed', 'order_dependent'].includes(c.outcome)) stressed[o] = (stressed[o] ?? 0) + 1;
        const key = c.failedInBuild ? `${c.outcome} (${c.failedInBuild} in the build)` : c.timingSensitive ? `${c.outcome} (timing-sensitive)` : c.outcome;
        outcomes[key] = (outcomes[key] ?? 0) + 1;
      }
      const renamed = renamedOf(r);
      rows.push({
        commit: sha.slice(0, 8),
        subject,
        added: added.length,
        removed: removed.length,
        sameName: added.filter((a) => removedNames.has(method(a))).length,
        firstPass: r.firstPass ? `${r.firstPass.passed ? 'passed' : 'FAILED'} ${r.firstPass.testCases}` : `exit ${ran.code}`,
        outcome: r.outcome ?? r.stop?.kind ?? 'no report',
        guard: r.guard ? `${r.guard.name} (${r.guard.count})` : '',
        origins,
        stressed,
        renamed: renamed.length,
        renamedList: renamed,
        outcomes,
        wouldHaveBlocked: r.wouldHaveBlocked === true,
        blocked: r.blocked === true,
        diff: r.diff ? (r.diff.status === 'analysed' ? `analysed (+${r.diff.added ?? 0} ~${r.diff.modified ?? 0})` : `skipped: ${r.diff.why ?? '?'}`) : 'absent',
        stressMs: r.stressPass?.wallClockMs ?? 0,
        stepMs: performance.now() - s0,
      });
      const row = rows[rows.length - 1]!;
      log(`${label} ${subject.slice(0, 60)}`);
      log(`  identities +${row.added} -${row.removed} (${row.sameName} same method name), first pass ${row.firstPass}, ${row.outcome}${row.guard ? `, guard ${row.guard}` : ''}, diff ${row.diff}`);
      log(`  candidates ${fmt(origins) || 'none'}; stressed ${fmt(stressed) || 'none'}; renamed ${row.renamed}; outcomes ${fmt(outcomes) || 'none'}${row.wouldHaveBlocked ? '; WOULD HAVE BLOCKED' : ''} (${sec(row.stepMs)}, total ${sec(performance.now() - t0)})`);
      // Written after every merge request, so a replay cut short still leaves its figures.
      if (out) writeFileSync(out, JSON.stringify({ mirror, seed, last, product, rows, blocks, wallClockMs: performance.now() - t0, complete: false }, null, 2));
    }

    printSummary(rows, blocks, performance.now() - t0, { mirror, seed, last, product });
    if (out) writeFileSync(out, JSON.stringify({ mirror, seed, last, product, rows, blocks, wallClockMs: performance.now() - t0, complete: true }, null, 2));
  } finally {
    await server.stop();
    if (keep) log(`kept ${work} (reports and logs under reports/)`);
    else rmSync(work, { recursive: true, force: true });
  }
}

/**
 * A candidate that makes the run would-have-blocked (report mode): failed (not only side by side, and
 * not broken: failing the build and every repetition is the build's failure, which the gate never
 * blocks on), or order-dependent, or flaky in the build.
 */
function wouldBlock(c: ReportCandidate): boolean {
  return (c.outcome === 'failed' && !c.timingSensitive && c.failedInBuild !== 'broken') || c.outcome === 'order_dependent' || c.failedInBuild === 'flaky';
}

/** The renamed tests a report names, as `new ← old` (issue 39's `renamed`, at the top level or under `diff`). */
function renamedOf(r: Report): string[] {
  const list = r.renamed ?? (r.diff as { renamed?: Report['renamed'] } | null | undefined)?.renamed ?? [];
  return list.map((x) => `${short(x.suite)}.${x.name}${x.from ? ` ← ${short(x.from.suite)}.${x.from.name}` : ''}`);
}

const short = (suite: string) => suite.split('.').pop()!;
const fmt = (m: Record<string, number>) =>
  Object.entries(m)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');

/**
 * What a human needs to judge a would-have-block: its failures and message, and the test run again
 * in Maven itself (Surefire, `-Dtest=Class#method`) `runs` times on the same commit. A test that
 * failed in the stress pass but passes every Surefire run and failed every repetition is
 * deterministic there: a false block (the repetition's JVM differs from the build's). One that
 * failed some repetitions, or also fails under Surefire, looks flaky.
 */
async function judge(c: ReportCandidate, sha: string, repo: string, runs: number): Promise<Block> {
  const first = c.evidence?.failures?.[0]?.failure;
  const message = first ? `${first.type ?? ''}: ${(first.message ?? '').split('\n').slice(0, 3).join(' / ')}`.slice(0, 300) : (c.why ?? '');
  const failures = `${c.failures ?? 0} of ${c.expected ?? '?'}${c.crashed ? ` (${c.crashed} JVM died)` : ''}`;
  let maven: Block['maven'] = null;
  if (runs > 0) {
    const method = c.name.replace(/[([].*$/, '');
    let passed = 0;
    for (let i = 0; i < runs; i++) {
      const r = await run('mvn', ['-B', '-q', 'surefire:test', `-Dtest=${c.suite}#${method}`, '-Dsurefire.failIfNoSpecifiedTests=false', '-Djacoco.skip=true'], { cwd: repo });
      if (r.code === 0) passed++;
    }
    maven = { passed, runs };
  }
  const every = (c.failures ?? 0) >= (c.expected ?? Number.POSITIVE_INFINITY);
  const judgement =
    c.outcome === 'order_dependent'
      ? 'order-dependent: judge from the partner the probe named'
      : maven && maven.passed === maven.runs && every
        ? 'FALSE BLOCK: deterministic (failed every repetition, passes every Surefire run)'
        : maven && maven.passed < maven.runs
          ? 'flaky: fails under Surefire too'
          : every
            ? 'deterministic in the repetition JVM: likely a false block'
            : 'looks flaky: passed some repetitions, failed others';
  return { commit: sha.slice(0, 8), test: `${c.suite}.${c.name}`, origin: c.origin ?? 'new', outcome: c.outcome, failures, message, maven, judgement };
}

/** Test identities (`class#name`) of Surefire's XML reports in target/surefire-reports of every module. */
function surefireIdentities(repo: string): Set<string> {
  const ids = new Set<string>();
  const dirs: string[] = [];
  const walk = (d: string, depth: number) => {
    if (depth > 4 || !existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (!e.isDirectory() || e.name === 'src' || e.name.startsWith('.')) continue;
      const p = join(d, e.name);
      if (e.name === 'surefire-reports') dirs.push(p);
      else walk(p, depth + 1);
    }
  };
  walk(repo, 0);
  const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
  for (const d of dirs) {
    for (const file of readdirSync(d).filter((x) => x.startsWith('TEST-') && x.endsWith('.xml'))) {
      const xml = readFileSync(join(d, file), 'utf8');
      for (const m of xml.matchAll(/<testcase\s([^>]*)>?/g)) {
        const attrs = m[1]!;
        const name = /\bname="([^"]*)"/.exec(attrs)?.[1];
        const cls = /\bclassname="([^"]*)"/.exec(attrs)?.[1];
        if (name !== undefined && cls !== undefined) ids.add(`${unescape(cls)}#${unescape(name)}`);
      }
    }
  }
  return ids;
}

function printSummary(rows: Row[], blocks: Block[], wallMs: number, o: { mirror: string; seed: string; last: string; product: string }): void {
  log('');
  log(`Replay of ${o.mirror} ${o.seed.slice(0, 8)}..${o.last.slice(0, 8)} (product ${o.product})`);
  log('');
  const head = ['commit', 'subject', 'ids +/-', 'first pass', 'outcome', 'guard', 'candidates', 'stressed', 'renamed', 'outcomes', 'WHB', 'diff', 'time'];
  const cells = rows.map((r) => [
    r.commit,
    r.subject.slice(0, 36),
    `+${r.added} -${r.removed}${r.sameName ? ` (${r.sameName}=)` : ''}`,
    r.firstPass,
    r.outcome,
    r.guard,
    fmt(r.origins),
    fmt(r.stressed),
    String(r.renamed),
    fmt(r.outcomes),
    r.wouldHaveBlocked ? 'yes' : '',
    r.diff,
    sec(r.stepMs),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => `| ${c.map((x, i) => x.padEnd(widths[i]!)).join(' | ')} |`;
  log(line(head));
  log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const c of cells) log(line(c));
  log('');
  const sum = (pick: (r: Row) => number) => rows.reduce((n, r) => n + pick(r), 0);
  const stressedBy = (o: string) => sum((r) => r.stressed[o] ?? 0);
  const candBy = (o: string) => sum((r) => r.origins[o] ?? 0);
  const guards = rows.filter((r) => r.guard).map((r) => `${r.commit} ${r.guard}`);
  const skipped = rows.filter((r) => r.diff.startsWith('skipped'));
  log(`commits replayed as merge requests: ${rows.length}`);
  log(`identities added ${sum((r) => r.added)}, removed ${sum((r) => r.removed)} (${sum((r) => r.sameName)} added with the method name of a removed one)`);
  log(`candidates: new ${candBy('new')}, modified ${candBy('modified')}, diff ${candBy('diff')}; stressed: new ${stressedBy('new')}, modified ${stressedBy('modified')}, diff ${stressedBy('diff')}`);
  log(`renamed tests not stressed: ${sum((r) => r.renamed)}`);
  log(`guards fired: ${guards.length ? guards.join('; ') : 'none'}`);
  log(`diff analysis: ${rows.filter((r) => r.diff.startsWith('analysed')).length} analysed, ${skipped.length} skipped${skipped.length ? ` (${[...new Set(skipped.map((r) => r.diff))].join('; ')})` : ''}, ${rows.filter((r) => r.diff === 'absent').length} absent (a CLI without it)`);
  log(`would-have-blocked merge requests: ${rows.filter((r) => r.wouldHaveBlocked).length}; blocking results: ${blocks.length}`);
  for (const b of blocks) {
    log(`  ${b.commit} ${b.test} [${b.origin}] ${b.outcome}, failed ${b.failures}; Surefire: ${b.maven ? `${b.maven.passed} of ${b.maven.runs} passed` : 'not rechecked'}`);
    log(`    ${b.judgement}`);
    log(`    ${b.message}`);
  }
  log(`false blocks: ${blocks.filter((b) => b.judgement.includes('FALSE BLOCK') || b.judgement.includes('likely a false block')).length}`);
  log(`wall clock: ${(wallMs / 60000).toFixed(1)} min`);
}

/** A command of the replay, killed after 20 minutes (a stress pass has a 10-minute ceiling). */
const run = (cmd: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<Ran> => runCommand(cmd, args, { ...opts, limitMs: 20 * 60_000 });

/** The verdict API of `--product`: its `demo` command on embedded chDB in a fresh data folder, on a loopback port. */
async function startApi(bin: string, work: string): Promise<{ url: string; project: string; token: string; mrToken: string; stop(): Promise<void> }> {
  const envFile = join(work, 'api.env');
  const child: ChildProcess = spawn(process.execPath, [bin, 'demo', '--project', 'replay', '--write-env', envFile], {
    env: { ...process.env, STRESS_GATE_DATA_DIR: join(work, 'chdb'), VERDICT_API_HOST: '127.0.0.1', VERDICT_API_PORT: '0', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    });
  for (let i = 0; i < 240 && !(existsSync(envFile) && readFileSync(envFile, 'utf8').includes('STRESS_GATE_MR_TOKEN')); i++) {
    if (child.exitCode !== null) throw new Error(`the verdict API did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  if (!existsSync(envFile)) {
    await stop();
    throw new Error(`the verdict API did not start within 60 s:\n${output}`);
  }
  const env = Object.fromEntries(
    readFileSync(envFile, 'utf8')
      .split('\n')
      .map((l) => /^(?:export\s+)?([A-Z0-9_]+)=["']?(.*?)["']?$/.exec(l.trim()))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [m[1]!, m[2]!]),
  );
  const need = (k: string) => env[k] ?? (() => { throw new Error(`${envFile} has no ${k}`); })();
  return { url: need('STRESS_GATE_URL'), project: need('STRESS_GATE_PROJECT'), token: need('STRESS_GATE_TOKEN'), mrToken: need('STRESS_GATE_MR_TOKEN'), stop };
}

main().catch((e: unknown) => {
  process.stderr.write(`eval:replay: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
