-- Timing-sensitive gate candidates: a candidate that failed while its repetitions ran side by side
-- (several JVMs at once) and passed every repetition run again alone. Its strip
-- (test_case_run_repetitions) is the alone run; this row says how many side-by-side repetitions
-- failed, of how many. The evidence of those failures sits where every candidate's does, in
-- gate_failures and gate_failure_groups (0032), keyed by the test case: a timing-sensitive
-- candidate failed no repetition alone, so nothing else is stored there for it.
-- A table rather than columns of gate_candidates: ClickHouse 18.16 has no ALTER TABLE … ADD
-- COLUMN IF NOT EXISTS, and every migration here must be safe to run twice. One row per
-- timing-sensitive candidate only; a candidate with none is not timing-sensitive. Keyed like the
-- gate's other tables, so a retried upload is recorded once (read with FINAL).
CREATE TABLE IF NOT EXISTS {db}.gate_timing_sensitive
(
    project_id UUID,
    run_id String,
    shard_index UInt32,
    test_case_id UUID,
    side_by_side_failures UInt32,
    side_by_side_repetitions UInt32,
    recorded_at DateTime('UTC')
)
ENGINE = ReplacingMergeTree(recorded_at)
ORDER BY (project_id, run_id, shard_index, test_case_id);
