-- Projects: handle, default branch, the flaky-test policy and the stress parameters beside it.
-- A settings write inserts a new version; reads take the latest with FINAL.
CREATE TABLE IF NOT EXISTS {db}.projects
(
    project_id UUID,
    account_id UUID,
    handle String,
    default_branch String,
    flaky_auto_mark UInt8,
    flaky_auto_mark_threshold UInt32,
    flaky_cooldown_days UInt32,
    flaky_auto_quarantine UInt8,
    stress_curve String,
    stress_candidate_cap UInt32,
    stress_ceiling_seconds UInt32,
    stress_bulk_change_ratio Float64,
    stress_bulk_change_floor UInt32,
    created_at DateTime('UTC'),
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY project_id;
