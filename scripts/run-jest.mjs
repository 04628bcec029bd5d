// Runs jest (the README's `npm test`, and test:unit / test:integration) with a temp folder of
// its own under the system's (TMPDIR moves it): removed when every test passed, kept with its
// path printed when one failed. Before it, every run left about 90 MB of folders behind
// (fake Gradle projects, Maven stress passes, JUnit XML files and more).
//
// With no arguments (the whole suite) the files run in three groups (scripts/test-groups.mjs):
// the files that run Maven, one at a time (they share ~/.m2), side by side with every other file
// but the timed ones, one at a time; then the timed ones alone (latency and memory bounds measured
// on a quiet machine). A test run used about half of two cores one file at a time. Each line of a
// group running beside another is led by the group's name. With arguments, they are passed to
// jest as they are, in one jest.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { constants as os, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ALONE, MAVEN, pattern } from './test-groups.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const runDir = mkdtempSync(join(tmpdir(), 'stress-gate-tests-'));
console.log(`tests: temp files in ${runDir}`);

const running = new Set();
// Ctrl-C reaches jest through the terminal's process group; a signal sent to this process alone is passed on.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => running.forEach((child) => child.kill(signal)));

/** Runs one jest; `name` set: its output lines are led by it (another jest writes beside it). */
function jest(args, name) {
  const child = spawn(process.execPath, ['--experimental-vm-modules', join(root, 'node_modules/jest/bin/jest.js'), ...args], {
    cwd: root,
    stdio: name ? ['inherit', 'pipe', 'pipe'] : 'inherit',
    env: { ...process.env, TMPDIR: runDir },
  });
  running.add(child);
  if (name) {
    for (const [stream, out] of [[child.stdout, process.stdout], [child.stderr, process.stderr]]) {
      createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => out.write(`[${name}] ${line}\n`));
    }
  }
  const started = Date.now();
  return new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      running.delete(child);
      resolve({ name: name ?? 'jest', code: code ?? 128 + (os.signals[signal] ?? 0), seconds: Math.round((Date.now() - started) / 1000) });
    });
  });
}

function finish(results) {
  const failed = results.find((r) => r.code !== 0);
  if (results.length > 1) console.log(`tests: ${results.map((r) => `${r.name} ${r.code === 0 ? 'passed' : `failed (exit ${r.code})`} in ${r.seconds} s`).join('; ')}`);
  if (!failed) rmSync(runDir, { recursive: true, force: true });
  else console.error(`tests: temp files kept in ${runDir}`);
  process.exit(failed ? failed.code : 0);
}

const args = process.argv.slice(2);
if (args.length > 0) finish([await jest(args)]);
else {
  const beside = await Promise.all([
    jest(['--runInBand', '--selectProjects', 'integration:orchestrator', '--', pattern(MAVEN)], 'maven'),
    jest(['--runInBand', '--testPathIgnorePatterns', pattern(MAVEN), pattern(ALONE)], 'rest'),
  ]);
  // The timed files run even when a group failed: every failure is seen in one run.
  const alone = await jest(['--runInBand', '--', pattern(ALONE)], 'timed');
  finish([...beside, alone]);
}
