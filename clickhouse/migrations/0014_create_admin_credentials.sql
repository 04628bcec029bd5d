-- An account's admin credentials: the credential that changes settings, quarantine, webhooks
-- and tokens (a project's CI token cannot). Stored as SHA-256 hashes; shown once at creation.
CREATE TABLE IF NOT EXISTS {db}.admin_credentials
(
    credential_hash String,
    credential_id UUID,
    account_id UUID,
    name String,
    revoked UInt8,
    created_at DateTime('UTC'),
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY credential_hash;

-- Names of the project tokens in api_tokens (0003 has none): one current row per token.
CREATE TABLE IF NOT EXISTS {db}.api_token_names
(
    project_id UUID,
    token_id UUID,
    name String,
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY (project_id, token_id);
