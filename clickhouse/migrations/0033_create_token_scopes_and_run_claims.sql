-- Token scopes and run claims (docs/security.md). New tables rather than columns: 18.16 has no
-- ALTER TABLE … ADD COLUMN IF NOT EXISTS.

-- The scope of each project token: 'default-branch' (its runs are the default branch's history;
-- for protected-branch jobs) or 'merge-request' (its runs never are). A token with no row here
-- was issued before scopes existed and is a default-branch token, as it always was.
CREATE TABLE IF NOT EXISTS {db}.api_token_scopes
(
    token_hash String,
    project_id UUID,
    token_id UUID,
    scope String,
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY token_hash;

-- Who wrote a run id first, and each run shard's gate result: kind 'run' (shard_index 0) or
-- 'gate'. The earliest claim (seq) owns it; another credential's upload under it is refused.
-- body_hash tells a gate's retry (the same result) from a second, different result.
CREATE TABLE IF NOT EXISTS {db}.run_claims
(
    project_id UUID,
    run_id String,
    kind String,
    shard_index UInt32,
    actor String,
    scope String,
    body_hash String,
    claimed_at DateTime('UTC'),
    seq UInt64
)
ENGINE = MergeTree
ORDER BY (project_id, run_id, kind, shard_index, seq);
