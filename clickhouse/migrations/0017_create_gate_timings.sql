-- How long the stress pass of a run shard took (the time the gate added to the job), for the
-- ramp page. Separate from gate_verdicts (0009) because migrations are forward only.
CREATE TABLE IF NOT EXISTS {db}.gate_timings
(
    project_id UUID,
    run_id String,
    shard_index UInt32,
    stress_pass_ms Float64,
    recorded_at DateTime('UTC')
)
ENGINE = ReplacingMergeTree(recorded_at)
ORDER BY (project_id, run_id, shard_index);
