-- How to rerun each failed or timing-sensitive gate candidate as the gate did, in parts: how the CLI
-- was started (local install or the scoped package at a version), the build tool's words, the
-- build's arguments and the repetitions, as the JSON of the contract's ReproduceParts (validated at
-- upload and again when read). The server quotes them with the stored test identity into the
-- command the run page and the run report show; the uploaded text in
-- gate_candidate_evidence.reproduce_command (0032) is no longer read.
-- A table rather than columns: ClickHouse 18.16 has no ALTER TABLE … ADD COLUMN IF NOT EXISTS, and
-- every migration here must be safe to run twice. Keyed like the gate's other tables, so a retried
-- upload is recorded once (read with FINAL).
CREATE TABLE IF NOT EXISTS {db}.gate_candidate_reproduce
(
    project_id UUID,
    run_id String,
    shard_index UInt32,
    test_case_id UUID,
    parts String,
    recorded_at DateTime('UTC')
)
ENGINE = ReplacingMergeTree(recorded_at)
ORDER BY (project_id, run_id, shard_index, test_case_id);
