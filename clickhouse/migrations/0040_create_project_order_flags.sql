-- The project's order-probe setting, beside project_stress_flags (0035). A table rather than a
-- column: ClickHouse 18.16 has no ALTER TABLE … ADD COLUMN IF NOT EXISTS, and every migration here
-- must be safe to run twice.
-- order_findings_report_only: 1 when the project made the order probe's findings report-only; 0
-- (the default) when a new test found order-dependent fails the gate in enforce, as any failed new
-- test does. Stored this way round because a project with no row here (created before this table)
-- reads 0 through the LEFT JOIN, the setting's default: order findings block.
-- A settings write inserts a new version; reads take the latest with FINAL.
CREATE TABLE IF NOT EXISTS {db}.project_order_flags
(
    project_id UUID,
    order_findings_report_only UInt8,
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY project_id;
