// Where this npm package is installed: the jars and the init-script template ship inside it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const NAME = '@stress-gate/orchestrator';
let found: string | undefined;

/** This npm package's root: the nearest folder above this module (src/, dist/ or dist/bundle/) whose package.json is the CLI's. */
export function packageRoot(): string {
  if (found) return found;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      if ((JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string }).name === NAME) return (found = dir);
    } catch {
      // No package.json here (or not JSON): keep going up.
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot find the ${NAME} package above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}
