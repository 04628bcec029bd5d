// The diff analysis's own cost (orchestrator/src/diff/), against suite size: a generated git
// repository of --classes test classes of 25 methods each (JUnit 4 style, 30 lines of body a
// class), a merge request that modifies one test, renames one class and adds one, then per size:
//   - fingerprints of every test (what a CI run of the default branch uploads): source files read,
//     tokenised and hashed;
//   - the merge request's diff analysis (merge base, touched files, their merge-base versions);
// medians of --runs, and the heap growth of the fingerprint pass. No build tool runs: this is the
// time the gate adds after the first pass, before the verdict request (diff) or the upload (fingerprints).
// Needs: npm run build, git on PATH.
//
// Usage: npm run bench:fingerprints [-- --runs 5 --sizes 200,2000]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { execa } from 'execa';
import { diffSources } from '../orchestrator/dist/diff/diff-sources.js';
import type { GitExec } from '../orchestrator/dist/diff/merge-base.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
const RUNS = Number(flag('runs', '5'));
const SIZES = flag('sizes', '200,2000').split(',').map(Number);
const METHODS = 25;

function testClass(name: string, variant = 0): string {
  const methods = Array.from({ length: METHODS }, (_, m) => {
    const body = [`    int total = ${m + variant}; // ${name}`, `    String who = "${name}";`, '    for (int i = 0; i < 10; i++) {', '      total += i; // adds', '    }', `    org.junit.Assert.assertEquals(${m + variant + 45}, total);`].join('\n');
    return `  /** Case ${m}. */\n  @org.junit.Test\n  public void case${m}() {\n${body}\n  }`;
  });
  return `package com.bench.suite;\n\nimport org.junit.Test;\n\npublic class ${name} {\n  private final String label = "${name} { }";\n\n${methods.join('\n\n')}\n}\n`;
}

const git = (cwd: string, ...a: string[]) => execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@x', '-c', 'init.defaultBranch=main', ...a], { cwd, stdio: 'pipe' });
const gitExec = (cwd: string): GitExec => async (a) => {
  const r = await execa('git', a, { cwd, reject: false, stdin: 'ignore', stripFinalNewline: false, maxBuffer: 256 * 1024 * 1024 });
  return { ok: r.exitCode === 0, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? '') };
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function measure(classes: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'stress-gate-bench-fingerprints-'));
  try {
    const file = (i: number) => `src/test/java/com/bench/suite/Suite${i}Test.java`;
    for (let i = 0; i < classes; i++) {
      mkdirSync(dirname(join(dir, file(i))), { recursive: true });
      writeFileSync(join(dir, file(i)), testClass(`Suite${i}Test`));
    }
    git(dir, 'init', '-q');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'main');
    git(dir, 'checkout', '-qb', 'feature');
    writeFileSync(join(dir, file(0)), testClass('Suite0Test', 1)); // every test of it modified
    git(dir, 'mv', file(1), 'src/test/java/com/bench/suite/RenamedTest.java');
    // The class renamed, its bodies as they were (its name in them too).
    writeFileSync(join(dir, 'src/test/java/com/bench/suite/RenamedTest.java'), testClass('Suite1Test').replace('public class Suite1Test', 'public class RenamedTest'));
    writeFileSync(join(dir, 'src/test/java/com/bench/suite/AddedTest.java'), testClass('AddedTest'));
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'feature');
    const tests = [];
    for (let i = 2; i < classes; i++) for (let m = 0; m < METHODS; m++) tests.push({ module: ':', suite: `com.bench.suite.Suite${i}Test`, name: `case${m}` });
    for (const c of ['Suite0Test', 'RenamedTest', 'AddedTest']) for (let m = 0; m < METHODS; m++) tests.push({ module: ':', suite: `com.bench.suite.${c}`, name: `case${m}` });

    const fingerprintMs: number[] = [];
    const diffMs: number[] = [];
    let heapMb = 0;
    let found = 0;
    let summary = '';
    for (let r = 0; r < RUNS; r++) {
      // A fresh source index each run, as each CI run opens its own.
      global.gc?.();
      const heap = process.memoryUsage().heapUsed;
      let t = performance.now();
      const fingerprints = await diffSources(gitExec(dir), dir, {}).fingerprints(tests);
      fingerprintMs.push(performance.now() - t);
      heapMb = Math.max(heapMb, (process.memoryUsage().heapUsed - heap) / 1e6);
      found = fingerprints.size;
      t = performance.now();
      const analysis = await diffSources(gitExec(dir), dir, { STRESS_GATE_BASE_REF: 'main' }).analyse(tests, { headBranch: 'feature', defaultBranch: 'main' });
      diffMs.push(performance.now() - t);
      const changes = [...(analysis?.tests.values() ?? [])].map((x) => x.change.change + (x.change.renamedFrom ? ' (renamed)' : ''));
      summary = ['modified', 'added (renamed)', 'added'].map((k) => `${changes.filter((c) => c === k).length} ${k}`).join(', ');
    }
    console.log(
      `${String(classes).padStart(6)} classes, ${String(tests.length).padStart(7)} tests | fingerprints: ${median(fingerprintMs).toFixed(0).padStart(5)} ms (${found} found, heap +${heapMb.toFixed(0)} MB) | merge request diff: ${median(diffMs).toFixed(0).padStart(4)} ms (${summary})`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`bench:fingerprints: ${METHODS} tests a class, medians of ${RUNS} runs, node ${process.version}`);
for (const size of SIZES) await measure(size);
