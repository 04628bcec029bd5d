-- The flaky mark of a test case, as the project's flaky policy set it: one current row per
-- test case (a change inserts a new version; reads take the latest with FINAL). Only organic
-- evidence ever writes here: the stress gate's repetitions never mark a test.
CREATE TABLE IF NOT EXISTS {db}.flaky_marks
(
    project_id UUID,
    test_case_id UUID,
    module String,
    suite String,
    name String,
    marked UInt8,
    reason String,
    changed_at DateTime('UTC'),
    last_flaky_at DateTime('UTC'),
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY (project_id, test_case_id);

-- Every change of a flaky mark, with its reason and time: append-only, never replaced.
CREATE TABLE IF NOT EXISTS {db}.flaky_mark_history
(
    project_id UUID,
    test_case_id UUID,
    marked UInt8,
    reason String,
    changed_at DateTime('UTC'),
    seq UInt64
)
ENGINE = MergeTree
ORDER BY (project_id, test_case_id, seq);
