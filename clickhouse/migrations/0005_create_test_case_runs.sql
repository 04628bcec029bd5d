-- One row per test case per run shard, with the ingestion-time is_new badge.
CREATE TABLE IF NOT EXISTS {db}.test_case_runs
(
    project_id UUID,
    run_id String,
    shard_index UInt32,
    test_case_id UUID,
    module String,
    suite String,
    name String,
    status Enum8('success' = 1, 'failure' = 2, 'skipped' = 3),
    duration_ms Float64,
    muted UInt8,
    is_new UInt8,
    git_branch String,
    is_ci UInt8,
    ran_at DateTime('UTC')
)
ENGINE = ReplacingMergeTree(ran_at)
PARTITION BY toYYYYMM(ran_at)
ORDER BY (project_id, run_id, shard_index, test_case_id);
