// The Maven example (examples/maven-multi) copied to a temp dir, its feature overlay, and a warm
// ~/.m2: the Maven tests run `mvn -o` after one online resolution per test file.
import { cp, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

const EXAMPLES = fileURLToPath(new URL('../../../examples/', import.meta.url));

/** Maven arguments every test run uses: offline, quiet, no summary, the slow test kept short. */
export const MVN_ARGS = ['-o', '-q', '-B', '-Dsurefire.printSummary=false', '-Dexample.slowMs=20'];

/** Copies the default-branch state of examples/maven-multi into a new temp dir. */
export async function mavenExample(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'stress-gate-maven-'));
  await cp(path.join(EXAMPLES, 'maven-multi'), dir, { recursive: true });
  return dir;
}

/** Applies the feature branch's overlay (examples/maven-feature-overlay). */
export async function applyFeatureOverlay(dir: string): Promise<void> {
  await cp(path.join(EXAMPLES, 'maven-feature-overlay'), dir, { recursive: true });
}

/** Resolves every plugin and dependency the example needs into ~/.m2 (online once; no-op when warm). */
export async function warmMaven(): Promise<void> {
  const dir = await mavenExample();
  const r = await execa('mvn', ['-q', '-B', '-Dsurefire.printSummary=false', '-Dexample.slowMs=1', 'clean', 'test'], { cwd: dir, reject: false, stdin: 'ignore' });
  if (r.exitCode !== 0) throw new Error(`warming ~/.m2 failed (mvn exit ${r.exitCode}):\n${String(r.stdout).slice(-3000)}\n${String(r.stderr).slice(-3000)}`);
}
