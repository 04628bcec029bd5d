import { describe, expect, it } from '@jest/globals';
import pino from 'pino';
import type { VerdictResponse } from '../contract.js';
import { database } from '../storage/database.js';
import type { ClickHouseEngine } from '../storage/engine.js';
import { encodeInsert, type InsertRows, toTabSeparated } from '../storage/tab-separated.js';
import { batchedVerdictLog, verdictLogRows } from './verdict-log.js';

/** An engine that keeps what it is asked to insert, and refuses the tables it is told to (the boundary; storage is tested on the real engines). */
function recordingEngine(refuse: Set<string>): { engine: ClickHouseEngine; inserts: { table: string; body: string; columns: string[] }[] } {
  const inserts: { table: string; body: string; columns: string[] }[] = [];
  const engine: ClickHouseEngine = {
    kind: 'server',
    command: async () => {},
    query: async () => [],
    insert: async (table, rows: InsertRows) => {
      const name = table.text.split('.').pop()!.replaceAll('`', '');
      if (refuse.has(name)) throw new Error(`${name} refused`);
      const encoded = encodeInsert(rows)!;
      inserts.push({ table: name, body: encoded.body.toString('utf8'), columns: encoded.columns });
    },
    ping: async () => {},
    close: async () => {},
  };
  return { engine, inserts };
}

const verdict = (projectId: string, candidates: number): VerdictResponse =>
  ({
    projectId,
    entitled: true,
    defaultBranch: 'main',
    parameters: { bulkChangeRatio: 0.2, bulkChangeFloor: 50, candidateCap: 30, ceilingSeconds: 600, curve: [] },
    inventory: 100,
    posted: 10,
    candidates: Array.from({ length: candidates }, (_, i) => ({ module: ':app', suite: 'S', name: `t\t${i}`, testCaseId: `id-${i}`, durationMs: 10 + i, repetitions: 10, excluded: null })),
    guards: { premise: { fired: false, reason: null }, bulkChange: { fired: false }, candidateCap: { fired: false } },
  }) as unknown as VerdictResponse;

const at = new Date('2026-12-02T08:00:00Z');
const logger = () => {
  const errors: Record<string, unknown>[] = [];
  const log = pino({ level: 'error' }, { write: (line: string) => void errors.push(JSON.parse(line) as Record<string, unknown>) });
  return { log, errors };
};

describe('batchedVerdictLog: verdicts gather encoded and are written in one insert per table', () => {
  it('writes what the rows say, as toTabSeparated would, in one insert per table per flush', async () => {
    const { engine, inserts } = recordingEngine(new Set());
    const vlog = batchedVerdictLog(database(engine, 'db'), logger().log, 60_000);
    await vlog.record(verdict('p1', 2), { runId: 'r1', mode: 'report' }, at);
    await vlog.record(verdict('p2', 0), { mode: 'enforce' }, at);
    await vlog.record(verdict('p3', 1), {}, at);
    await vlog.close();

    expect(inserts.map((i) => i.table)).toEqual(['verdict_log_candidates', 'verdict_log']);
    const logs = inserts[1]!.body.split('\n').filter(Boolean);
    expect(logs).toHaveLength(3);
    // The same bytes the row objects encode to (seq aside, which each verdict takes in turn).
    const seqOf = (line: string, columns: string[]) => Number(line.split('\t')[columns.indexOf('seq')]);
    const seqs = logs.map((l) => seqOf(l, inserts[1]!.columns));
    const expected = [verdict('p1', 2), verdict('p2', 0), verdict('p3', 1)].map((v, i) => verdictLogRows(v, [{ runId: 'r1', mode: 'report' as const }, { mode: 'enforce' as const }, {}][i]!, at, seqs[i]!));
    expect(inserts[1]!.body).toBe(toTabSeparated(expected.map((e) => e.log)).body);
    expect(inserts[0]!.body).toBe(toTabSeparated(expected.flatMap((e) => e.candidates)).body);
    // A name with a tab never reaches the candidates' rows (they carry durations, not names).
    expect(inserts[0]!.columns).toEqual(['project_id', 'requested_at', 'seq', 'duration_ms', 'repetitions']);
  });

  it('keeps refused rows for the next flush, and does not write candidates twice when only verdict_log was refused', async () => {
    const refuse = new Set(['verdict_log']);
    const { engine, inserts } = recordingEngine(refuse);
    const vlog = batchedVerdictLog(database(engine, 'db'), logger().log, 60_000);
    await vlog.record(verdict('p1', 2), {}, at);
    await expect(vlog.flush()).rejects.toThrow('verdict_log refused');
    await vlog.record(verdict('p2', 1), {}, at);
    refuse.clear();
    await vlog.flush();

    const lines = (table: string) => inserts.filter((i) => i.table === table).flatMap((i) => i.body.split('\n').filter(Boolean).map((l) => l.split('\t')[0]));
    expect(lines('verdict_log_candidates')).toEqual(['p1', 'p1', 'p2']);
    expect(lines('verdict_log')).toEqual(['p1', 'p2']);
    await vlog.flush();
    expect(inserts).toHaveLength(3);
  });

  it('drops the oldest batches beyond its bound while ClickHouse refuses, and says how many', async () => {
    const refuse = new Set(['verdict_log', 'verdict_log_candidates']);
    const { engine, inserts } = recordingEngine(refuse);
    const { log, errors } = logger();
    const vlog = batchedVerdictLog(database(engine, 'db'), log, 60_000, 3);
    for (const batch of [['a', 'b'], ['c', 'd'], ['e']]) {
      for (const p of batch) await vlog.record(verdict(p, 1), {}, at);
      await expect(vlog.flush()).rejects.toThrow('refused');
    }
    // 5 pending against a bound of 3: the oldest batch (2 verdicts) went; c, d and e stay.
    expect(errors.map((e) => [e['msg'], e['dropped'], e['droppedTotal']])).toEqual([['verdict log: ClickHouse refused it too long; oldest telemetry rows dropped', 2, 2]]);
    refuse.clear();
    await vlog.flush();
    expect(inserts.map((i) => [i.table, i.body.split('\n').filter(Boolean).map((l) => l.split('\t')[0])])).toEqual([
      ['verdict_log_candidates', ['c', 'd', 'e']],
      ['verdict_log', ['c', 'd', 'e']],
    ]);
  });
});
