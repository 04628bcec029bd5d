-- Question: How often does the wall-clock ceiling bite, and how good is the prediction it is decided by?
-- Tunes: stress.ceilingSeconds and the client's jvmStartMs (STRESS_GATE_JVM_START_MS).
-- Read: over gate uploads that had candidates, refused is the share the prediction kept from running (ceiling guard), cut the share the timer stopped mid-pass; bite_rate is both. actual_over_predicted is the median of wall clock / prediction over passes that ran to the end: well above 1 means jvmStartMs is too low (the ceiling refuses too late), well below 1 too high (it refuses passes that would have fit).
SELECT
    count() AS uploads_with_candidates,
    countIf(guard_name = 'ceiling') AS refused,
    countIf(ceiling_cut = 1) AS cut,
    round((countIf(guard_name = 'ceiling') + countIf(ceiling_cut = 1)) / count(), 4) AS bite_rate,
    round(quantileExactIf(0.5)(wall_clock_ms / predicted_ms, has_pass = 1 AND ceiling_cut = 0 AND predicted_ms > 0), 3) AS actual_over_predicted,
    round(quantileExactIf(0.5)(jvm_start_ms, has_timing = 1), 0) AS jvm_start_ms_p50
FROM
(
    SELECT project_id, run_id, shard_index, guard_name
    FROM {db}.gate_verdicts FINAL
    WHERE {project_filter} AND recorded_at >= {since} AND candidates_examined > 0
) AS verdicts
ANY LEFT JOIN
(
    SELECT project_id, run_id, shard_index, has_timing, has_pass, wall_clock_ms, predicted_ms, jvm_start_ms, ceiling_cut
    FROM {db}.gate_timings FINAL
    WHERE {project_filter} AND recorded_at >= {since}
) AS timings USING (project_id, run_id, shard_index)
