// One ClickHouse database of the service: an engine and the name every table is qualified with.
import { ident, Sql } from '../sql/bind.js';
import type { ClickHouseEngine } from './engine.js';

export type TableName =
  | 'accounts'
  | 'projects'
  | 'api_tokens'
  | 'test_runs'
  | 'test_case_runs'
  | 'test_case_run_repetitions'
  | 'test_cases'
  | 'test_case_branch_presence'
  | 'gate_verdicts'
  | 'gate_candidates'
  | 'flaky_marks'
  | 'flaky_mark_history'
  | 'quarantines'
  | 'quarantine_audit'
  | 'webhooks'
  | 'webhook_deliveries'
  | 'admin_credentials'
  | 'api_token_names'
  | 'sessions'
  | 'settings_audit'
  | 'verdict_log'
  | 'verdict_log_candidates'
  | 'gate_timings'
  | 'gate_candidate_stats';

/** The engine plus the database name; `t('projects')` is the qualified table. */
export interface Database {
  readonly engine: ClickHouseEngine;
  readonly name: string;
  t(table: TableName): Sql;
}

export function database(engine: ClickHouseEngine, name: string): Database {
  const db = ident(name);
  return { engine, name, t: (table) => new Sql(`${db.text}.${ident(table).text}`) };
}

/** ClickHouse 18.16 prints 64-bit integers as JSON strings; newer engines as numbers. */
export const num = (value: unknown): number => Number(value);
