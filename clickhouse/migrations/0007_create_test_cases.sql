-- The catalogue of identities a project has ever reported, keyed by test_case_id.
CREATE TABLE IF NOT EXISTS {db}.test_cases
(
    project_id UUID,
    test_case_id UUID,
    module String,
    suite String,
    name String,
    last_ran_at DateTime('UTC')
)
ENGINE = ReplacingMergeTree(last_ran_at)
ORDER BY (project_id, test_case_id);
