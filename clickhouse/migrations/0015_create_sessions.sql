-- Dashboard sessions: a browser signed in with an admin credential. The cookie carries the
-- session secret; only its SHA-256 is stored, with the session's CSRF token and expiry. Sign-out
-- writes a revoked version (effective at once) and deletes the rows.
CREATE TABLE IF NOT EXISTS {db}.sessions
(
    session_hash String,
    account_id UUID,
    credential_id UUID,
    csrf_token String,
    expires_at DateTime('UTC'),
    revoked UInt8,
    created_at DateTime('UTC'),
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY session_hash;
