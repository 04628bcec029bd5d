-- The evidence of the gate's failed repetitions, so the run page and the run report can say why a
-- candidate disagreed with itself. Keyed like the gate's other tables: a gate upload for a run shard
-- is recorded once, and a retried upload replaces its rows (read with FINAL).
-- No Nullable columns (the inserts are TabSeparated rows of plain values): a text that may be
-- absent and may also be empty (message, trace, output tails, exit code) has a has_* flag beside it;
-- a text that is never empty when present (type, signal, hs_err file) is '' when absent.

-- One row per failed repetition whose evidence the CLI sent (at most 20 per candidate).
CREATE TABLE IF NOT EXISTS {db}.gate_failures
(
    project_id UUID,
    run_id String,
    shard_index UInt32,
    test_case_id UUID,
    repetition UInt32,
    kind Enum8('failure' = 1, 'crash' = 2),
    type String,
    has_message UInt8,
    message String,
    has_stack_trace UInt8,
    stack_trace String,
    frames_omitted UInt32,
    has_stdout_tail UInt8,
    stdout_tail String,
    has_stderr_tail UInt8,
    stderr_tail String,
    duration_ms Float64,
    has_exit_code UInt8,
    exit_code Int32,
    signal String,
    hs_err_file String,
    truncated UInt8,
    recorded_at DateTime('UTC')
)
ENGINE = ReplacingMergeTree(recorded_at)
ORDER BY (project_id, run_id, shard_index, test_case_id, repetition);

-- A candidate's failed repetitions grouped by signature, in the order the CLI sent them (position).
CREATE TABLE IF NOT EXISTS {db}.gate_failure_groups
(
    project_id UUID,
    run_id String,
    shard_index UInt32,
    test_case_id UUID,
    position UInt32,
    signature String,
    type String,
    location String,
    failures UInt32,
    repetitions Array(UInt32),
    recorded_at DateTime('UTC')
)
ENGINE = ReplacingMergeTree(recorded_at)
ORDER BY (project_id, run_id, shard_index, test_case_id, position);

-- Per candidate: the command that reruns it as the gate did ('' when none was sent) and how many
-- failed repetitions had their evidence left out by the bound. Written only when there is either.
CREATE TABLE IF NOT EXISTS {db}.gate_candidate_evidence
(
    project_id UUID,
    run_id String,
    shard_index UInt32,
    test_case_id UUID,
    failures_omitted UInt32,
    reproduce_command String,
    recorded_at DateTime('UTC')
)
ENGINE = ReplacingMergeTree(recorded_at)
ORDER BY (project_id, run_id, shard_index, test_case_id);
