-- Question: How often does each guard fire, and at what counts?
-- Tunes: stress.bulkChangeRatio and bulkChangeFloor (bulk_change), stress.candidateCap (candidate_cap), stress.ceilingSeconds (ceiling).
-- Read: premise, bulk_change and candidate_cap are the server's signals on every verdict (share of verdicts; a signal is counted even when an earlier guard also fired). ceiling is the client's prediction refusing the pass (share of gate uploads). p50_count and max_count are the counts that triggered it: new tests for premise and bulk_change, stressable candidates for the cap, candidates for the ceiling. A guard firing on more than a few percent of verdicts is too tight.
SELECT guard, of, fired, share, p50_count, max_count
FROM
(
    SELECT '1 premise' AS guard, 'verdicts' AS of, toUInt64(countIf(premise_fired = 1)) AS fired, round(countIf(premise_fired = 1) / count(), 4) AS share,
        toFloat64(quantileExactIf(0.5)(new_count, premise_fired = 1)) AS p50_count, toUInt64(maxIf(new_count, premise_fired = 1)) AS max_count
    FROM {db}.verdict_log WHERE {project_filter} AND requested_at >= {since}
    UNION ALL
    SELECT '2 bulk_change' AS guard, 'verdicts' AS of, toUInt64(countIf(bulk_change_fired = 1)) AS fired, round(countIf(bulk_change_fired = 1) / count(), 4) AS share,
        toFloat64(quantileExactIf(0.5)(new_count, bulk_change_fired = 1)) AS p50_count, toUInt64(maxIf(new_count, bulk_change_fired = 1)) AS max_count
    FROM {db}.verdict_log WHERE {project_filter} AND requested_at >= {since}
    UNION ALL
    SELECT '3 candidate_cap' AS guard, 'verdicts' AS of, toUInt64(countIf(candidate_cap_fired = 1)) AS fired, round(countIf(candidate_cap_fired = 1) / count(), 4) AS share,
        toFloat64(quantileExactIf(0.5)(stressable, candidate_cap_fired = 1)) AS p50_count, toUInt64(maxIf(stressable, candidate_cap_fired = 1)) AS max_count
    FROM {db}.verdict_log WHERE {project_filter} AND requested_at >= {since}
    UNION ALL
    SELECT '4 ceiling' AS guard, 'gate uploads' AS of, toUInt64(countIf(guard_name = 'ceiling')) AS fired, round(countIf(guard_name = 'ceiling') / count(), 4) AS share,
        toFloat64(quantileExactIf(0.5)(guard_count, guard_name = 'ceiling')) AS p50_count, toUInt64(maxIf(guard_count, guard_name = 'ceiling')) AS max_count
    FROM {db}.gate_verdicts FINAL WHERE {project_filter} AND recorded_at >= {since}
)
ORDER BY guard
