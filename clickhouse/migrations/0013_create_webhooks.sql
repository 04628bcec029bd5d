-- Per-project webhooks that receive the flakiness alerts. The secret signs each body
-- (HMAC-SHA256), so it is kept in clear; it is never returned by the API.
CREATE TABLE IF NOT EXISTS {db}.webhooks
(
    project_id UUID,
    webhook_id UUID,
    url String,
    secret String,
    active UInt8,
    created_at DateTime('UTC'),
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY (project_id, webhook_id);

-- One row per delivery attempt of an alert to a webhook: the delivery log the API serves.
CREATE TABLE IF NOT EXISTS {db}.webhook_deliveries
(
    project_id UUID,
    delivery_id UUID,
    webhook_id UUID,
    event String,
    test_case_id UUID,
    attempt UInt32,
    outcome Enum8('delivered' = 1, 'failed' = 2),
    will_retry UInt8,
    status_code UInt16,
    error String,
    attempted_at DateTime('UTC'),
    seq UInt64
)
ENGINE = MergeTree
ORDER BY (project_id, seq);
