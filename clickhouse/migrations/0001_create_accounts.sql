-- Accounts own projects and carry the stress-gate entitlement flag (off for new accounts).
CREATE TABLE IF NOT EXISTS {db}.accounts
(
    account_id UUID,
    name String,
    stress_gate_entitled UInt8,
    created_at DateTime('UTC'),
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY account_id;
