-- Question: Which candidates failed the gate on a commit and then passed it on a rerun of the same commit?
-- Tunes: trust in the gate's findings, and the curve (a finding a rerun contradicts is still a flake: the rerun got lucky).
-- Read: one row per project, commit and test that disagreed with itself in one run (not muted) and passed every repetition in another run of that commit. Many rows mean authors retry the job until it is green; the findings were real, the rerun hid them. At most 50 rows.
SELECT handle AS project, git_commit AS commit, test, failed_runs, passed_runs
FROM
(
    SELECT project_id, git_commit, test_case_id, concat(any(module), ' ', any(suite), '.', any(name)) AS test,
        uniqExactIf(run_id, outcome = 'failed' AND muted = 0) AS failed_runs,
        uniqExactIf(run_id, outcome = 'passed') AS passed_runs
    FROM
    (
        SELECT project_id, run_id, test_case_id, module, suite, name, outcome, muted
        FROM {db}.gate_candidates FINAL
        WHERE {project_filter} AND recorded_at >= {since}
    ) AS candidates
    ALL INNER JOIN
    (
        SELECT project_id, run_id, any(git_commit) AS git_commit
        FROM {db}.test_runs FINAL
        WHERE {project_filter}
        GROUP BY project_id, run_id
    ) AS runs USING (project_id, run_id)
    WHERE git_commit != ''
    GROUP BY project_id, git_commit, test_case_id
    HAVING failed_runs > 0 AND passed_runs > 0
) AS findings
ANY LEFT JOIN
(
    SELECT project_id, argMax(handle, version) AS handle FROM {db}.projects GROUP BY project_id
) AS handles USING (project_id)
ORDER BY project, commit, test
LIMIT 50
