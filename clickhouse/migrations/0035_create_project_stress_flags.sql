-- Stress parameters that are flags, beside the projects row (0002) that holds the others. A
-- table rather than a column of projects: ClickHouse 18.16 has no ALTER TABLE … ADD COLUMN IF
-- NOT EXISTS, and every migration here must be safe to run twice.
-- timing_sensitive_blocks: 1 when a new test that failed only while its repetitions ran side by
-- side (and passed every repetition run again alone) fails the gate like any failed new test.
-- A settings write inserts a new version; reads take the latest with FINAL. A project with no
-- row here was created before this table existed: every flag at its default, 0.
CREATE TABLE IF NOT EXISTS {db}.project_stress_flags
(
    project_id UUID,
    timing_sensitive_blocks UInt8,
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY project_id;
