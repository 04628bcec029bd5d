-- Telemetry for tuning the stress parameters (curve, cap, ceiling, bulk-change threshold) and
-- the JVM start estimate. New tables rather than new columns: ClickHouse 18.16 has no
-- ALTER TABLE … ADD COLUMN IF NOT EXISTS, and every migration here must be safe to run twice.

-- One row per verdict request, written at verdict time whether or not the client ever uploads a
-- gate (a not-entitled account, a guard, a crash): inventory, counts and every guard signal.
-- `seq` is a strictly increasing version: two requests in one second stay two rows.
CREATE TABLE IF NOT EXISTS {db}.verdict_log
(
    project_id UUID,
    requested_at DateTime('UTC'),
    seq UInt64,
    run_id String,
    mode String,
    entitled UInt8,
    has_default_branch UInt8,
    inventory UInt32,
    posted UInt32,
    new_count UInt32,
    stressable UInt32,
    excluded UInt32,
    premise_fired UInt8,
    premise_reason String,
    bulk_change_fired UInt8,
    candidate_cap_fired UInt8,
    bulk_change_ratio Float64,
    bulk_change_floor UInt32,
    candidate_cap UInt32,
    ceiling_seconds UInt32
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(requested_at)
ORDER BY (project_id, requested_at, seq);

-- The measured duration of every new identity a verdict priced, and its repetitions (0 when
-- excluded as slow). No identity: the curve is tuned from the distribution, not from names.
CREATE TABLE IF NOT EXISTS {db}.verdict_log_candidates
(
    project_id UUID,
    requested_at DateTime('UTC'),
    seq UInt64,
    duration_ms Float64,
    repetitions UInt32
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(requested_at)
ORDER BY (project_id, requested_at, seq);

-- The stress pass's timing per gate upload (run shard): wall clock (has_pass = 0 when no pass
-- ran), the ceiling prediction and the JVM start it assumed, whether the ceiling timer cut it.
-- has_timing = 0 for uploads from clients that send no timing.
CREATE TABLE IF NOT EXISTS {db}.gate_timings
(
    project_id UUID,
    run_id String,
    shard_index UInt32,
    has_timing UInt8,
    has_pass UInt8,
    wall_clock_ms Float64,
    predicted_ms Float64,
    jvm_start_ms Float64,
    ceiling_cut UInt8,
    recorded_at DateTime('UTC')
)
ENGINE = ReplacingMergeTree(recorded_at)
ORDER BY (project_id, run_id, shard_index);

-- Per stressed candidate: first-pass duration, planned and recorded repetitions, failures, the
-- repetition of its first failure (0 = none), computed from the uploaded repetitions.
CREATE TABLE IF NOT EXISTS {db}.gate_candidate_stats
(
    project_id UUID,
    run_id String,
    shard_index UInt32,
    test_case_id UUID,
    muted UInt8,
    outcome String,
    duration_ms Float64,
    planned_repetitions UInt32,
    repetitions UInt32,
    failures UInt32,
    first_failure_at UInt32,
    repetitions_ms Float64,
    recorded_at DateTime('UTC')
)
ENGINE = ReplacingMergeTree(recorded_at)
ORDER BY (project_id, run_id, shard_index, test_case_id);
