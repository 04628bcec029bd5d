-- Has this test case run on this branch (in CI or not)? One row per key is retained forever.
-- ran_at is the version, so a merge keeps the latest run; the verdict's "ever" needs no
-- window, and the ingestion badge's 90-day window is a filter after the primary-key search.
CREATE TABLE IF NOT EXISTS {db}.test_case_branch_presence
(
    project_id UUID,
    git_branch String,
    is_ci UInt8,
    test_case_id UUID,
    ran_at DateTime('UTC'),
    run_id String
)
ENGINE = ReplacingMergeTree(ran_at)
ORDER BY (project_id, git_branch, is_ci, test_case_id);
