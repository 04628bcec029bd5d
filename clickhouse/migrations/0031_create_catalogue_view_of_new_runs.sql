-- The catalogue (test_cases) is filled from the test case runs badged new, no longer from every
-- run. An identity's row never changes (its id is a hash of module, suite and name), so writing
-- it again for every run of every test only made parts to write and merge (embedded chDB, 50,000
-- runs in five inserts: a median of 380 ms with the old view, 262 ms without it). A test case
-- badged not new has run in CI on the default branch, so an earlier upload catalogued it. The
-- view writes inside the runs' own insert: an explicit insert before the runs cost each upload
-- with a new test case a round trip (clickhouse-server, 1,000-case uploads alone: 7,900-10,900
-- cases/s against 11,100-11,300). Ingestion writes, before their runs, the rows this view cannot
-- know about (ingest/ingest-run.ts): every test case of a project without a default branch
-- (nothing is badged new there), and on a retry the new ones an earlier attempt stored.
-- last_ran_at is now when a test case was catalogued; nothing reads it.
DROP TABLE IF EXISTS {db}.test_cases_from_runs;

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.test_cases_from_new_runs TO {db}.test_cases
AS SELECT project_id, test_case_id, module, suite, name, ran_at AS last_ran_at
FROM {db}.test_case_runs
WHERE is_new = 1;
