-- Question: the ramp: what did the gate do per day on one project's merge requests (watched in report mode before switching to enforce)?
-- Tunes: the switch to enforce, and the curve, bulk threshold, cap and ceiling (see below); needs --project.
-- Read: one row per day; a steady would_have_blocked on tests known to be good means the curve is too strict, frequent guards mean the thresholds are too low.
-- One row per day (day_text, UTC) with gate verdicts on a branch other than the default:
--   gated_runs          merge-request runs (one run = all its shards) that reached the gate
--   candidates_stressed new test cases the stress pass ran (summed over shards)
--   would_have_blocked  runs the gate failed: blocked (enforce) or would have (report)
--   guards_fired        run shards where a guard (premise, bulk change, cap, ceiling) fired
--   added_ms            wall clock the stress passes added, summed over run shards
-- What it tunes: a high would_have_blocked on known-good tests says the curve is too strict;
-- frequent guards say the bulk ratio/floor or the cap is too low; added_ms weighs the ceiling.
-- Parameters: {db}, {project_id} (UUID), {default_branch} (string), {since} (DateTime).
-- Runs on ClickHouse 18.16 and chDB 26.x alike: no query parameters, ANY LEFT JOIN ... USING.
SELECT
    toString(day) AS day_text,
    uniqExact(run_id) AS gated_runs,
    sum(stressed) AS candidates_stressed,
    uniqExactIf(run_id, blocking = 1) AS would_have_blocked,
    countIf(guard_name != '') AS guards_fired,
    sum(pass_ms) AS added_ms
FROM
(
    SELECT
        toDate(recorded_at) AS day,
        run_id,
        shard_index,
        stressed,
        if(blocked = 1 OR would_have_blocked = 1, 1, 0) AS blocking,
        guard_name
    FROM {db}.gate_verdicts FINAL
    WHERE project_id = {project_id}
      AND recorded_at >= {since}
      AND run_id IN
      (
          SELECT run_id FROM {db}.test_runs
          WHERE project_id = {project_id} AND git_branch != {default_branch}
      )
) AS verdicts
ANY LEFT JOIN
(
    SELECT run_id, shard_index, wall_clock_ms AS pass_ms
    FROM {db}.gate_timings FINAL
    WHERE project_id = {project_id} AND has_pass = 1
) AS timings USING (run_id, shard_index)
GROUP BY day
ORDER BY day
