// Benchmark of naming a first pass's test cases: the Gradle adapter's units (each case's locator:
// its Test task, its occurrence) and the core's identities (assignIdentities: module, suite, name,
// " [#n]" for a repeated name) for a suite of --cases (50,000) results in one Test task, a tenth of
// them invocations of parameterised methods that repeat a name. Pure computation on the built
// orchestrator (npm run build first): medians of --runs (15) after two warm-up runs, and the load.
import { loadavg } from 'node:os';
import type { TaskResults } from '../orchestrator/dist/first-pass/read-results.js';
import { assignIdentities } from '../orchestrator/dist/first-pass/test-case-result.js';
import { gradleUnits } from '../orchestrator/dist/gradle/gradle-locator.js';
import { flagMap } from './bench-util.js';

const flags = flagMap(process.argv.slice(2));
const count = (name: string, fallback: number): number => {
  const n = Number((flags.get(name) ?? String(fallback)).replaceAll('_', ''));
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a positive integer`);
  return n;
};
const cases = count('cases', 50_000);
const runs = count('runs', 15);

// 100 tests a class; every tenth class is parameterised: its 100 results share 10 names, 10 times each.
const results: TaskResults['cases'] = [];
for (let i = 0; i < cases; i++) {
  const c = Math.floor(i / 100);
  const name = c % 10 === 9 ? `adds[${i % 10}]` : `case${i % 100}`;
  results.push({ suite: `com.bench.Bench${c}Test`, name, status: 'success', durationMs: 1 });
}
const tasks: TaskResults[] = [{ task: ':app:test', module: ':app', cases: results }];

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const units: number[] = [];
const named: number[] = [];
let last = 0;
for (let i = 0; i < runs + 2; i++) {
  const t0 = performance.now();
  const u = gradleUnits(tasks, new Map());
  const t1 = performance.now();
  last = assignIdentities(u).length;
  const t2 = performance.now();
  if (i >= 2) {
    units.push(t1 - t0);
    named.push(t2 - t1);
  }
}
if (last !== cases) throw new Error(`${last} identities for ${cases} results`);
console.log(`${cases.toLocaleString('en')} results in one Test task, median of ${runs} runs (load ${loadavg()[0]!.toFixed(1)}):`);
console.log(`  the Gradle adapter's units and locators (gradleUnits): ${median(units).toFixed(1)} ms`);
console.log(`  the core's identities (assignIdentities):             ${median(named).toFixed(1)} ms`);
