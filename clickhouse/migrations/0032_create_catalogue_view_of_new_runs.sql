-- The catalogue (test_cases) gets the test case runs badged new, inside the insert that stores
-- them: no second statement, and so no extra round trip, for an upload. 0031 dropped the view
-- that copied every run; the explicit insert that replaced it cost each upload with a new test
-- case one more round trip before its runs (clickhouse-server, uploads of 1,000 cases alone:
-- 7,900-10,900 cases/s against 11,100-11,300 before). Ingestion still writes the rows this view
-- cannot know about, before their runs: every test case of a project without a default branch
-- (nothing is badged new there), and on a retry the new ones an earlier attempt stored.
CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.test_cases_from_new_runs TO {db}.test_cases
AS SELECT project_id, test_case_id, module, suite, name, ran_at AS last_ran_at
FROM {db}.test_case_runs
WHERE is_new = 1;
