-- Viewer credentials and the audit of access changes (docs/security.md#viewers). New tables, not
-- columns: ClickHouse 18.16 has no ALTER TABLE … ADD COLUMN IF NOT EXISTS, and every statement
-- here must be safe to run twice.

-- A project's viewer credentials: they sign in to the dashboard (or call the API's read routes)
-- for that one project, and change nothing. Stored as SHA-256 hashes, shown once at creation,
-- named and revoked as CI tokens are. A dashboard session signed in with one names its
-- credential_id, and is a viewer's session because that id is found here and not among the
-- admin credentials; revoking the credential ends its sessions.
CREATE TABLE IF NOT EXISTS {db}.viewer_credentials
(
    credential_hash String,
    credential_id UUID,
    project_id UUID,
    account_id UUID,
    name String,
    revoked UInt8,
    created_at DateTime('UTC'),
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY credential_hash;

-- Every change of who may reach a project: a CI token or a viewer credential created or
-- revoked, by whom and when. Append-only.
CREATE TABLE IF NOT EXISTS {db}.access_audit
(
    project_id UUID,
    actor String,
    action String,
    kind String,
    subject_id String,
    subject_name String,
    scope String,
    changed_at DateTime('UTC'),
    seq UInt64
)
ENGINE = MergeTree
ORDER BY (project_id, seq);
