-- Question: How large are projects' inventories (identities that ever ran in CI on the default branch)?
-- Tunes: stress.bulkChangeFloor and stress.bulkChangeRatio.
-- Read: one value per project, its latest verdict's inventory. ratio_x_p50 is how many new tests the 30% ratio alone would call a bulk change on the median project: when it is below what one feature branch adds, the floor has to carry the guard (the RFC: median 209, p25 57).
SELECT
    count() AS projects,
    quantileExact(0.25)(inventory) AS p25,
    quantileExact(0.5)(inventory) AS p50,
    quantileExact(0.75)(inventory) AS p75,
    quantileExact(0.9)(inventory) AS p90,
    max(inventory) AS max,
    countIf(inventory < 100) AS under_100,
    round(quantileExact(0.5)(inventory) * 0.3, 1) AS ratio_x_p50
FROM
(
    SELECT project_id, argMax(inventory, requested_at) AS inventory
    FROM {db}.verdict_log
    WHERE {project_filter} AND requested_at >= {since} AND has_default_branch = 1
    GROUP BY project_id
)
