// Ingestion throughput: POST /api/v1/projects/:p/runs of one run with 50,000 test cases (~10% with
// two organic repetitions) over a real loopback port, on embedded chDB and clickhouse-server 18.16.
// Prints test case runs per second (cases / wall time of the request), then where the time goes.
//   npm run bench:ingest -- [--engine embedded|server|both] [--rows N] [--cases 50000] [--runs 5] [--warmup 3]
// The warm-up uploads (a process's first are slower: JIT, heap growth, ClickHouse's first parts) are
// printed beside the timed ones but not counted.
import { parseRunUpload } from '../verdict-api/dist/validation/parse-body.js';
import { testCaseId } from '../verdict-api/dist/identity/test-case-id.js';
import { ingestRun } from '../verdict-api/dist/ingest/ingest-run.js';
import { Worker } from 'node:worker_threads';
import type { Database } from '../verdict-api/dist/storage/database.js';
import type { ClickHouseEngine, EngineKind } from '../verdict-api/dist/storage/engine.js';
import type { Sql } from '../verdict-api/dist/sql/bind.js';
import type { InsertRows, TsvRows } from '../verdict-api/dist/storage/tab-separated.js';
import { type ClientPlan, type ClientResult, runId, upload } from './bench-ingest-client.js';
import {
  type Bench,
  countPresence,
  fillPresence,
  intFlag,
  log,
  ms,
  openBench,
  parseOptions,
  summarize,
} from './bench-common.js';
import { hostChecks, withServiceNodeFlags } from './bench-util.js';

withServiceNodeFlags();
const { engines, rows, flags } = parseOptions(process.argv.slice(2), { rows: 10_000_000 });
const CASES = intFlag(flags, 'cases', 50_000);
const RUNS = intFlag(flags, 'runs', 5);
const WARMUPS = intFlag(flags, 'warmup', 3);
const PROFILE_SAMPLES = intFlag(flags, 'profile', 2);
const TARGET = 50_000;

/** Timed uploads, posted by a worker thread (bench-ingest-client.ts) that also builds them. */
async function throughput(b: Bench): Promise<void> {
  const worker = new Worker(new URL('./bench-ingest-client.js', import.meta.url), {
    workerData: { url: `${b.api.url}/api/v1/projects/${b.project.handle}/runs`, token: b.token, cases: CASES, runs: RUNS, warmups: WARMUPS } satisfies ClientPlan,
  });
  const cpus: number[] = [];
  let cpu = process.cpuUsage();
  const result = await new Promise<ClientResult>((resolve, reject) => {
    worker.on('message', (m: { kind: 'start' } | { kind: 'end' } | ({ kind: 'done' } & ClientResult)) => {
      if (m.kind === 'start') cpu = process.cpuUsage();
      else if (m.kind === 'end') {
        const used = process.cpuUsage(cpu);
        cpus.push((used.user + used.system) / 1000);
      } else resolve(m);
    });
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(`upload client exited with ${code}`)));
  });
  await worker.terminate();
  const rates = result.walls.map((wall) => CASES / (wall / 1000));
  const r = summarize(rates);
  const w = summarize(result.walls);
  const worst = Math.min(...rates);
  log(
    `  ${b.kind.padEnd(8)} ${CASES} cases x ${RUNS} runs (${(result.size / 1024 / 1024).toFixed(1)} MiB each):` +
      ` median ${Math.round(r.p50).toLocaleString('en-US')} cases/s, worst ${Math.round(worst).toLocaleString('en-US')} cases/s` +
      ` (wall p50 ${ms(w.p50)}, max ${ms(w.max)}; target >= ${TARGET.toLocaleString('en-US')}/s: ${worst >= TARGET ? 'MET' : r.p50 >= TARGET ? 'MET at median only' : 'MISSED'})`,
  );
  log(`    per run: ${rates.map((x) => Math.round(x).toLocaleString('en-US')).join(', ')} cases/s`);
  const warmRates = result.warmupWalls.map((wall) => Math.round(CASES / (wall / 1000)).toLocaleString('en-US'));
  if (warmRates.length > 0) log(`    warm-up runs before them (the process's first uploads; not counted): ${warmRates.join(', ')} cases/s`);
  // All threads of this process while a run was posted: the API, chDB's (embedded) and the client
  // worker sending its body; not clickhouse-server's.
  log(`    CPU of this process per run (all threads): p50 ${ms(summarize(cpus).p50)} for a wall p50 of ${ms(w.p50)}`);
}

/** A Database whose engine times every statement and insert by table. */
function timed(db: Database, stages: Map<string, number[]>): Database {
  const add = (name: string, t: number) => (stages.get(name) ?? stages.set(name, []).get(name)!).push(performance.now() - t);
  const e = db.engine;
  const engine: ClickHouseEngine = {
    kind: e.kind,
    command: (s: Sql) => e.command(s),
    async query<Row>(s: Sql) {
      const t = performance.now();
      const out = await e.query<Row>(s);
      add(
        /groupArray/.test(s.text)
          ? 'SQL idsPresentSince (is_new badges)'
          : /test_case_branch_presence/.test(s.text)
            ? 'SQL absentIds (is_new badge)'
            : /UNION ALL/.test(s.text)
              ? 'SQL earlier attempt'
              : 'SQL test_runs FINAL (retry check)',
        t,
      );
      return out;
    },
    async insert(table: Sql, rows: InsertRows) {
      const t = performance.now();
      await e.insert(table, rows);
      add(`insert ${table.text.split('.').pop()!.replaceAll('`', '')} (${Array.isArray(rows) ? rows.length : (rows as TsvRows).count})`, t);
    },
    ping: () => e.ping(),
    close: () => e.close(),
  };
  const view: Database = { engine, name: db.name, t: db.t, cache: db.cache, secrets: db.secrets, forProject: async () => view };
  return view;
}

async function profile(b: Bench): Promise<void> {
  const stages = new Map<string, number[]>();
  const time = async <T>(name: string, f: () => T | Promise<T>): Promise<T> => {
    const t = performance.now();
    const out = await f();
    (stages.get(name) ?? stages.set(name, []).get(name)!).push(performance.now() - t);
    return out;
  };
  const db = timed(b.db, stages);
  for (let k = 0; k < PROFILE_SAMPLES; k++) {
    const text = upload(runId(`profile${k}`), CASES);
    const raw = await time('JSON.parse body', () => JSON.parse(text) as unknown);
    const run = await time('valibot parse', () => parseRunUpload(raw));
    await time('testCaseId x N (sha1)', () => run.testCases.map((t) => testCaseId(b.project.projectId, t)));
    await time('ingestRun() total', () => ingestRun(db, b.project, run));
  }
  log(`  ${b.kind} profile, ${CASES} cases (p50 / max of ${PROFILE_SAMPLES}; inserts and SQL are inside ingestRun):`);
  for (const [name, samples] of stages) {
    const s = summarize(samples);
    log(`    ${name.padEnd(38)} ${ms(s.p50).padStart(10)} ${ms(s.max).padStart(10)}`);
  }
}

async function run(kind: EngineKind): Promise<void> {
  log(`\n== ${kind} ==`);
  const t = performance.now();
  const b = await openBench(kind);
  log(`  started engine + API on ${b.api.url} in ${ms(performance.now() - t)}; ${hostChecks()}`);
  try {
    if (rows > 0) {
      const fill = await fillPresence(b, rows);
      log(`  fill: ${(await countPresence(b)).toLocaleString('en-US')} presence rows in ${(fill.total / 1000).toFixed(1)} s`);
    }
    await throughput(b);
    if (PROFILE_SAMPLES > 0) await profile(b);
  } finally {
    await b.close();
  }
}

log(`ingest benchmark: engines ${engines.join(', ')}; ${rows.toLocaleString('en-US')} presence rows before; node ${process.version}`);
for (const kind of engines) await run(kind);
