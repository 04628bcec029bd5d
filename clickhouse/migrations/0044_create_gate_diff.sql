-- What a gated observation says of the merge request's diff: why each candidate was chosen (its
-- origin), the diff analysis behind modified and renamed tests, and the tests not stressed because
-- they are renames of known tests. Tables rather than columns (18.16 has no ADD COLUMN IF NOT
-- EXISTS); keyed like the gate's other tables, so a retried upload is recorded once (read with
-- FINAL). No Nullable columns: an absent value has a has_* flag beside it.

-- One row per candidate whose origin is not 'new' (the default, and every older CLI's): 'modified'
-- (it ran on the default branch and the merge request changed its own lines) or 'diff' (the project
-- had no default-branch history: a test method the diff added). No row: new.
CREATE TABLE IF NOT EXISTS {db}.gate_candidate_origins
(
    project_id UUID,
    run_id String,
    shard_index UInt32,
    test_case_id UUID,
    origin Enum8('new' = 1, 'modified' = 2, 'diff' = 3),
    recorded_at DateTime('UTC')
)
ENGINE = ReplacingMergeTree(recorded_at)
ORDER BY (project_id, run_id, shard_index, test_case_id);

-- One row per gate shard that carried a diff analysis: analysed (against base) or skipped (why),
-- how many test methods it added and modified, and the project's modifiedTestsBlock when the gate
-- was recorded (the run page says from it whether a modified test's failure blocked).
CREATE TABLE IF NOT EXISTS {db}.gate_diffs
(
    project_id UUID,
    run_id String,
    shard_index UInt32,
    status Enum8('analysed' = 1, 'skipped' = 2),
    has_why UInt8,
    why String,
    has_base UInt8,
    base String,
    added UInt32,
    modified UInt32,
    modified_tests_block UInt8,
    recorded_at DateTime('UTC')
)
ENGINE = ReplacingMergeTree(recorded_at)
ORDER BY (project_id, run_id, shard_index);

-- One row per renamed test the gate did not stress (at most 1,000 an upload: the contract's
-- DIFF_BOUNDS): its identity and id, and the identity and id of the known test it is a rename of.
CREATE TABLE IF NOT EXISTS {db}.gate_renamed
(
    project_id UUID,
    run_id String,
    shard_index UInt32,
    test_case_id UUID,
    module String,
    suite String,
    name String,
    from_test_case_id UUID,
    from_module String,
    from_suite String,
    from_name String,
    recorded_at DateTime('UTC')
)
ENGINE = ReplacingMergeTree(recorded_at)
ORDER BY (project_id, run_id, shard_index, test_case_id);
