-- Question: How often does the order probe find a new test order-dependent on merge requests, in which role, and how often does a bound keep it from checking?
-- Tunes: stress.orderFindingsBlock (whether order findings block in enforce), and the probe's budget (cut) against the ceiling.
-- Read: per project, one row per day of the gate's upload and a 'total' row. order_dependent_tests counts candidates found order-dependent, apart from failed ones (they passed every repetition alone); blocking those whose findings failed the gate (the project's setting when recorded; muted ones included: the query does not read mutes); victim_findings and polluter_findings the findings uploaded by role; probed, cut and not_run the candidates the probe ran on whole, cut short, or not at all. Only runs on a branch other than the project's default one count. A steady cut share means the probe's budget is too small for the ceiling; many polluters blocking well-known tests may mean a shared-state problem in the existing suite, not in the new tests.
SELECT handle AS project, day, order_dependent_tests, blocking, victim_findings, polluter_findings, probed, cut, not_run
FROM
(
    SELECT
        project_id,
        day_text AS day,
        countIf(order_dependent = 1) AS order_dependent_tests,
        countIf(order_dependent = 1 AND order_findings_block = 1) AS blocking,
        sum(victims) AS victim_findings,
        sum(polluters) AS polluter_findings,
        countIf(status = 'probed') AS probed,
        countIf(status = 'cut') AS cut,
        countIf(status = 'not_run') AS not_run
    FROM
    (
        SELECT project_id, order_dependent, order_findings_block, victims, polluters, status, arrayJoin([toString(toDate(recorded_at)), 'total']) AS day_text
        FROM
        (
            SELECT project_id, run_id, order_dependent, order_findings_block, victims, polluters, status, recorded_at, git_branch
            FROM
            (
                SELECT project_id, run_id, order_dependent, order_findings_block, victims, polluters, status, recorded_at
                FROM {db}.gate_order_probes FINAL
                WHERE {project_filter} AND recorded_at >= {since}
            ) AS probes
            ALL INNER JOIN
            (
                SELECT project_id, run_id, any(git_branch) AS git_branch
                FROM {db}.test_runs
                WHERE {project_filter}
                GROUP BY project_id, run_id
            ) AS branches USING (project_id, run_id)
        ) AS branched
        ANY LEFT JOIN
        (
            SELECT project_id, argMax(default_branch, version) AS default_branch FROM {db}.projects GROUP BY project_id
        ) AS defaults USING (project_id)
        WHERE git_branch != default_branch
    ) AS merge_request_probes
    GROUP BY project_id, day_text
) AS counts
ANY LEFT JOIN
(
    SELECT project_id, argMax(handle, version) AS handle FROM {db}.projects GROUP BY project_id
) AS handles USING (project_id)
ORDER BY project, day
