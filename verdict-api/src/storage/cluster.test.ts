import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { StorageError } from '../errors/errors.js';
import { clusterStatements, shardOfProject, WHOLE_ON_EVERY_NODE } from './cluster.js';
import { loadMigrations } from './migrate.js';

const MIGRATIONS = loadMigrations(new URL('../../../clickhouse/migrations/', import.meta.url).pathname);
const onCluster = (statement: string) => clusterStatements(statement.replaceAll('{db}', '`sg`'), 'c1', 'sg');

describe('clusterStatements', () => {
  it('lays out every shipped migration', () => {
    const all = MIGRATIONS.flatMap((m) => m.statements.flatMap(onCluster));
    expect(all.every((s) => s.includes('ON CLUSTER `c1`'))).toBe(true);
    expect(all.filter((s) => /ENGINE = (?!Replicated|Distributed)/.test(s))).toEqual([]);
  });

  it('makes a sharded table a replicated local table per shard and a Distributed table keyed by project', () => {
    const [local, distributed] = onCluster(`CREATE TABLE IF NOT EXISTS {db}.gate_diffs
(
    project_id UUID,
    run_id String,
    recorded_at DateTime('UTC')
)
ENGINE = ReplacingMergeTree(recorded_at)
ORDER BY (project_id, run_id)`);
    expect(local).toMatch(/^CREATE TABLE IF NOT EXISTS `sg`\.gate_diffs_local ON CLUSTER `c1` \(\n {4}project_id UUID,[\s\S]*DateTime\('UTC'\)\n\) ENGINE = ReplicatedReplacingMergeTree\('\/clickhouse\/tables\/sg\/\{shard\}\/gate_diffs', '\{replica\}', recorded_at\)\nORDER BY \(project_id, run_id\)$/);
    expect(distributed).toBe('CREATE TABLE IF NOT EXISTS `sg`.gate_diffs ON CLUSTER `c1` AS `sg`.gate_diffs_local ENGINE = Distributed(`c1`, `sg`, gate_diffs_local, halfMD5(toString(project_id)))');
  });

  it('keeps a table of accounts and settings whole on every node: one replicated table, no Distributed', () => {
    const statements = onCluster(`CREATE TABLE IF NOT EXISTS {db}.account_usage
(
    account_id UUID,
    row_count UInt64,
    byte_count UInt64
)
ENGINE = SummingMergeTree((row_count, byte_count))
ORDER BY account_id`);
    expect(WHOLE_ON_EVERY_NODE.has('account_usage')).toBe(true);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toContain("ENGINE = ReplicatedSummingMergeTree('/clickhouse/tables/sg/whole/account_usage', '{replica}', (row_count, byte_count))");
  });

  it('points a materialized view at the local tables of its node', () => {
    expect(onCluster(`CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.branch_presence_from_runs TO {db}.test_case_branch_presence
AS SELECT project_id, git_branch FROM {db}.test_case_runs
WHERE status != 'skipped'`)).toEqual([
      "CREATE MATERIALIZED VIEW IF NOT EXISTS `sg`.branch_presence_from_runs ON CLUSTER `c1` TO `sg`.test_case_branch_presence_local AS SELECT project_id, git_branch FROM `sg`.test_case_runs_local\nWHERE status != 'skipped'",
    ]);
  });

  it('refuses what it cannot lay out: a sharded table without project_id, a statement of another kind', () => {
    expect(() => onCluster('CREATE TABLE IF NOT EXISTS {db}.orphans (id String) ENGINE = MergeTree ORDER BY id')).toThrow(new StorageError('cluster mode: table orphans has no project_id to shard by; add it to WHOLE_ON_EVERY_NODE or give it a project_id'));
    expect(() => onCluster('ALTER TABLE {db}.projects ADD COLUMN x String')).toThrow(/cannot lay out this migration statement on a cluster: ALTER TABLE/);
  });
});

describe('shardOfProject', () => {
  it("is ClickHouse's halfMD5 of the id as text (first 8 bytes of its MD5, big-endian) modulo the shards", () => {
    const id = '5b1f4e5e-0000-4000-8000-000000000001';
    const key = createHash('md5').update(id).digest().readBigUInt64BE(0);
    // 18.16 printed this for SELECT halfMD5(toString(toUUID('5b1f4e5e-0000-4000-8000-000000000001'))).
    expect(key).toBe(11768656742595500928n);
    expect(shardOfProject(id, 2)).toBe(Number(key % 2n));
    expect(shardOfProject(id.toUpperCase(), 3)).toBe(Number(key % 3n));
  });
});
