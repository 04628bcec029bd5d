// Runs jest (the README's `npm test`, and test:unit / test:integration) with a temp folder of
// its own, removed when every test passed and kept, with its path printed, when one failed.
// The folder is on tmpfs (/dev/shm) when there is one with room, unless TMPDIR says where: the
// tests create many files (ClickHouse parts, Gradle and Maven projects, JUnit XML), and on this
// project's CI machines creating a file on ext4 cost 100-1,400 µs of the kernel's CPU against
// 15-30 µs on tmpfs (scripts/bench-util.ts, fileCreationUs): the whole suite took 596 s there
// against 884 s. Arguments are passed to jest as they are.
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, statfsSync } from 'node:fs';
import { constants as os, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TMPFS = '/dev/shm';
const TMPFS_MAGIC = 0x01021994;
/** Free room tmpfs must have to be chosen: the suite leaves under 100 MB, a build in flight more. */
const TMPFS_MIN_FREE = 4 * 2 ** 30;

/** Where the run's folder goes, and why (one line for the log). */
function base() {
  if (process.env.TMPDIR) return { dir: process.env.TMPDIR, why: 'TMPDIR' };
  try {
    const fs = statfsSync(TMPFS);
    accessSync(TMPFS, constants.W_OK);
    const free = fs.bavail * fs.bsize;
    if (fs.type === TMPFS_MAGIC && free >= TMPFS_MIN_FREE) return { dir: TMPFS, why: `tmpfs, ${(free / 2 ** 30).toFixed(0)} GiB free` };
    return { dir: tmpdir(), why: `${TMPFS} is ${fs.type === TMPFS_MAGIC ? `tmpfs with ${(free / 2 ** 20).toFixed(0)} MiB free` : 'not tmpfs'}` };
  } catch (error) {
    return { dir: tmpdir(), why: `${TMPFS}: ${error.code ?? error.message}` };
  }
}

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const { dir, why } = base();
const runDir = mkdtempSync(join(dir, 'stress-gate-tests-'));
console.log(`tests: temp files in ${runDir} (${why}; set TMPDIR to choose)`);

const jest = spawn(process.execPath, ['--experimental-vm-modules', join(root, 'node_modules/jest/bin/jest.js'), ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, TMPDIR: runDir },
});
// Ctrl-C reaches jest through the terminal's process group; a signal sent to this process alone is passed on.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => jest.kill(signal));
jest.on('exit', (code, signal) => {
  if (code === 0) rmSync(runDir, { recursive: true, force: true });
  else console.error(`tests: temp files kept in ${runDir}`);
  process.exit(code ?? 128 + (os.signals[signal] ?? 0));
});
