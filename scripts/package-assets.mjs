#!/usr/bin/env node
// Copies what each npm package needs at run time into that package, so that an installed
// tarball never refers to this repository's checkout. Sources of truth stay where they are:
//   contract    verdict-api/dist/{contract,identity/test-case-id}.{js,d.ts} -> orchestrator/vendor/
//               (the orchestrator imports them as #contract and #identity, see its package.json)
//   plugin      gradle-plugin/build/libs/stress-gate-gradle-plugin.jar and the init-script
//               template -> orchestrator/gradle-plugin/ (fails when the jar is not built)
//   migrations  clickhouse/migrations/*.sql -> verdict-api/migrations/
// Usage: node scripts/package-assets.mjs contract|plugin|migrations...
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const at = (...parts) => path.join(root, ...parts);

/** Copies compiled JS without its source-map comment: the .ts sources are not shipped. */
function copyCompiled(from, to) {
  if (!existsSync(from)) throw new Error(`${path.relative(root, from)} is missing: build verdict-api first (npm run build)`);
  const text = readFileSync(from, 'utf8').replace(/\n\/\/# sourceMappingURL=.*\n?$/, '\n');
  writeFileSync(to, text);
}

const tasks = {
  contract() {
    const out = at('orchestrator', 'vendor');
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    for (const [from, name] of [
      [at('verdict-api', 'dist', 'contract'), 'contract'],
      [at('verdict-api', 'dist', 'identity', 'test-case-id'), 'test-case-id'],
    ]) {
      copyCompiled(`${from}.js`, path.join(out, `${name}.js`));
      copyCompiled(`${from}.d.ts`, path.join(out, `${name}.d.ts`));
    }
  },
  plugin() {
    const jar = at('gradle-plugin', 'build', 'libs', 'stress-gate-gradle-plugin.jar');
    if (!existsSync(jar)) {
      throw new Error('gradle-plugin/build/libs/stress-gate-gradle-plugin.jar is missing: build it first (make plugin)');
    }
    const out = at('orchestrator', 'gradle-plugin');
    mkdirSync(out, { recursive: true });
    copyFileSync(jar, path.join(out, 'stress-gate-gradle-plugin.jar'));
    copyFileSync(at('gradle-plugin', 'stress-gate.init.gradle'), path.join(out, 'stress-gate.init.gradle'));
  },
  migrations() {
    const from = at('clickhouse', 'migrations');
    const out = at('verdict-api', 'migrations');
    rmSync(out, { recursive: true, force: true });
    mkdirSync(out, { recursive: true });
    for (const file of readdirSync(from).filter((f) => f.endsWith('.sql'))) copyFileSync(path.join(from, file), path.join(out, file));
  },
};

const names = process.argv.slice(2);
if (names.length === 0 || names.some((n) => !(n in tasks))) {
  process.stderr.write(`usage: package-assets.mjs ${Object.keys(tasks).join('|')}...\n`);
  process.exit(2);
}
try {
  for (const name of names) tasks[name]();
} catch (error) {
  process.stderr.write(`package-assets: ${error.message}\n`);
  process.exit(1);
}
