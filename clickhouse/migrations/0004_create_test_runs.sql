-- One row per uploaded run shard. Written last during ingestion, so it marks a complete upload:
-- a retry of the same (run_id, shard_index) finds it and writes nothing twice.
CREATE TABLE IF NOT EXISTS {db}.test_runs
(
    project_id UUID,
    run_id String,
    shard_index UInt32,
    shard_total UInt32,
    git_branch String,
    git_commit String,
    is_ci UInt8,
    status Enum8('success' = 1, 'failure' = 2),
    duration_ms Float64,
    started_at DateTime('UTC'),
    ingested_at DateTime('UTC'),
    test_case_count UInt32,
    new_test_case_count UInt32
)
ENGINE = ReplacingMergeTree(ingested_at)
PARTITION BY toYYYYMM(started_at)
ORDER BY (project_id, run_id, shard_index);
