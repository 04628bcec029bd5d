-- Question: the ramp: what did the gate do per day on merge requests (watched in report mode before switching to enforce)?
-- Tunes: the switch to enforce, and the curve, bulk threshold, cap and ceiling (see below).
-- Read: per project, one row per day and a 'total' row for the whole period; a steady would_have_blocked on tests known to be good means the curve is too strict, frequent guards mean the thresholds are too low.
-- The one definition of these counts: the dashboard's ramp page, its JSON (GET …/ramp) and
-- `verdict-api telemetry` all read this file. Only runs on a branch other than the project's
-- default one (a merge request's) count; a run is all its shards, on the day of its first verdict.
--   merge_requests      merge requests (known by their branch) with at least one gated run
--   runs                their runs that reached the gate
--   would_have_blocked  of those runs, the ones whose gate failed a new test: blocked in enforce
--                       mode, or would have in report mode (the same count in both modes)
--   candidates_stressed new test cases the stress passes ran (summed over shards)
--   guards_fired        run shards where a guard (premise, bulk change, cap, ceiling) fired
--   added_ms            wall clock the stress passes added, summed over run shards
-- What it tunes: a high would_have_blocked on known-good tests says the curve is too strict;
-- frequent guards say the bulk ratio/floor or the cap is too low; added_ms weighs the ceiling.
-- Parameters: {db}, {project_filter}, {since} (DateTime).
-- Runs on ClickHouse 18.16 and chDB 26.x alike: ANY LEFT JOIN / ANY INNER JOIN ... USING, arrayJoin.
SELECT handle AS project, day, merge_requests, runs, would_have_blocked, candidates_stressed, guards_fired, added_ms
FROM
(
    SELECT
        project_id,
        day_text AS day,
        uniqExact(git_branch) AS merge_requests,
        uniqExact(run_id) AS runs,
        uniqExactIf(run_id, blocking = 1) AS would_have_blocked,
        sum(stressed) AS candidates_stressed,
        sum(guards) AS guards_fired,
        sum(pass_ms) AS added_ms
    FROM
    (
        SELECT project_id, run_id, git_branch, stressed, blocking, guards, pass_ms, arrayJoin([toString(first_day), 'total']) AS day_text
        FROM
        (
            SELECT project_id, run_id, first_day, stressed, blocking, guards, pass_ms, git_branch
            FROM
            (
                SELECT project_id, run_id, first_day, stressed, blocking, guards, pass_ms
                FROM
                (
                    SELECT project_id, run_id, toDate(min(recorded_at)) AS first_day, sum(stressed) AS stressed,
                        max(if(blocked = 1 OR would_have_blocked = 1, 1, 0)) AS blocking, countIf(guard_name != '') AS guards
                    FROM {db}.gate_verdicts FINAL
                    WHERE {project_filter} AND recorded_at >= {since}
                    GROUP BY project_id, run_id
                ) AS verdicts
                ANY LEFT JOIN
                (
                    SELECT project_id, run_id, sum(wall_clock_ms) AS pass_ms
                    FROM {db}.gate_timings FINAL
                    WHERE {project_filter} AND has_pass = 1
                    GROUP BY project_id, run_id
                ) AS timings USING (project_id, run_id)
            ) AS gated
            ANY INNER JOIN
            (
                SELECT project_id, run_id, any(git_branch) AS git_branch
                FROM {db}.test_runs
                WHERE {project_filter}
                GROUP BY project_id, run_id
            ) AS branches USING (project_id, run_id)
        ) AS gated_runs
        ANY LEFT JOIN
        (
            SELECT project_id, argMax(default_branch, version) AS default_branch FROM {db}.projects GROUP BY project_id
        ) AS defaults USING (project_id)
        WHERE git_branch != default_branch
    ) AS merge_request_runs
    GROUP BY project_id, day_text
) AS counts
ANY LEFT JOIN
(
    SELECT project_id, argMax(handle, version) AS handle FROM {db}.projects GROUP BY project_id
) AS handles USING (project_id)
ORDER BY project, day
