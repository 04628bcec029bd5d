-- Every change of a project's settings: who, when, the settings before and after (JSON).
-- Append-only.
CREATE TABLE IF NOT EXISTS {db}.settings_audit
(
    project_id UUID,
    actor String,
    changed_at DateTime('UTC'),
    before String,
    after String,
    seq UInt64
)
ENGINE = MergeTree
ORDER BY (project_id, seq);
