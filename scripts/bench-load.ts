// The verdict API under load, on a loopback port, on embedded chDB and on clickhouse-server 18.16,
// with test_case_branch_presence holding --rows rows (default 10,000,000 over 1,000 projects):
//   1. uploads alone: one client posting runs of --upload-cases test cases back to back
//      (--solo seconds): the unloaded upload throughput;
//   2. the load: --clients closed-loop clients each posting verdicts of --identities identities
//      (--new of them never seen, default 10, as a merge request adding tests; the rest known)
//      while the upload client keeps posting, for --seconds.
// Prints verdicts/s, latency p50/p99/max, errors, uploads and their cases/s beside the unloaded
// figure, where the cores went (the API's thread, the rest of its process, clickhouse-server, the
// machine), then where the API's time went (ClickHouse statements by kind, event-loop use).
// Targets on 2 cores: >= 250 verdicts/s, p99 < 250 ms, 0 errors, uploads >= half unloaded.
// The clients run in a worker thread (bench-load-clients.ts), so the API's event loop is its own.
//   npm run bench:load -- [--engine embedded|server|both] [--rows N] [--seconds 60] [--clients 50]
//     [--identities 1000] [--new 10] [--upload-cases 1000] [--solo 10] [--form grouped|tests|flat] [--cpu-profile FILE]
//     [--verdict-concurrency N] [--fault-at S [--fault-seconds 10]]
// --fault-at S (clickhouse-server only): S seconds into the load, clickhouse-server is stopped for
// --fault-seconds and started again. The upload client then posts a refused upload again (the same
// run) until it is acknowledged, as the CLI does. Prints what the requests in the gap got, how long
// the service took to answer again, and, counted in the raw rows, that every acknowledged upload
// is stored exactly once.
// --form: grouped by suite with names and durations side by side (the CLI, the default); tests, grouped
// with an object per test (older CLIs); flat, one entry per test case (older clients).
// --cpu-profile writes the API thread's CPU profile of the load phase (open it in Chrome DevTools)
// and prints its heaviest functions.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { constants as perfConstants, monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import type { ClickHouseEngine } from '../verdict-api/dist/storage/engine.js';
import type { Sql } from '../verdict-api/dist/sql/bind.js';
import type { Bench } from './bench-common.js';
import type { InsertRows } from '../verdict-api/dist/storage/tab-separated.js';
import { type Event, type Form, FORMS, type PhaseResult, type Plan, runClients, verdictWork } from './bench-load-clients.js';
import { fileCreationUs, hostChecks, intFlag, machineCpuMs, withServiceNodeFlags, log, ms, parseOptions, procCpuMs, summarize } from './bench-util.js';

const TARGET_RATE = 250;
const TARGET_P99 = 250;

/** Times the API's statements by what they are for. */
function profiler(stages: Map<string, number[]>): (e: ClickHouseEngine) => ClickHouseEngine {
  const kindOf = (text: string): string => {
    if (/api_tokens|admin_credentials/.test(text)) return 'auth: token';
    if (/\.`?projects`?\b/.test(text)) return 'auth: project';
    if (/\.`?accounts`?\b/.test(text)) return 'auth: account';
    if (/test_case_branch_presence/.test(text)) return /uniqExact/.test(text) ? 'verdict: inventory' : /ran_at >=/.test(text) ? 'upload: is_new badges' : 'verdict: present ids';
    if (/test_runs/.test(text)) return /git_commit =/.test(text) ? 'upload: runs of its commit (flaky check)' : 'upload: retry check';
    if (/HAVING countIf/.test(text)) return 'upload: commit conflicts (flaky check)';
    if (/UNION ALL/.test(text)) return 'upload: earlier attempt';
    return 'other query';
  };
  return (e) => {
    const add = (name: string, t: number) => (stages.get(name) ?? stages.set(name, []).get(name)!).push(performance.now() - t);
    return {
      kind: e.kind,
      command: (s: Sql) => e.command(s),
      async query<Row>(s: Sql) {
        const t = performance.now();
        try {
          return await e.query<Row>(s);
        } finally {
          add(kindOf(s.text), t);
        }
      },
      async insert(table: Sql, rows: InsertRows) {
        const t = performance.now();
        try {
          await e.insert(table, rows);
        } finally {
          add(`insert ${table.text.split('.').pop()!.replaceAll('`', '')}`, t);
        }
      },
      ping: () => e.ping(),
      close: () => e.close(),
    };
  };
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/** The functions with the most self time in a CPU profile, as printable lines. */
function heaviest(p: CpuProfile, n: number): string[] {
  const byId = new Map(p.nodes.map((x) => [x.id, x]));
  const self = new Map<string, number>();
  p.samples.forEach((id, i) => {
    const f = byId.get(id)!.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (p.timeDeltas[i] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([key, us]) => `${ms(us / 1000).padStart(10)} ${((100 * us) / total).toFixed(1).padStart(5)}%  ${key}`);
}

const perSecond = (n: number, seconds: number) => (n / seconds).toFixed(1);
const errors = (e: Record<string, number>) => (Object.keys(e).length === 0 ? '0 errors' : `ERRORS ${JSON.stringify(e)}`);

async function main(): Promise<void> {
  const { fillPresence, openBench } = await import('./bench-common.js');
  const { engines, rows, flags } = parseOptions(process.argv.slice(2), { rows: 10_000_000 });
  const seconds = intFlag(flags, 'seconds', 60);
  const clientsN = intFlag(flags, 'clients', 50);
  const identities = intFlag(flags, 'identities', 1_000);
  const fresh = intFlag(flags, 'new', 10);
  if (fresh > identities) throw new Error('--new must not exceed --identities');
  const uploadCases = intFlag(flags, 'upload-cases', 1_000);
  const solo = intFlag(flags, 'solo', 10);
  // Unset: the service's default for the engine (STRESS_GATE_VERDICT_CONCURRENCY).
  const verdictConcurrency = flags.has('verdict-concurrency') ? intFlag(flags, 'verdict-concurrency', 0, 1000) : undefined;
  if (verdictConcurrency !== undefined && verdictConcurrency < 1) throw new Error('--verdict-concurrency must be at least 1');
  const form = (flags.get('form') ?? 'grouped') as Form;
  if (!FORMS.includes(form)) throw new Error(`--form must be one of ${FORMS.join(', ')}, not ${form}`);
  const faultAt = flags.has('fault-at') ? intFlag(flags, 'fault-at', 0, 3600) : undefined;
  const faultSeconds = intFlag(flags, 'fault-seconds', 10, 600);
  if (faultAt !== undefined && (engines.includes('embedded') || faultAt + faultSeconds >= seconds)) {
    throw new Error('--fault-at needs --engine server, and the fault must end before the load does (--fault-at + --fault-seconds < --seconds)');
  }
  const profileFile = flags.get('cpu-profile');
  const profile = profileFile ? new Session() : null;
  profile?.connect();
  log(
    `load benchmark: ${clientsN} verdict clients x ${identities} identities (${fresh} never seen; ${{ grouped: 'grouped by suite', tests: 'grouped by suite, an object per test', flat: 'one entry per test case' }[form]}) + 1 upload client x ${uploadCases} cases, ${seconds} s; ${rows.toLocaleString('en-US')} presence rows; verdicts at once: ${verdictConcurrency ?? 'the default (4 embedded, 12 server)'}`,
  );
  for (const kind of engines) {
    const stages = new Map<string, number[]>();
    const b = await openBench(kind, { wrap: profiler(stages), ...(verdictConcurrency ? { verdictConcurrency } : {}) });
    try {
      const fill = await fillPresence(b, rows);
      log(`${kind}: presence filled in ${(fill.total / 1000).toFixed(1)} s; ${hostChecks()}`);
      const plan: Plan = {
        urls: [b.api.url],
        handle: b.project.handle,
        token: b.token,
        clients: clientsN,
        uploaders: 1,
        seconds,
        solo,
        ...verdictWork(identities, fresh, form),
        uploadCases,
        fault: faultAt !== undefined,
      };
      let loadStarted = 0;
      let elu0 = performance.eventLoopUtilization();
      let cpu0 = process.cpuUsage();
      // Where the 2 cores went: the API's thread (this process's main thread), clickhouse-server, the machine.
      const chPid = b.chServer?.pid();
      const shares = () => ({ api: procCpuMs(`/proc/${process.pid}/task/${process.pid}/stat`), ch: chPid === undefined ? Number.NaN : procCpuMs(`/proc/${chPid}/stat`), machine: machineCpuMs() });
      let shares0 = shares();
      const loopDelay = monitorEventLoopDelay({ resolution: 5 });
      // The API thread's garbage collections in the load phase: full ones pause it longest.
      const gcs = { minor: [] as number[], major: [] as number[] };
      const gcWatch = new PerformanceObserver((list) => {
        if (!loadStarted) return;
        for (const e of list.getEntries()) ((((e as { detail?: { kind?: number } }).detail)?.kind ?? 0) === perfConstants.NODE_PERFORMANCE_GC_MAJOR ? gcs.major : gcs.minor).push(e.duration);
      });
      gcWatch.observe({ entryTypes: ['gc'] });
      // Set as the load starts: declared with a cast so that TypeScript does not narrow it to null here.
      let fault = null as Promise<Gap> | null;
      const result = await runClients(plan, () => {
        // Only the load phase is profiled.
        stages.clear();
        elu0 = performance.eventLoopUtilization();
        cpu0 = process.cpuUsage();
        shares0 = shares();
        loopDelay.enable();
        loadStarted = performance.now();
        if (faultAt !== undefined) fault = injectFault(b, faultAt, faultSeconds);
        if (profile) void profile.post('Profiler.enable').then(() => profile!.post('Profiler.start'));
      });
      const elu = performance.eventLoopUtilization(elu0);
      loopDelay.disable();
      gcWatch.disconnect();
      // Every thread of this process (the API, chDB's, GC's, the clients'): the figure that run-to-run noise moves least.
      const cpuUsed = process.cpuUsage(cpu0);
      const shares1 = shares();
      const cpuMs = (cpuUsed.user + cpuUsed.system) / 1000;
      const cpu = profile ? ((await profile.post('Profiler.stop')) as { profile: CpuProfile }).profile : null;
      const { solo: s, load: l } = result;
      const soloRate = (s.uploads * uploadCases) / s.seconds;
      const loadRate = (l.uploads * uploadCases) / l.seconds;
      const lat = summarize(l.verdicts.length ? l.verdicts : [Number.NaN]);
      const rate = l.verdicts.length / l.seconds;
      log(`  uploads alone:  ${s.uploads} uploads in ${s.seconds} s = ${Math.round(soloRate).toLocaleString('en-US')} cases/s, ${errors(s.uploadErrors)}`);
      log(
        `  under load:     ${perSecond(l.verdicts.length, l.seconds)} verdicts/s, p50 ${ms(lat.p50)}, p99 ${ms(lat.p99)}, max ${ms(lat.max)}, ${errors(l.verdictErrors)}` +
          (l.wrongAnswers ? `, ${l.wrongAnswers} WRONG ANSWERS` : ''),
      );
      log(
        `                  uploads ${l.uploads} = ${Math.round(loadRate).toLocaleString('en-US')} cases/s (${((100 * loadRate) / Math.max(1, soloRate)).toFixed(0)}% of alone), ${errors(l.uploadErrors)}`,
      );
      if (fault) {
        await reportFault(b, await fault, s, l, uploadCases);
        continue;
      }
      const met = rate >= TARGET_RATE && lat.p99 < TARGET_P99 && l.verdicts.length > 0 && !Object.keys(l.verdictErrors).length && !Object.keys(l.uploadErrors).length && !l.wrongAnswers && loadRate >= soloRate / 2;
      log(`  target >= ${TARGET_RATE} verdicts/s, p99 < ${TARGET_P99} ms, 0 errors, uploads >= 50% of alone: ${met ? 'MET' : 'MISSED'}`);
      // The inserts' cost moves with the file system's (bench-util's fileCreationUs): measured again after the load.
      log(`  creating a file after the load: ${Math.round(fileCreationUs())} µs of CPU (at the start: see the host check)`);
      const wall = loadStarted ? performance.now() - loadStarted : seconds * 1000;
      log(
        `  CPU under load (all threads, this process${kind === 'server' ? ', clickhouse-server not included' : ''}): ${(cpuMs / wall).toFixed(2)} cores, ` +
          `${(cpuMs / Math.max(1, l.verdicts.length)).toFixed(1)} ms per verdict (the uploads' share included)`,
      );
      // An event loop busier than its thread's CPU is a thread that was ready and waited for a core.
      const cores = (a: number, b0: number) => (a - b0) / wall;
      const machine = (shares1.machine.busy - shares0.machine.busy) / (shares1.machine.total - shares0.machine.total);
      log(
        `  the cores under load: the API's thread ${cores(shares1.api, shares0.api).toFixed(2)} (its event loop busy ${(100 * elu.utilization).toFixed(0)}%), ` +
          `the rest of this process ${(cpuMs / wall - cores(shares1.api, shares0.api)).toFixed(2)}` +
          (kind === 'server' ? `, clickhouse-server ${cores(shares1.ch, shares0.ch).toFixed(2)}` : '') +
          `; the machine ${(100 * machine).toFixed(0)}% busy`,
      );
      // How long a ready callback (a ClickHouse answer, a request) waited for the API's thread.
      const delay = (q: number) => ms(Math.max(0, loopDelay.percentile(q) / 1e6 - 5));
      log(`  event loop delay under load: p50 ${delay(50)}, p99 ${delay(99)}, max ${ms(Math.max(0, loopDelay.max / 1e6 - 5))}`);
      const gcLine = (name: string, d: number[]) => `${d.length} ${name} (${ms(d.reduce((a, x) => a + x, 0))}, longest ${ms(d.length ? Math.max(...d) : 0)})`;
      log(`  garbage collection under load: ${gcLine('minor', gcs.minor)}, ${gcLine('full', gcs.major)}`);
      log(`  where the API's time went under load (event loop busy ${(100 * elu.utilization).toFixed(0)}%):`);
      const lines = [...stages.entries()].map(([name, t]) => ({ name, n: t.length, total: t.reduce((a, x) => a + x, 0), s: summarize(t) })).sort((a, b) => b.total - a.total);
      for (const x of lines) {
        log(`    ${x.name.padEnd(34)} ${String(x.n).padStart(6)} calls  mean ${ms(x.s.mean).padStart(9)}  p99 ${ms(x.s.p99).padStart(9)}  ${((100 * x.total) / wall).toFixed(0).padStart(4)}% of wall (overlapping)`);
      }
      if (cpu) {
        const file = `${profileFile}.${kind}.cpuprofile`;
        writeFileSync(file, JSON.stringify(cpu));
        log(`  the API thread's CPU profile (${file}), heaviest functions by self time:`);
        for (const line of heaviest(cpu, 15)) log(`    ${line}`);
      }
    } finally {
      await b.close();
    }
  }
}

/** When clickhouse-server was asked to stop, had exited, was started again and answered its ping again (Date.now()). */
interface Gap {
  stopping: number;
  stopped: number;
  restarting: number;
  started: number;
}

/** Stops clickhouse-server `at` seconds from now for `seconds`, then starts it again on the same port and data; when, as Date.now(). */
async function injectFault(b: Bench, at: number, seconds: number): Promise<Gap> {
  await new Promise((r) => setTimeout(r, at * 1000));
  const stopping = Date.now();
  await b.chServer!.stop();
  const stopped = Date.now();
  log(`  fault: clickhouse-server stopped ${at} s into the load (its shutdown took ${stopped - stopping} ms)`);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const restarting = Date.now();
  await b.chServer!.start();
  const started = Date.now();
  log(`  fault: clickhouse-server answering again after ${((started - stopped) / 1000).toFixed(1)} s (its start took ${started - restarting} ms)`);
  return { stopping, stopped, restarting, started };
}

/**
 * What the requests got around the gap, how soon the service answered again, and every
 * acknowledged upload's raw rows (no FINAL, no DISTINCT: a doubled write would show).
 */
async function reportFault(b: Bench, gap: Gap, solo: PhaseResult, load: PhaseResult, cases: number): Promise<void> {
  const statuses = (events: Event[]) => {
    const by = new Map<number, number>();
    for (const e of events) by.set(e[3], (by.get(e[3]) ?? 0) + 1);
    return [...by].sort((x, y) => x[0] - y[0]).map(([status, n]) => `${n} × ${status || 'no answer'}`).join(', ') || 'none';
  };
  const good = (e: Event) => e[3] === (e[2] === 0 ? 200 : 201);
  const ofKind = (kind: number) => load.events.filter((e) => e[2] === kind);
  // In the gap: the requests that started once clickhouse-server had exited and ended before the
  // new one was spawned. Its start is not in it: the new server may answer before its first ping does.
  const inGap = ([start, end]: Event) => start >= gap.stopped && end <= gap.restarting;
  const during = (kind: number) => ofKind(kind).filter(inGap);
  // Overlapping the shutdown, the gap's ends or the start: either answer is right.
  const edges = load.events.filter((e) => !inGap(e) && e[1] > gap.stopping && e[0] <= gap.started);
  const okAfter = (kind: number) => ofKind(kind).find((e) => e[0] > gap.started && good(e));
  // From the first good answer of each kind that started after the restart, anything else is a failure to recover.
  const settled = Math.max(okAfter(0)?.[0] ?? Infinity, okAfter(1)?.[0] ?? Infinity);
  const after = load.events.filter(([start]) => start >= settled);
  const badAfter = after.filter((e) => !good(e));
  const before = load.events.filter(([, end]) => end <= gap.stopping);
  log(`  before the gap:  verdicts ${statuses(before.filter((e) => e[2] === 0))}; uploads ${statuses(before.filter((e) => e[2] === 1))}`);
  log(`  in the gap:      verdicts ${statuses(during(0))}; uploads ${statuses(during(1))}`);
  log(`  across the shutdown, the gap's ends and the start: ${statuses(edges)}`);
  const since = (e: Event | undefined) => (e ? `${e[1] - gap.started} ms` : 'NEVER');
  log(`  answered again:  first verdict 200 ${since(okAfter(0))} after the restart, first upload 201 ${since(okAfter(1))}`);
  log(`  after that:      ${after.length} requests, ${badAfter.length ? `${statuses(badAfter)} NOT ANSWERED WELL` : 'all answered 200 / 201'}`);
  const acknowledged = [...solo.acknowledged, ...load.acknowledged];
  const { sql, uuid } = await import('../verdict-api/dist/sql/bind.js');
  const rows = async (table: 'test_runs' | 'test_case_runs') => {
    const r = await b.bulk.query<{ run_id: string; n: unknown }>(sql`
      SELECT run_id, count() AS n FROM ${b.db.t(table)} WHERE project_id = ${uuid(b.project.projectId)} GROUP BY run_id`);
    return new Map(r.map((x) => [x.run_id, Number(x.n)]));
  };
  const [runs, caseRuns] = [await rows('test_runs'), await rows('test_case_runs')];
  const wrong = acknowledged.filter((id) => runs.get(id) !== 1 || caseRuns.get(id) !== cases);
  const doubled = acknowledged.filter((id) => (runs.get(id) ?? 0) > 1 || (caseRuns.get(id) ?? 0) > cases);
  log(
    `  stored:          ${acknowledged.length} acknowledged uploads (${load.retried.length} of them after a refusal): ` +
      `${acknowledged.length - wrong.length} with exactly 1 run row and ${cases} test case rows, ${doubled.length} doubled, ${wrong.length - doubled.length} short` +
      (wrong.length ? ` (${wrong.slice(0, 3).map((id) => `${id}: ${runs.get(id) ?? 0} / ${caseRuns.get(id) ?? 0}`).join(', ')})` : ''),
  );
  const gapOnly503 = [...during(0), ...during(1)].every((e) => e[3] === 503) && during(0).length > 0 && during(1).length > 0;
  const met = gapOnly503 && Number.isFinite(settled) && badAfter.length === 0 && wrong.length === 0 && load.retried.length > 0;
  log(`  fault: 503 in the gap, answering again by itself, every acknowledged upload stored once, refused ones retried: ${met ? 'MET' : 'MISSED'}`);
}

withServiceNodeFlags();
main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
