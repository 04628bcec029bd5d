-- Question: How are new tests' measured durations spread over the repetition curve's buckets, and what share is excluded as slow?
-- Tunes: stress.curve (bucket boundaries and repetitions per bucket).
-- Read: buckets are the default curve's (<=5s: 10, <10s: 5, <30s: 3, <5m: 2, slower excluded). A top bucket far below the RFC's 94% means the curve weakens the gate for this fleet; a large excluded share means the 5-minute limit drops real tests. excluded_by_curve counts candidates the project's own curve excluded. From every verdict, entitled or not.
SELECT
    multiIf(duration_ms <= 5000, '1 <=5s (10)', duration_ms < 10000, '2 <10s (5)', duration_ms < 30000, '3 <30s (3)', duration_ms < 300000, '4 <5m (2)', '5 excluded') AS bucket,
    count() AS candidates,
    round(count() / (SELECT count() FROM {db}.verdict_log_candidates WHERE {project_filter} AND requested_at >= {since}), 4) AS share,
    round(quantileExact(0.5)(duration_ms), 1) AS p50_ms,
    round(quantileExact(0.9)(duration_ms), 1) AS p90_ms,
    countIf(repetitions = 0) AS excluded_by_curve
FROM {db}.verdict_log_candidates
WHERE {project_filter} AND requested_at >= {since}
GROUP BY bucket
ORDER BY bucket
