// How this CLI was started, so that the reproduce command starts it the same way where the author
// stands: installed in the project (its node_modules), or anything else (the npx cache, a global
// install, this repository's checkout), run again as the scoped package at this version. There is
// no third way: no Gradle or Maven integration starts the CLI (the CLI starts the build; the Gradle
// plugin's settings block only configures it).
import path from 'node:path';
import type { ReproduceLauncher } from '#reproduce';

/**
 * `local` when the package sits in a node_modules folder of the project directory or of a folder
 * above it (where `npx` looks for a local install); else `package` at `version`. Pure.
 */
export function launcherOf(packageDir: string, projectDir: string, version: string): ReproduceLauncher {
  const pkg = path.resolve(packageDir).split(path.sep);
  const at = pkg.lastIndexOf('node_modules');
  if (at > 0) {
    const owner = pkg.slice(0, at).join(path.sep) || path.sep;
    const rel = path.relative(owner, path.resolve(projectDir));
    if (rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel))) return { kind: 'local' };
  }
  return { kind: 'package', version };
}
