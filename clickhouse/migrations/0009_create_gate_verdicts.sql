-- The stress gate's verdict on a run shard: what it examined, what it stressed, which guard
-- fired, whether it blocked (enforce) or would have (report).
CREATE TABLE IF NOT EXISTS {db}.gate_verdicts
(
    project_id UUID,
    run_id String,
    shard_index UInt32,
    mode Enum8('report' = 1, 'enforce' = 2),
    outcome String,
    candidates_examined UInt32,
    stressed UInt32,
    excluded UInt32,
    not_stressed UInt32,
    guard_name String,
    guard_count UInt32,
    guard_reason String,
    blocked UInt8,
    would_have_blocked UInt8,
    recorded_at DateTime('UTC')
)
ENGINE = ReplacingMergeTree(recorded_at)
ORDER BY (project_id, run_id, shard_index);

-- One row per candidate the gate examined in that run shard, with its outcome.
CREATE TABLE IF NOT EXISTS {db}.gate_candidates
(
    project_id UUID,
    run_id String,
    shard_index UInt32,
    test_case_id UUID,
    module String,
    suite String,
    name String,
    muted UInt8,
    outcome Enum8('passed' = 1, 'failed' = 2, 'not_stressed' = 3, 'error' = 4),
    recorded_at DateTime('UTC')
)
ENGINE = ReplacingMergeTree(recorded_at)
ORDER BY (project_id, run_id, shard_index, test_case_id);
