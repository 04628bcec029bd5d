// Bundles the orchestrator's compiled entry (dist/bin.js) and its dependencies into one ES module,
// dist/bundle/stress-orchestrator.js, which bin/stress-orchestrator.js loads: resolving and
// compiling several hundred small modules (execa, pino, env-ci, valibot, sax) cost about 0.25 s
// at every start. packageRoot() finds the package from there as from dist/ (the nearest package.json).
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const orchestrator = join(dirname(fileURLToPath(import.meta.url)), '..', 'orchestrator');
await build({
  entryPoints: [join(orchestrator, 'dist', 'bin.js')],
  outfile: join(orchestrator, 'dist', 'bundle', 'stress-orchestrator.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // CommonJS dependencies (sax, pino) call require() for Node's own modules.
  banner: { js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);" },
  legalComments: 'none',
  logLevel: 'warning',
});
