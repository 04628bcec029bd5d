-- The quarantine state of a test case: enabled, muted (runs, its failure masked) or skipped
-- (not run), with owner, reason, issue link and optional expiry. One current row per test
-- case; a change inserts a new version; reads take the latest with FINAL.
CREATE TABLE IF NOT EXISTS {db}.quarantines
(
    project_id UUID,
    test_case_id UUID,
    module String,
    suite String,
    name String,
    state Enum8('enabled' = 1, 'muted' = 2, 'skipped' = 3),
    owner String,
    reason String,
    issue_url String,
    has_expiry UInt8,
    expires_at DateTime('UTC'),
    changed_by String,
    changed_at DateTime('UTC'),
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY (project_id, test_case_id);

-- The audit of every quarantine change: who, when, from what state to what. Append-only.
CREATE TABLE IF NOT EXISTS {db}.quarantine_audit
(
    project_id UUID,
    test_case_id UUID,
    from_state Enum8('enabled' = 1, 'muted' = 2, 'skipped' = 3),
    to_state Enum8('enabled' = 1, 'muted' = 2, 'skipped' = 3),
    actor String,
    owner String,
    reason String,
    issue_url String,
    has_expiry UInt8,
    expires_at DateTime('UTC'),
    changed_at DateTime('UTC'),
    seq UInt64
)
ENGINE = MergeTree
ORDER BY (project_id, test_case_id, seq);
