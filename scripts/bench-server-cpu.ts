// Where clickhouse-server's CPU goes, per statement: the statements of one run upload of 1,000
// test cases (as bench-load's upload stream posts them) replayed one at a time, a whole upload
// with the merges it leaves behind, and the verdict's merged presence lookup. CPU is the server
// process's user + system time from /proc/<pid>/stat (10 ms ticks, so every figure is a mean
// over many repetitions). It says what a verdict and an upload cost the database, which shares
// the 2 cores with the API in bench-load's server runs.
//   node scripts/bench-server-cpu.js [--rows 10000000] [--reps 30]
import { testCaseId } from '../verdict-api/dist/identity/test-case-id.js';
import { presentIds } from '../verdict-api/dist/presence/presence.js';
import type { Sql } from '../verdict-api/dist/sql/bind.js';
import type { ClickHouseEngine } from '../verdict-api/dist/storage/engine.js';
import type { InsertRows, TsvRows } from '../verdict-api/dist/storage/tab-separated.js';
import { fillPresence, intFlag, loadUploadBody, log, newIdentity, openBench, parseOptions } from './bench-common.js';
import { procCpuMs } from './bench-util.js';

const { rows, flags } = parseOptions(process.argv.slice(2), { rows: 10_000_000 });
const REPS = intFlag(flags, 'reps', 30);

type Statement = { kind: 'query'; sql: Sql } | { kind: 'insert'; table: Sql; rows: InsertRows };
let captured: Statement[] | null = null;
const capturing = (e: ClickHouseEngine): ClickHouseEngine => ({
  kind: e.kind,
  command: (s) => e.command(s),
  query: <Row>(s: Sql) => (captured?.push({ kind: 'query', sql: s }), e.query<Row>(s)),
  insert: (table, r) => (captured?.push({ kind: 'insert', table, rows: r }), e.insert(table, r)),
  ping: () => e.ping(),
  close: () => e.close(),
});

const b = await openBench('server', { wrap: capturing });
try {
  const pid = b.chServer!.pid();
  if (pid === undefined) throw new Error('clickhouse-server has no pid');
  const cpuMs = (): number => procCpuMs(`/proc/${pid}/stat`);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  /** Mean server CPU and wall per call of `f`, over `n` calls one after another. */
  const measure = async (n: number, f: (i: number) => Promise<unknown>): Promise<{ cpu: number; wall: number }> => {
    const c = cpuMs();
    const t = performance.now();
    for (let i = 0; i < n; i++) await f(i);
    return { wall: (performance.now() - t) / n, cpu: (cpuMs() - c) / n };
  };
  const line = (label: string, m: { cpu: number; wall: number }) => log(`  ${m.cpu.toFixed(1).padStart(7)} ms CPU ${m.wall.toFixed(1).padStart(7)} ms wall  ${label}`);

  if (rows > 0) await fillPresence(b, rows);
  const url = `${b.api.url}/api/v1/projects/${b.project.handle}/runs`;
  const upload = (k: number) =>
    fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${b.token}`, 'content-type': 'application/json' },
      body: loadUploadBody(`cpu-${k}`, k, 1000),
    }).then(async (r) => {
      if (r.status !== 201) throw new Error(`upload answered ${r.status}: ${await r.text()}`);
    });
  let k = 0;
  for (; k < 40; k++) await upload(k);
  await sleep(5000);
  log(`clickhouse-server CPU, ${rows.toLocaleString('en-US')} presence rows, means over ${REPS} calls:`);
  const idle = await measure(5, () => sleep(1000));
  line('idle, per second', idle);
  line('SELECT 1 (a round trip)', await measure(REPS * 10, () => b.db.engine.query({ text: 'SELECT 1' } as Sql)));
  const scope = { projectId: b.project.projectId, branch: 'main', isCi: true };
  line('verdict: presence lookup of 60 never-seen ids (6 verdicts merged)', await measure(REPS * 10, (i) => presentIds(b.db, scope, Array.from({ length: 60 }, (_, j) => testCaseId(b.project.projectId, newIdentity(5_000_000 + i * 60 + j))))));
  // A whole upload, then the merges it leaves: measured until the server is idle again.
  const start = cpuMs();
  const t = performance.now();
  const whole = await measure(REPS, () => upload(k++));
  await sleep(10_000);
  const withMerges = (cpuMs() - start - (idle.cpu * (performance.now() - t)) / 1000) / REPS;
  line('upload of 1,000 test cases over HTTP (the request)', whole);
  line('upload of 1,000 test cases, with the merges after it (idle subtracted)', { cpu: withMerges, wall: whole.wall });
  // Its statements, one by one.
  captured = [];
  await upload(k++);
  await sleep(500);
  const statements = captured as Statement[];
  captured = null;
  log(`  the upload's ${statements.length} statements, replayed ${REPS} times each:`);
  for (const s of statements) {
    if (s.kind === 'query') line(`  ${s.sql.text.replace(/\s+/g, ' ').trim().slice(0, 100)}`, await measure(REPS, () => b.db.engine.query(s.sql)));
    else {
      const n = Array.isArray(s.rows) ? s.rows.length : (s.rows as TsvRows).count;
      if (n > 0) line(`  INSERT INTO ${s.table.text} (${n} rows, materialized views included)`, await measure(REPS, () => b.db.engine.insert(s.table, s.rows)));
    }
  }
} finally {
  await b.close();
}
