-- Body fingerprints of the test cases that ran in CI on a project's default branch: the verdict's
-- "same body as a known test" (a posted identity with no default-branch history whose fingerprint
-- is a known identity's that this request did not post is that test renamed or moved).
-- Written at ingestion of a run shard, only where its rows are default-branch CI history (is_ci,
-- the project's default branch, not skipped: as branch presence, 0008 and 0010), and only for the
-- test cases the CLI fingerprinted. git_branch is in the key so that a fingerprint seen on a
-- branch that was the default once is not taken for the current default branch's history.
-- One row per (project, branch, fingerprint, test case) is retained, the latest by last_seen_at:
-- two identities with one fingerprint (a copied test) are two rows. fingerprint is the contract's
-- 32 lowercase hex digits as text (FixedString would pad; both engines compare String the same).
CREATE TABLE IF NOT EXISTS {db}.test_case_fingerprints
(
    project_id UUID,
    git_branch String,
    fingerprint String,
    test_case_id UUID,
    module String,
    suite String,
    name String,
    last_seen_at DateTime('UTC')
)
ENGINE = ReplacingMergeTree(last_seen_at)
ORDER BY (project_id, git_branch, fingerprint, test_case_id);
