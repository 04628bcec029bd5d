// The order probe's cost against suite size, through real Gradle (Debian's 4.4.1, --offline) and a
// fake verdict API on loopback: 3 fast new tests in a generated module of 20, 250 and 2,000 old test
// classes (4 tests each). Per size, interleaved rounds of the gate with the probe on and off
// (STRESS_GATE_ORDER_PROBE=0), report mode, the default executor and curve; it prints the probe's
// own wall clock (orderProbe.wallClockMs from the JSON report), its pairs and JVMs, and the whole
// gate run's wall time with and without it, medians of --runs. The probe's sample is bounded (its
// class's tests and 6 classes × 4 tests a candidate), so its cost must stay flat in suite size.
// Needs: npm run build, the plugin jar (make plugin), gradle and java on PATH.
//
// Usage: npm run bench:order-probe [-- --runs 3 --sizes 20,250,2000]
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startFakeVerdict } from './bench-fake-verdict.js';
import { check, CLI, flags, intFlag, JAR, JUNIT_CP, load, log, median, ROOT, run, sec, table } from './bench-gradle-common.js';

const JUNIT = `files(${JUNIT_CP.map((p) => `'${p}'`).join(', ')})`;
const NEW = ['addsNumbers', 'joinsStrings', 'sortsList'];

/** :app with NewTest (the 3 candidates) and `oldClasses` generated old classes of 4 tests. */
function writeProject(dir: string, oldClasses: number): void {
  const tree: Record<string, string> = {
    'settings.gradle': "rootProject.name = 'bench'\ninclude 'app'\n",
    'build.gradle': '',
    'app/build.gradle': `apply plugin: 'java'\ndependencies { testCompile ${JUNIT} }\n`,
    'app/src/test/java/com/bench/NewTest.java': `package com.bench;\nimport org.junit.Test;\nimport static org.junit.Assert.*;\npublic class NewTest {\n${NEW.map((m, i) => `  @Test public void ${m}() throws Exception { long s = 0; for (int i = 0; i < 100000; i++) s += i * ${i + 1}; assertTrue(s > 0); Thread.sleep(3); }`).join('\n')}\n}\n`,
  };
  for (let i = 0; i < oldClasses; i++) {
    const methods = [0, 1, 2, 3].map((m) => `  @Test public void case${m}() { org.junit.Assert.assertEquals(${m * 2}, ${m} + ${m}); }`).join('\n');
    tree[`app/src/test/java/com/bench/old/Old${i}Test.java`] = `package com.bench.old;\nimport org.junit.Test;\npublic class Old${i}Test {\n${methods}\n}\n`;
  }
  for (const [rel, content] of Object.entries(tree)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
}

interface Report {
  orderProbe: { seed: number; candidates: number; pairs: number; jvms: number; predictedMs: number; wallClockMs: number; cut: boolean } | null;
  stressPass: { wallClockMs: number } | null;
  candidates: { name: string; outcome: string; orderProbe?: { status: string; partners: number; partnersRun: number; moduleClasses: number; findings: unknown[] } }[];
}

interface Sample { wallMs: number; report: Report }

async function gateOnce(dir: string, url: string, probe: boolean): Promise<Sample> {
  const file = join(dir, 'report.json');
  const env: NodeJS.ProcessEnv = { ...process.env, STRESS_GATE_URL: url, STRESS_GATE_PROJECT: 'bench', STRESS_GATE_TOKEN: 't', STRESS_GATE_PLUGIN_JAR: JAR, STRESS_GATE_ORDER_PROBE: probe ? '1' : '0' };
  for (const k of ['STRESS_NEW_TESTS', 'GITHUB_ACTIONS', 'GITLAB_CI', 'GITHUB_STEP_SUMMARY', 'CI', 'STRESS_GATE_ORDER_SEED', 'STRESS_GATE_ORDER_PROBE_SECONDS', 'STRESS_GATE_EXECUTOR']) delete env[k];
  const r = check(await run(process.execPath, [CLI, 'gradle', '--offline', '-q', ':app:cleanTest', ':app:test', '--stress-new-tests', 'report', '--report-file', file], { cwd: dir, env }), `gate (probe ${probe ? 'on' : 'off'})`);
  const report = JSON.parse(readFileSync(file, 'utf8')) as Report;
  const bad = report.candidates.length !== NEW.length || report.candidates.some((c) => c.outcome !== 'passed');
  const probeBad = probe ? !report.orderProbe || report.orderProbe.cut || report.candidates.some((c) => c.orderProbe?.status !== 'probed' || c.orderProbe.findings.length > 0) : report.orderProbe != null;
  if (bad || probeBad) throw new Error(`unexpected report (probe ${probe ? 'on' : 'off'}): ${JSON.stringify({ orderProbe: report.orderProbe, candidates: report.candidates })}`);
  return { wallMs: r.ms, report };
}

async function main(): Promise<void> {
  const f = flags(process.argv.slice(2));
  const runs = intFlag(f, 'runs', 3);
  const sizes = (f.get('sizes') ?? '20,250,2000').split(',').map(Number);
  if (!existsSync(JAR)) throw new Error(`${JAR} is missing: make plugin`);
  if (!existsSync(join(ROOT, 'orchestrator/dist/cli.js'))) throw new Error('orchestrator/dist is missing: npm run build');
  const work = mkdtempSync(join(tmpdir(), 'stress-gate-bench-order-'));
  const fake = await startFakeVerdict((p) => p.suite === 'com.bench.NewTest');
  const t0 = performance.now();
  log(`bench:order-probe: ${NEW.length} new tests in modules of ${sizes.join(', ')} old test classes (4 tests each), --runs ${runs}, probe on and off interleaved; load ${load()}`);
  try {
    const dirs = sizes.map((n) => join(work, `suite-${n}`));
    sizes.forEach((n, i) => writeProject(dirs[i]!, n));
    const on = new Map<number, Sample[]>(sizes.map((n) => [n, []]));
    const off = new Map<number, Sample[]>(sizes.map((n) => [n, []]));
    // A warm-up a size (compiles it, warms the daemon), then rounds interleaved across sizes and
    // settings, so the machine's drift falls on all alike.
    for (const dir of dirs) await gateOnce(dir, fake.url, true);
    for (let r = 0; r < runs; r++) {
      for (const [i, dir] of dirs.entries()) {
        on.get(sizes[i]!)!.push(await gateOnce(dir, fake.url, true));
        off.get(sizes[i]!)!.push(await gateOnce(dir, fake.url, false));
      }
      log(`  round ${r + 1}/${runs} (${((performance.now() - t0) / 1000).toFixed(0)} s, load ${load()})`);
    }
    log('');
    const probeMs = sizes.map((n) => median(on.get(n)!.map((s) => s.report.orderProbe!.wallClockMs)));
    const rows = sizes.map((n, i) => {
      const xs = on.get(n)!;
      const first = xs[0]!.report;
      const c = first.candidates[0]!.orderProbe!;
      const withProbe = median(xs.map((s) => s.wallMs));
      const without = median(off.get(n)!.map((s) => s.wallMs));
      return [
        `${n} (+1 new)`,
        String(c.moduleClasses),
        `${first.orderProbe!.pairs}`,
        `${first.orderProbe!.jvms}`,
        `${sec(probeMs[i]!)} (${xs.map((s) => sec(s.report.orderProbe!.wallClockMs)).join(', ')})`,
        sec(median(xs.map((s) => s.report.stressPass?.wallClockMs ?? 0))),
        sec(withProbe),
        sec(without),
        sec(withProbe - without),
      ];
    });
    table(['old test classes', 'other classes', 'pairs', 'JVMs', 'probe wall clock (runs)', 'stress pass', 'gate run, probe on', 'probe off', 'difference'], rows);
    log('');
    const spread = Math.max(...probeMs) / Math.min(...probeMs) - 1;
    log(`probe wall clock, max/min − 1 across sizes: ${(spread * 100).toFixed(0)}%; seeds drawn by the gate: ${sizes.flatMap((n) => on.get(n)!.map((s) => s.report.orderProbe!.seed)).join(', ')}`);
    log(`medians of ${runs}; ${((performance.now() - t0) / 60000).toFixed(1)} min in all; load ${load()}`);
  } finally {
    await fake.close();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
