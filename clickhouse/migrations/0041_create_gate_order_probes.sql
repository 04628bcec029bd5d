-- The order probe of each gate candidate that passed its repetitions: what it did (probed every
-- planned pair, was cut by its budget or the ceiling, or did not run and why), and each order
-- dependence it found and confirmed in fresh JVMs (the candidate a victim of another test, or a
-- polluter of one), with the failing test's evidence in the last replay.
-- gate_candidates.outcome (0009) is an Enum8 without 'order_dependent'; changing it would take an
-- ALTER, which this folder does not do (every statement here is CREATE … IF NOT EXISTS, safe to
-- run twice on 18.16 and chDB). An order-dependent candidate is stored there as 'passed' (it passed
-- every repetition) and its outcome is order_dependent = 1 here; readers take it from here.
-- Tables rather than columns, keyed like the gate's other tables, so a retried upload is recorded
-- once (read with FINAL). No Nullable columns: an absent value has a has_* flag beside it.

-- One row per candidate the CLI sent an order probe for. seed is the decimal text the CLI sent.
-- victims and polluters count the findings uploaded by role (findings_omitted: left out by the
-- CLI's bound). order_findings_block: the project's setting (stress.orderFindingsBlock) when the
-- gate was recorded, which the run page reads to say whether the findings blocked.
CREATE TABLE IF NOT EXISTS {db}.gate_order_probes
(
    project_id UUID,
    run_id String,
    shard_index UInt32,
    test_case_id UUID,
    status Enum8('probed' = 1, 'cut' = 2, 'not_run' = 3),
    has_why UInt8,
    why String,
    seed String,
    partners UInt32,
    partners_run UInt32,
    sampled_classes UInt32,
    module_classes UInt32,
    order_dependent UInt8,
    victims UInt32,
    polluters UInt32,
    findings_omitted UInt32,
    order_findings_block UInt8,
    recorded_at DateTime('UTC')
)
ENGINE = ReplacingMergeTree(recorded_at)
ORDER BY (project_id, run_id, shard_index, test_case_id);

-- One row per finding (at most 5 a candidate: the contract's ORDER_BOUNDS), at its position in the
-- upload. The other test by identity and by its test case id; has_other_passes_alone = 0 for a
-- victim (null on the wire). The failure columns are gate_failures' (0032): the failing test's
-- evidence in the last replay (the candidate's for a victim, the other test's for a polluter).
CREATE TABLE IF NOT EXISTS {db}.gate_order_findings
(
    project_id UUID,
    run_id String,
    shard_index UInt32,
    test_case_id UUID,
    position UInt32,
    role Enum8('victim' = 1, 'polluter' = 2),
    other_test_case_id UUID,
    other_module String,
    other_suite String,
    other_name String,
    has_other_passes_alone UInt8,
    other_passes_alone UInt8,
    replays UInt32,
    replay_failures UInt32,
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
ORDER BY (project_id, run_id, shard_index, test_case_id, position);
