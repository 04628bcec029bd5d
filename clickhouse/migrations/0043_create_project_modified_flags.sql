-- The project's modified-tests setting, beside project_stress_flags (0035) and project_order_flags
-- (0040). A table rather than a column: ClickHouse 18.16 has no ALTER TABLE … ADD COLUMN IF NOT
-- EXISTS, and every migration here must be safe to run twice.
-- modified_tests_block: 1 when a test the merge request modified that disagreed with itself fails
-- the gate in enforce; 0 (the default) when modified tests are stressed and reported only. Stored
-- this way round because its default is off: a project with no row here (created before this
-- table) reads 0 through the LEFT JOIN, the setting's default (0040 stores its flag inverted for
-- the same reason, its default being on).
-- A settings write inserts a new version; reads take the latest with FINAL.
CREATE TABLE IF NOT EXISTS {db}.project_modified_flags
(
    project_id UUID,
    modified_tests_block UInt8,
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY project_id;
