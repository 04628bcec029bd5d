-- What each account has stored, by UTC day: the storage quota's figures (docs/security.md#quotas-and-rates).
-- One row per accepted upload (a run shard or a gate result): its rows (test cases and
-- repetitions; for a gate also its candidates' failure records) and the bytes of its request body.
-- Summed with sum() when read, never trusting merges to have summed them: SummingMergeTree only
-- keeps the table small. Nothing here expires (the product keeps no retention), so an account's
-- retained figure is the sum of all its rows.
CREATE TABLE IF NOT EXISTS {db}.account_usage
(
    account_id UUID,
    usage_date Date,
    row_count UInt64,
    byte_count UInt64
)
ENGINE = SummingMergeTree((row_count, byte_count))
ORDER BY (account_id, usage_date);
