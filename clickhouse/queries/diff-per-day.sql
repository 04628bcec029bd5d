-- Question: How often does the merge request's diff change what the gate stresses: tests it stressed because the merge request modified them, tests it stressed from the diff on day one, renamed tests it did not stress, and how often the diff could not be had?
-- Tunes: stress.modifiedTestsBlock (whether modified tests block in enforce), and CI checkouts (a steady skipped share means shallow clones the gate may not deepen: STRESS_GATE_FETCH_MERGE_BASE, fetch-depth).
-- Read: per project, one row per day of the gate's upload and a 'total' row. analysed and skipped count gate uploads whose diff analysis was made or could not be (the run page says why); modified_candidates and diff_candidates count candidates by origin (a test the merge request modified; a test the diff added while the project had no default-branch history); renamed_tests counts tests not stressed because their body is that of a known test that is gone (the server's fingerprints, or the diff on day one). Many renamed tests in a day is a refactoring the bulk-change guard no longer refuses.
SELECT handle AS project, day, analysed, skipped, modified_candidates, diff_candidates, renamed_tests
FROM
(
    SELECT
        project_id,
        day_text AS day,
        sum(a) AS analysed,
        sum(s) AS skipped,
        sum(m) AS modified_candidates,
        sum(d) AS diff_candidates,
        sum(r) AS renamed_tests
    FROM
    (
        SELECT project_id, arrayJoin([toString(toDate(recorded_at)), 'total']) AS day_text, toUInt64(status = 'analysed') AS a, toUInt64(status = 'skipped') AS s, toUInt64(0) AS m, toUInt64(0) AS d, toUInt64(0) AS r
        FROM {db}.gate_diffs FINAL
        WHERE {project_filter} AND recorded_at >= {since}
        UNION ALL
        SELECT project_id, arrayJoin([toString(toDate(recorded_at)), 'total']) AS day_text, toUInt64(0) AS a, toUInt64(0) AS s, toUInt64(origin = 'modified') AS m, toUInt64(origin = 'diff') AS d, toUInt64(0) AS r
        FROM {db}.gate_candidate_origins FINAL
        WHERE {project_filter} AND recorded_at >= {since}
        UNION ALL
        SELECT project_id, arrayJoin([toString(toDate(recorded_at)), 'total']) AS day_text, toUInt64(0) AS a, toUInt64(0) AS s, toUInt64(0) AS m, toUInt64(0) AS d, toUInt64(1) AS r
        FROM {db}.gate_renamed FINAL
        WHERE {project_filter} AND recorded_at >= {since}
    ) AS rows
    GROUP BY project_id, day_text
) AS counts
ANY LEFT JOIN
(
    SELECT project_id, argMax(handle, version) AS handle FROM {db}.projects GROUP BY project_id
) AS handles USING (project_id)
ORDER BY project, day
