-- Repetitions of a test case within one run. `source` separates organic repetitions (the
-- build repeated the test itself) from the stress gate's: consumers that attribute flakiness
-- read only 'organic'; the run page and run report show both.
CREATE TABLE IF NOT EXISTS {db}.test_case_run_repetitions
(
    project_id UUID,
    run_id String,
    shard_index UInt32,
    test_case_id UUID,
    source Enum8('organic' = 1, 'stress' = 2),
    repetition UInt32,
    status Enum8('success' = 1, 'failure' = 2),
    duration_ms Float64,
    ran_at DateTime('UTC')
)
ENGINE = ReplacingMergeTree(ran_at)
PARTITION BY toYYYYMM(ran_at)
ORDER BY (project_id, run_id, shard_index, test_case_id, source, repetition);
