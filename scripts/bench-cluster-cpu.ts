// bench-cluster's accounts: the CPU of a setup's processes between two readings (/proc/<pid>/stat),
// and its figures summed over rounds.
import type { PhaseResult } from './bench-load-clients.js';
import { machineCpuMs, procCpuMs } from './bench-util.js';

/** One reading, ms of CPU so far (wall: `at`). */
export type Cpu = { api: number; clickhouse: number; nodes: number[]; zookeeper: number; idle: number; bench: number; busy: number; at: number };

/** CPU so far of the measured setup's processes, of the idle setups' (`idle`), of this process (the clients) and of the machine. */
export function cpuNow(pids: { api: number[]; clickhouse: number[]; zookeeper: number[] }, idle: number[]): Cpu {
  const sum = (list: number[]) => list.reduce((a, pid) => a + procCpuMs(`/proc/${pid}/stat`), 0);
  const own = process.cpuUsage();
  const nodes = pids.clickhouse.map((pid) => procCpuMs(`/proc/${pid}/stat`));
  return { api: sum(pids.api), clickhouse: nodes.reduce((x, y) => x + y, 0), nodes, zookeeper: sum(pids.zookeeper), idle: sum(idle), bench: (own.user + own.system) / 1000, busy: machineCpuMs().busy, at: performance.now() };
}

/** CPU of each kind between two readings, ms; `others`: the machine's busy time that none of them spent (another job on the machine). */
export function cpuSince(a: Cpu, b: Cpu) {
  const d = { api: b.api - a.api, clickhouse: b.clickhouse - a.clickhouse, nodes: b.nodes.map((x, i) => x - a.nodes[i]!), zookeeper: b.zookeeper - a.zookeeper, idle: b.idle - a.idle, bench: b.bench - a.bench, wall: b.at - a.at };
  return { ...d, service: d.api + d.clickhouse + d.zookeeper, others: Math.max(0, b.busy - a.busy - d.api - d.clickhouse - d.zookeeper - d.idle - d.bench) };
}
export type CpuUse = ReturnType<typeof cpuSince>;

/** Two rounds' CPU in one. */
export const addCpu = (x: CpuUse, y: CpuUse): CpuUse => {
  const out = { ...x, nodes: x.nodes.map((n, i) => n + y.nodes[i]!) };
  for (const k of ['api', 'clickhouse', 'zookeeper', 'idle', 'bench', 'wall', 'service', 'others'] as const) out[k] = x[k] + y[k];
  return out;
};
const addCounts = (x: Record<string, number>, y: Record<string, number>) => Object.fromEntries([...new Set([...Object.keys(x), ...Object.keys(y)])].map((k) => [k, (x[k] ?? 0) + (y[k] ?? 0)]));
/** Two rounds' client figures in one. */
export const addPhase = (x: PhaseResult, y: PhaseResult): PhaseResult => ({
  ...x,
  seconds: x.seconds + y.seconds,
  verdicts: [...x.verdicts, ...y.verdicts],
  verdictErrors: addCounts(x.verdictErrors, y.verdictErrors),
  uploads: x.uploads + y.uploads,
  uploadErrors: addCounts(x.uploadErrors, y.uploadErrors),
  uploadLatencies: [...x.uploadLatencies, ...y.uploadLatencies],
  wrongAnswers: x.wrongAnswers + y.wrongAnswers,
});
