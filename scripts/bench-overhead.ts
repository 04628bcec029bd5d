// Benchmark of the orchestrator's overhead on a first pass that has no candidates, through real
// Gradle (Debian's 4.4.1, --offline, warm daemon) and the real verdict API (`verdict-api demo` on
// embedded chDB, a child process on a loopback port, stopped at the end).
// The project's tests are first uploaded as default-branch CI history (a gate run with
// GITLAB_CI=true, CI_COMMIT_REF_NAME=main), so the verdict names no candidates. Then, alternating
// (the order rotates each round), each variant runs `--rounds` times, the gate as a merge
// request's branch (CI_COMMIT_REF_NAME=feature/bench):
//   plain       gradle --offline -q :app:cleanTest :app:test
//   report      stress-orchestrator gradle … --stress-new-tests report   (upload + verdict, no candidates)
//   off+upload  stress-orchestrator gradle … --stress-new-tests off      (API configured: the run is still uploaded)
//   off         stress-orchestrator gradle … --stress-new-tests off      (no API configured)
// and the medians and their differences to plain are printed, with the report run's own account
// (report.overhead): the gate's time before Gradle and from Gradle's end to the decision, which is
// what a stress pass waits for (the upload goes on meanwhile). `--classes N --methods M` sizes the
// suite (default 3 × 4; `--classes 500 --methods 100` is the 50,000-case run of the scale target).
// Needs: npm run build, gradle-plugin/build/libs/stress-gate-gradle-plugin.jar, gradle and java on PATH.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { API_BIN, check, CLI, flags, intFlag, JAR, JUNIT_CP, load, log, median, type Ran, ROOT, run, sec } from './bench-gradle-common.js';

/** :app with `classes` classes × `methods` fast JUnit 4 tests (3 × 4 by default; 500 × 100 for 50,000). */
function writeProject(dir: string, classes: number, methods: number): void {
  const junit = `files(${JUNIT_CP.map((p) => `'${p}'`).join(', ')})`;
  const tree: Record<string, string> = {
    'settings.gradle': "rootProject.name = 'bench'\ninclude 'app'\n",
    'build.gradle': '',
    'app/build.gradle': `apply plugin: 'java'\ndependencies { testCompile ${junit} }\n`,
  };
  for (let c = 0; c < classes; c++) {
    const cls = `Bench${c}Test`;
    const body = Array.from({ length: methods }, (_, i) => `  @Test public void case${i}() { assertEquals(${i * 2}, ${i} + ${i}); }`).join('\n');
    tree[`app/src/test/java/com/bench/${cls}.java`] = `package com.bench;\nimport org.junit.Test;\nimport static org.junit.Assert.*;\npublic class ${cls} {\n${body}\n}\n`;
  }
  for (const [rel, content] of Object.entries(tree)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
}

interface Api {
  url: string;
  project: string;
  token: string;
  stop(): Promise<void>;
}
/** `verdict-api demo` (embedded chDB in a temp dir) on 127.0.0.1 and a free port. */
async function startVerdictApi(dir: string): Promise<Api> {
  const envFile = join(dir, 'api.env');
  const child: ChildProcess = spawn(process.execPath, [API_BIN, 'demo', '--write-env', envFile], {
    env: { ...process.env, VERDICT_API_HOST: '127.0.0.1', VERDICT_API_PORT: '0', STRESS_GATE_DATA_DIR: join(dir, 'chdb'), LOG_LEVEL: 'warn', CLICKHOUSE_URL: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(t);
    }
  };
  const deadline = Date.now() + 60_000;
  let text = '';
  while (!text.includes('STRESS_GATE_TOKEN=')) {
    if (child.exitCode !== null) throw new Error(`verdict-api demo exited with ${child.exitCode}: ${stderr}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`verdict-api demo did not start within 60 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 200));
    text = existsSync(envFile) ? readFileSync(envFile, 'utf8') : '';
  }
  const env = Object.fromEntries(text.trim().split('\n').map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]));
  return { url: env['STRESS_GATE_URL']!, project: env['STRESS_GATE_PROJECT']!, token: env['STRESS_GATE_TOKEN']!, stop };
}

async function main(): Promise<void> {
  const f = flags(process.argv.slice(2));
  const rounds = intFlag(f, 'rounds', 7);
  const classes = intFlag(f, 'classes', 3, 10_000);
  const methods = intFlag(f, 'methods', 4, 10_000);
  if (!existsSync(JAR)) throw new Error(`${JAR} is missing: cd gradle-plugin && gradle --offline -q jar`);
  if (!existsSync(join(ROOT, 'orchestrator/dist/cli.js'))) throw new Error('orchestrator/dist is missing: npm run build');

  const work = mkdtempSync(join(tmpdir(), 'stress-gate-bench-overhead-'));
  const project = join(work, 'project');
  const reportFile = join(work, 'report.json');
  writeProject(project, classes, methods);
  let api: Api | null = null;
  try {
    api = await startVerdictApi(work);
    const base: NodeJS.ProcessEnv = { ...process.env, STRESS_GATE_PLUGIN_JAR: JAR, GITLAB_CI: 'true', CI_COMMIT_REF_NAME: 'main', CI_COMMIT_SHA: 'x' };
    for (const k of ['STRESS_NEW_TESTS', 'GITHUB_ACTIONS', 'GITHUB_STEP_SUMMARY', 'CI_MERGE_REQUEST_SOURCE_BRANCH_NAME', 'STRESS_GATE_URL', 'STRESS_GATE_PROJECT', 'STRESS_GATE_TOKEN']) delete base[k];
    const configured: NodeJS.ProcessEnv = { ...base, STRESS_GATE_URL: api.url, STRESS_GATE_PROJECT: api.project, STRESS_GATE_TOKEN: api.token };
    // The timed gate runs are a merge request's branch, as a gate runs: the CI run of the default
    // branch that seeds the history also waits for its own upload and asks again (it is history).
    const branch: NodeJS.ProcessEnv = { ...configured, CI_COMMIT_REF_NAME: 'feature/bench' };
    const gradleArgs = ['--offline', '-q', ':app:cleanTest', ':app:test'];
    // --cpu-prof-dir DIR: every gate run writes its CPU profile there (open it in Chrome DevTools).
    const profileDir = f.get('cpu-prof-dir');
    const cli = (mode: string) => [...(profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : []), CLI, 'gradle', ...gradleArgs, '--stress-new-tests', mode, '--report-file', reportFile];
    const variants: { name: string; run: () => Promise<Ran> }[] = [
      { name: 'plain gradle', run: () => run('gradle', gradleArgs, { cwd: project, env: configured }) },
      { name: 'gate report (no candidates)', run: () => run(process.execPath, cli('report'), { cwd: project, env: branch }) },
      { name: 'gate off, API configured (uploads the run)', run: () => run(process.execPath, cli('off'), { cwd: project, env: branch }) },
      { name: 'gate off, no API configured', run: () => run(process.execPath, cli('off'), { cwd: project, env: base }) },
    ];

    log(`overhead benchmark: ${classes * methods} test cases (${classes} classes × ${methods}), real verdict API ${api.url} (embedded chDB), ${rounds} rounds × ${variants.length} variants, load ${load()}`);
    // Compile, warm the daemon, and upload the tests as CI history on main.
    check(await run('gradle', ['--offline', '-q', ':app:testClasses'], { cwd: project, env: configured }), 'gradle testClasses');
    check(await run(process.execPath, cli('report'), { cwd: project, env: configured }), 'seeding gate run (main, CI)');
    const seeded = JSON.parse(readFileSync(reportFile, 'utf8')) as { outcome: string; stop: { kind: string } | null; firstPass: { testCases: number } };
    if (seeded.stop?.kind !== 'no_candidates') throw new Error(`expected no candidates after seeding, got ${JSON.stringify(seeded)}`);
    log(`seeded: ${seeded.firstPass.testCases} test cases uploaded as CI history on main; the verdict names none as new`);
    for (const v of variants) check(await v.run(), `warm-up ${v.name}`);

    const samples = variants.map(() => [] as number[]);
    // The report run's own account (report.overhead): before Gradle, and from Gradle's end to the
    // decision (where a stress pass would start): the part of the gate's time a stress pass waits for.
    const before: number[] = [];
    const gradleInGate: number[] = [];
    const after: number[] = [];
    const loads: string[] = [load()];
    for (let r = 0; r < rounds; r++) {
      for (let j = 0; j < variants.length; j++) {
        const i = (r + j) % variants.length; // rotate the order each round
        rmSync(reportFile, { force: true });
        const ran = check(await variants[i]!.run(), variants[i]!.name);
        samples[i]!.push(ran.ms);
        if (i === 1) {
          const rep = JSON.parse(readFileSync(reportFile, 'utf8')) as { stop: { kind: string } | null; overhead?: { beforeFirstPassMs: number; firstPassMs: number; afterFirstPassMs: number } };
          if (rep.stop?.kind !== 'no_candidates') throw new Error(`report run found candidates: ${JSON.stringify(rep)}`);
          if (!rep.overhead) throw new Error(`the report has no overhead figures: ${JSON.stringify(rep)}`);
          before.push(rep.overhead.beforeFirstPassMs);
          gradleInGate.push(rep.overhead.firstPassMs);
          after.push(rep.overhead.afterFirstPassMs);
        }
      }
      loads.push(load());
    }
    const plain = median(samples[0]!);
    log('');
    const w = Math.max(...variants.map((v) => v.name.length));
    log(`${'variant'.padEnd(w)}   median    min       max       − plain (median)`);
    variants.forEach((v, i) => {
      const s = samples[i]!;
      const d = median(s) - plain;
      log(`${v.name.padEnd(w)}   ${sec(median(s)).padEnd(8)}  ${sec(Math.min(...s)).padEnd(8)}  ${sec(Math.max(...s)).padEnd(8)}  ${i === 0 ? '' : `${d >= 0 ? '+' : ''}${(d / 1000).toFixed(2)} s`}`);
    });
    log('');
    log(`report run, its own account (ms): before Gradle ${before.join(' ')}; Gradle ${gradleInGate.join(' ')}; Gradle's end to the decision ${after.join(' ')}`);
    log(`samples (ms): ${variants.map((v, i) => `${v.name}: ${samples[i]!.map((x) => x.toFixed(0)).join(' ')}`).join('; ')}`);
    log(`load average (1/5/15 min) before, then after each round: ${loads.join(' | ')}`);
    const over = median(samples[1]!) - plain;
    const untilDecision = median(before) + median(after);
    log(`report run, its own account (median): ${sec(median(before))} before Gradle + ${sec(median(after))} from Gradle's end to the decision = ${sec(untilDecision)} before a stress pass could start; the rest of the ${sec(over)} is waiting for the run's upload to be stored`);
    log(`target: report-mode overhead before the stress pass < 1 s: ${sec(untilDecision)} ${untilDecision < 1000 ? 'MET' : 'MISSED'}; whole run over plain Gradle: +${(over / 1000).toFixed(2)} s`);
  } finally {
    await api?.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
