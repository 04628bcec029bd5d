-- The catalogue (test_cases) is no longer copied from every test case run. An identity's row
-- never changes (its id is a hash of module, suite and name), so writing it again for every run
-- of every test only made parts to write and merge. Ingestion now writes the catalogue rows of
-- the test cases it badges new (all of them when the project has no default branch), before
-- their runs (ingest/ingest-run.ts). It stays whole: a test case badged not new has run in CI on
-- the default branch, so an earlier upload stored it, and that upload catalogued it or it had
-- been catalogued before. test_cases.last_ran_at is now when it was catalogued; nothing reads it.
-- Embedded chDB, 50,000 test case runs in five inserts, twelve times each way: a median of
-- 380 ms to write with this view, 262 ms without it.
DROP TABLE IF EXISTS {db}.test_cases_from_runs;
