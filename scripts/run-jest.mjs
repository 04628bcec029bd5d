// Runs jest (the README's `npm test`, and test:unit / test:integration) with a temp folder of
// its own under the system's (TMPDIR moves it): removed when every test passed, kept with its
// path printed when one failed. Before it, every run left about 90 MB of folders behind
// (fake Gradle projects, Maven stress passes, JUnit XML files and more).
// Arguments are passed to jest as they are.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { constants as os, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const runDir = mkdtempSync(join(tmpdir(), 'stress-gate-tests-'));
console.log(`tests: temp files in ${runDir}`);

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
