-- Question: In report mode, how often would the gate have blocked, per project and week?
-- Tunes: when a project switches from report to enforce (the RFC's adoption ramp), and the curve if the rate looks like noise.
-- Read: one row per project and week (weeks start on Monday, UTC), worst first, at most 25 rows. gated_runs counts runs with a report-mode gate upload; rate is the share that would have blocked. A steady rate near zero with a few real findings is the signal to change one word to enforce.
SELECT handle AS project, week, gated_runs, blocking AS would_have_blocked, rate
FROM
(
    SELECT project_id, toMonday(recorded_at) AS week, uniqExact(run_id) AS gated_runs,
        uniqExactIf(run_id, would_have_blocked = 1) AS blocking,
        round(uniqExactIf(run_id, would_have_blocked = 1) / uniqExact(run_id), 4) AS rate
    FROM {db}.gate_verdicts FINAL
    WHERE {project_filter} AND recorded_at >= {since} AND mode = 'report'
    GROUP BY project_id, week
) AS weeks
ANY LEFT JOIN
(
    SELECT project_id, argMax(handle, version) AS handle FROM {db}.projects GROUP BY project_id
) AS handles USING (project_id)
ORDER BY rate DESC, blocking DESC, project, week
LIMIT 25
