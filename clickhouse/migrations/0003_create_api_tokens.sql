-- Per-project API tokens, stored as SHA-256 hashes: the plain token is shown once, at creation.
CREATE TABLE IF NOT EXISTS {db}.api_tokens
(
    token_hash String,
    token_id UUID,
    project_id UUID,
    revoked UInt8,
    created_at DateTime('UTC'),
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY token_hash;
