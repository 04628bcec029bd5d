// The order probe's half of bench:detection: the gate on the corpus's :order module (13 test
// classes, scripts/flaky-archetypes/order), whose new tests are order archetypes (victims and
// polluters of old tests, through a static or a leaked resource, in the same class or in another
// class) and ten stable tests. Each gate run replays its own seed (STRESS_GATE_ORDER_SEED), and
// gets one repetition a candidate (the fake verdict's curve): the probe runs after the repetitions
// and does not depend on their count. Per archetype: caught/trials, the Wilson 95% interval, the
// expectation from the sample size (chanceToMeet), and false findings on the stable tests.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chanceToMeet, DEFAULT_PROBE_BOUNDS, seededRandom } from '../orchestrator/dist/order-probe/plan-probe.js';
import { DEFAULT_STRESS_PARAMETERS } from '../verdict-api/dist/contract.js';
import { startFakeVerdict } from './bench-fake-verdict.js';
import { CLI, load, log, pct, range, run, table, wilson } from './bench-gradle-common.js';

const PKG = 'archetypes.order';

interface OrderArchetype {
  label: string;
  suite: string;
  name: string;
  role: 'victim' | 'polluter';
  /** The old test it depends on or breaks. */
  other: { suite: string; name: string };
  /** Tests of the other's class (the probe samples perSampledClass of them). */
  otherClassSize: number;
  sameClass: boolean;
}

const A = (cls: string) => `${PKG}.${cls}`;
export const ORDER_ARCHETYPES: OrderArchetype[] = [
  { label: 'victim of a static, same class', suite: A('OwnerTest'), name: 'a_needsNoOwner', role: 'victim', other: { suite: A('OwnerTest'), name: 'm_claimsOwner' }, otherClassSize: 3, sameClass: true },
  { label: 'polluter of a static, same class', suite: A('ModeTest'), name: 'z_setsMode', role: 'polluter', other: { suite: A('ModeTest'), name: 'b_defaultMode' }, otherClassSize: 3, sameClass: true },
  { label: 'leaked port, same class', suite: A('ServerTest'), name: 'z_startsServerAndForgets', role: 'polluter', other: { suite: A('ServerTest'), name: 'b_bindsServicePort' }, otherClassSize: 3, sameClass: true },
  { label: 'victim of a static, other class', suite: A('PriceFormatTest'), name: 'formatsInDollars', role: 'victim', other: { suite: A('CurrencyTest'), name: 'switchesToEuro' }, otherClassSize: 2, sameClass: false },
  { label: 'leaked thread, other class', suite: A('CacheWarmerTest'), name: 'startsRefresherAndForgets', role: 'polluter', other: { suite: A('ThreadHygieneTest'), name: 'leavesNoRefresherRunning' }, otherClassSize: 2, sameClass: false },
];
const STABLE = ['addsNumbers', 'joinsStrings', 'sortsList', 'reversesList', 'hashesText', 'parsesInts', 'formatsDates', 'splitsWords', 'mapsKeys', 'roundsHalfUp'].map((name) => ({ suite: A('StableNewTest'), name }));
const key = (t: { suite: string; name: string }) => `${t.suite}#${t.name}`;
const NEW = new Set([...ORDER_ARCHETYPES, ...STABLE].map(key));

interface Finding { role: string; other: { suite: string; name: string } }
interface ReportCandidate { suite: string; name: string; outcome: string; orderProbe?: { status: string; seed: number; moduleClasses: number; sampledClasses: number; findings: Finding[]; notes: string[] } }
interface Report { orderProbe: { seed: number; jvms: number; pairs: number; wallClockMs: number; cut: boolean } | null; candidates: ReportCandidate[] }

export interface OrderOptions {
  project: string;
  work: string;
  trials: number;
  /** The first trial's seed source: each trial's seed is drawn from it, all distinct. */
  seed: number;
  executor: string;
  env: NodeJS.ProcessEnv;
  initScript: string;
}

/** Runs the order trials and prints their table; returns how many false findings there were. */
export async function orderTrials(o: OrderOptions): Promise<number> {
  // One repetition a candidate: the probe only needs them to have passed one.
  const fake = await startFakeVerdict((p) => NEW.has(key(p)), { ...DEFAULT_STRESS_PARAMETERS, bulkChangeFloor: 1000, curve: [{ maxDurationMs: 300_000, bound: 'exclusive', repetitions: 1 }] });
  const draw = seededRandom(o.seed);
  const seeds: number[] = [];
  while (seeds.length < o.trials) {
    const s = Math.floor(draw() * 2 ** 32);
    if (!seeds.includes(s)) seeds.push(s);
  }
  const tally = new Map(ORDER_ARCHETYPES.map((a) => [key(a), { trials: 0, caught: 0, expected: [] as number[], others: new Set<string>(), wrong: 0, missed: [] as string[] }]));
  let stableRuns = 0;
  let falseFindings = 0;
  const falseSeen: string[] = [];
  const notProbed: string[] = [];
  const probeMs: number[] = [];
  const runMs: number[] = [];
  const t0 = performance.now();
  try {
    log(`order probe: ${o.trials} gate runs (${o.executor} executor, 1 repetition a candidate), ${ORDER_ARCHETYPES.length} order archetypes and ${STABLE.length} stable new tests in :order; base seed ${o.seed}; load ${load()}`);
    const reportFile = join(o.work, 'order-report.json');
    for (const [i, seed] of seeds.entries()) {
      const env = { ...o.env, STRESS_GATE_URL: fake.url, STRESS_GATE_EXECUTOR: o.executor, STRESS_GATE_ORDER_SEED: String(seed) };
      const r = await run(process.execPath, [CLI, 'gradle', '--offline', '-q', '-I', o.initScript, ':order:cleanTest', ':order:test', '--stress-new-tests', 'report', '--report-file', reportFile], { cwd: o.project, env });
      if (r.code !== 0) throw new Error(`order gate run ${i + 1} exited ${r.code}\n${r.stdout.slice(-2000)}\n${r.stderr.slice(-3000)}`);
      runMs.push(r.ms);
      const report = JSON.parse(readFileSync(reportFile, 'utf8')) as Report;
      if (report.orderProbe?.seed !== seed) throw new Error(`gate run ${i + 1}: asked for seed ${seed}, the report says ${report.orderProbe?.seed}`);
      probeMs.push(report.orderProbe.wallClockMs);
      for (const c of report.candidates) {
        const probe = c.orderProbe;
        if (!probe || probe.status !== 'probed') {
          notProbed.push(`${c.name} (seed ${seed}: ${c.outcome}, ${probe?.status ?? 'no probe'})`);
          continue;
        }
        const a = tally.get(key(c));
        if (!a) {
          stableRuns++;
          if (probe.findings.length) {
            falseFindings++;
            falseSeen.push(`${c.name} with ${probe.findings.map((f) => `${f.role} of ${key(f.other)}`).join(', ')} (seed ${seed})`);
          }
          continue;
        }
        const arch = ORDER_ARCHETYPES.find((x) => key(x) === key(c))!;
        a.trials++;
        const others = probe.moduleClasses;
        a.expected.push(arch.sameClass ? 1 : chanceToMeet(probe.sampledClasses, others, DEFAULT_PROBE_BOUNDS.perSampledClass, arch.otherClassSize));
        a.others.add(`${probe.sampledClasses} of ${others}`);
        if (probe.findings.some((f) => f.role === arch.role && key(f.other) === key(arch.other))) a.caught++;
        else if (arch.sameClass) a.missed.push(`${c.name} (seed ${seed}): ${probe.notes.join(' / ') || 'no notes'}`);
        const wrong = probe.findings.filter((f) => !(f.role === arch.role && key(f.other) === key(arch.other)));
        if (wrong.length) {
          a.wrong++;
          falseSeen.push(`${c.name} with ${wrong.map((f) => `${f.role} of ${key(f.other)}`).join(', ')} (seed ${seed})`);
        }
      }
      if ((i + 1) % 5 === 0) log(`  ${i + 1}/${o.trials} order gate runs (${((performance.now() - t0) / 1000).toFixed(0)} s, load ${load()})`);
    }
  } finally {
    await fake.close();
  }
  const wrongTotal = [...tally.values()].reduce((n, t) => n + t.wrong, 0);
  log('');
  log(`Order probe catch rate per archetype (${((performance.now() - t0) / 60000).toFixed(1)} min; seeds ${seeds.slice(0, 3).join(', ')}, … all ${new Set(seeds).size} distinct, drawn from base seed ${o.seed})`);
  log('');
  const rows = ORDER_ARCHETYPES.map((a) => {
    const t = tally.get(key(a))!;
    const ci = wilson(t.caught, t.trials);
    const e = t.expected.length ? t.expected.reduce((x, y) => x + y, 0) / t.expected.length : NaN;
    const model = a.sameClass ? 'same class' : `${[...t.others].join(', ')} classes, ${Math.min(DEFAULT_PROBE_BOUNDS.perSampledClass, a.otherClassSize)} of ${a.otherClassSize} tests`;
    return [a.label, a.role, `${a.other.suite.slice(PKG.length + 1)}.${a.other.name}`, `${t.caught}/${t.trials} = ${pct(t.caught / t.trials)}`, range(ci), `${pct(e)} (${model})`, e >= ci[0] && e <= ci[1] ? 'yes' : 'NO'];
  });
  table(['archetype', 'role', 'old partner', 'caught', 'Wilson 95%', 'expected', 'within'], rows);
  log('');
  log(`false findings: ${falseFindings} of ${stableRuns} probe runs of stable new tests; ${wrongTotal} findings naming another partner on the archetypes`);
  for (const f of falseSeen) log(`  ${f}`);
  for (const t of tally.values()) for (const m of t.missed) log(`  missed in its own class: ${m}`);
  if (notProbed.length) log(`not probed (not counted): ${notProbed.length}: ${notProbed.slice(0, 5).join('; ')}${notProbed.length > 5 ? '; …' : ''}`);
  const med = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  log(`probe wall clock per gate run: median ${(med(probeMs) / 1000).toFixed(1)} s (whole gate run median ${(med(runMs) / 1000).toFixed(1)} s)`);
  return falseFindings + wrongTotal;
}
