-- Ingestion writes test_case_runs once; ClickHouse copies each block into the identity
-- catalogue and, for test cases that ran (not skipped), into branch presence. One parse of
-- the rows instead of three (scripts/bench-ingest.ts measures it).
CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.test_cases_from_runs TO {db}.test_cases
AS SELECT project_id, test_case_id, module, suite, name, ran_at AS last_ran_at
FROM {db}.test_case_runs;

-- A skipped test did not run, so it leaves no presence: it stays new to the gate.
CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.branch_presence_from_runs TO {db}.test_case_branch_presence
AS SELECT project_id, git_branch, is_ci, test_case_id, ran_at, run_id
FROM {db}.test_case_runs
WHERE status != 'skipped';
