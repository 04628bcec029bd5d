-- Claims of project handles, so that two accounts creating a project with one handle at the same
-- moment cannot both get it: the earliest claim (seq) owns the handle. Projects created before
-- this table existed are found in projects itself.
CREATE TABLE IF NOT EXISTS {db}.project_handle_claims
(
    handle String,
    project_id UUID,
    account_id UUID,
    claimed_at DateTime('UTC'),
    seq UInt64
)
ENGINE = MergeTree
ORDER BY (handle, seq);
