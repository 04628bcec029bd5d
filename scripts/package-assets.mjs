#!/usr/bin/env node
// Copies what each npm package needs at run time into that package, so that an installed
// tarball never refers to this repository's checkout. Sources of truth stay where they are:
//   contract    verdict-api/dist/{contract,identity/test-case-id,contract-markdown,reproduce-command}.{js,d.ts} -> orchestrator/vendor/
//               (the orchestrator imports them as #contract, #identity, #markdown and #reproduce, see its package.json)
//   plugin      gradle-plugin/build/libs/stress-gate-gradle-plugin.jar and the init-script
//               template -> orchestrator/gradle-plugin/ (fails when the jar is not built)
//   migrations  clickhouse/migrations/*.sql -> verdict-api/migrations/
//   queries     clickhouse/queries/*.sql (telemetry) -> verdict-api/queries/
// Usage: node scripts/package-assets.mjs contract|plugin|migrations...
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const at = (...parts) => path.join(root, ...parts);

/**
 * Writes `content` to `to` only when it differs, through a rename: tests running in parallel may
 * have the file open (a Gradle daemon holds the jar), and must never see it half written.
 */
function put(to, content) {
  if (existsSync(to) && readFileSync(to).equals(content)) return;
  mkdirSync(path.dirname(to), { recursive: true });
  const tmp = `${to}.${process.pid}.tmp`;
  writeFileSync(tmp, content);
  renameSync(tmp, to);
}

/** Makes `dir` hold exactly `files` (name -> content), touching only what changed. */
function sync(dir, files) {
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(dir)) if (!(name in files)) rmSync(path.join(dir, name), { recursive: true, force: true });
  for (const [name, content] of Object.entries(files)) put(path.join(dir, name), content);
}

function read(file, hint) {
  if (!existsSync(file)) throw new Error(`${path.relative(root, file)} is missing: ${hint}`);
  return readFileSync(file);
}

/** Compiled JS without its source-map comment: the .ts sources are not shipped. */
function compiled(file) {
  const text = read(file, 'build verdict-api first (npm run build)').toString('utf8');
  return Buffer.from(text.replace(/\n\/\/# sourceMappingURL=.*\n?$/, '\n'));
}

const tasks = {
  contract() {
    const files = {};
    for (const [from, name] of [
      [at('verdict-api', 'dist', 'contract'), 'contract'],
      [at('verdict-api', 'dist', 'identity', 'test-case-id'), 'test-case-id'],
      [at('verdict-api', 'dist', 'contract-markdown'), 'contract-markdown'],
      [at('verdict-api', 'dist', 'reproduce-command'), 'reproduce-command'],
    ]) {
      files[`${name}.js`] = compiled(`${from}.js`);
      files[`${name}.d.ts`] = compiled(`${from}.d.ts`);
    }
    sync(at('orchestrator', 'vendor'), files);
  },
  plugin() {
    sync(at('orchestrator', 'gradle-plugin'), {
      'stress-gate-gradle-plugin.jar': read(at('gradle-plugin', 'build', 'libs', 'stress-gate-gradle-plugin.jar'), 'build it first (make plugin)'),
      'stress-gate.init.gradle': read(at('gradle-plugin', 'stress-gate.init.gradle'), 'the template is part of the repository'),
    });
  },
  migrations() {
    const from = at('clickhouse', 'migrations');
    const files = {};
    for (const name of readdirSync(from).filter((f) => f.endsWith('.sql'))) files[name] = readFileSync(path.join(from, name));
    sync(at('verdict-api', 'migrations'), files);
    // The query files (one question each) travel with the migrations.
    const queries = {};
    for (const name of readdirSync(at('clickhouse', 'queries')).filter((f) => f.endsWith('.sql'))) queries[name] = readFileSync(at('clickhouse', 'queries', name));
    sync(at('verdict-api', 'queries'), queries);
  },
  queries() {
    const from = at('clickhouse', 'queries');
    const files = {};
    for (const name of readdirSync(from).filter((f) => f.endsWith('.sql'))) files[name] = readFileSync(path.join(from, name));
    sync(at('verdict-api', 'queries'), files);
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
