-- Question: What share of stressed candidates disagreed with themselves, and at which repetition did the first failure come?
-- Tunes: the repetitions of each stress.curve bucket.
-- Read: one row per planned repetition count (the curve's bucket) and k <= it. catch_rate is the share of stressed candidates that failed at least once. share_within_k is the share of those catches whose first failure came at repetition k or earlier: when it is close to 1 at a smaller k, fewer repetitions would have caught the same.
SELECT
    planned_repetitions AS planned,
    k,
    count() AS stressed,
    countIf(failures > 0) AS caught,
    round(countIf(failures > 0) / count(), 4) AS catch_rate,
    countIf(first_failure_at >= 1 AND first_failure_at <= k) AS caught_within_k,
    round(countIf(first_failure_at >= 1 AND first_failure_at <= k) / greatest(countIf(failures > 0), 1), 4) AS share_within_k
FROM {db}.gate_candidate_stats FINAL
ARRAY JOIN [1, 2, 3, 5, 10] AS k
WHERE {project_filter} AND recorded_at >= {since} AND outcome IN ('passed', 'failed', 'order_dependent') AND k <= planned_repetitions
GROUP BY planned, k
ORDER BY planned DESC, k
