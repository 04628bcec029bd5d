#!/usr/bin/env node
// The Java test counts for `make test`'s log: `node scripts/junit-counts.mjs <label> <dir>` sums the
// JUnit XML reports (TEST-*.xml) that Gradle or Surefire left in <dir> and prints one line. Fails
// when there is no report or no test, so that a run that ran nothing does not pass as green.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const [label, dir] = process.argv.slice(2);
if (!label || !dir) {
  console.error('usage: node scripts/junit-counts.mjs <label> <dir of TEST-*.xml>');
  process.exit(2);
}
let files = [];
try {
  files = readdirSync(dir).filter((f) => /^TEST-.*\.xml$/.test(f));
} catch {
  // No such directory: reported below as no reports.
}
const total = { classes: files.length, tests: 0, failures: 0, errors: 0, skipped: 0 };
for (const f of files) {
  const suite = /<testsuite\b[^>]*>/.exec(readFileSync(path.join(dir, f), 'utf8'))?.[0] ?? '';
  for (const key of ['tests', 'failures', 'errors', 'skipped']) {
    total[key] += Number(new RegExp(`\\s${key}="(\\d+)"`).exec(suite)?.[1] ?? 0);
  }
}
const passed = total.tests - total.failures - total.errors - total.skipped;
console.log(`${label}: ${total.tests} tests in ${total.classes} classes: ${passed} passed, ${total.failures} failed, ${total.errors} errors, ${total.skipped} skipped`);
if (total.tests === 0) {
  console.error(`${label}: no JUnit XML reports with tests in ${dir}`);
  process.exit(1);
}
process.exit(total.failures + total.errors > 0 ? 1 : 0);
