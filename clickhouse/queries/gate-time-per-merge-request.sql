-- Question: How much wall clock does the gate add to a merge request's job?
-- Tunes: stress.ceilingSeconds and the curve (the cost side of detection power).
-- Read: per run, the stress pass's wall clock (the longest shard: shards run side by side). "every gated run" counts runs whose gate had nothing to stress (or whose client sent no timing) as 0 s, which is most of them; "runs with a stress pass" is the cost when it runs. p99 near the ceiling means the ceiling, not the tests, sets the cost.
SELECT runs, n, round(q[1] / 1000, 2) AS p50_s, round(q[2] / 1000, 2) AS p90_s, round(q[3] / 1000, 2) AS p99_s, round(max_ms / 1000, 2) AS max_s
FROM
(
    SELECT '1 every gated run' AS runs, count() AS n, quantilesExact(0.5, 0.9, 0.99)(ms) AS q, max(ms) AS max_ms
    FROM (SELECT project_id, run_id, max(wall_clock_ms) AS ms FROM {db}.gate_timings FINAL WHERE {project_filter} AND recorded_at >= {since} GROUP BY project_id, run_id)
    UNION ALL
    SELECT '2 runs with a stress pass' AS runs, count() AS n, quantilesExact(0.5, 0.9, 0.99)(ms) AS q, max(ms) AS max_ms
    FROM (SELECT project_id, run_id, max(wall_clock_ms) AS ms, max(has_pass) AS pass FROM {db}.gate_timings FINAL WHERE {project_filter} AND recorded_at >= {since} GROUP BY project_id, run_id)
    WHERE pass = 1
)
ORDER BY runs
