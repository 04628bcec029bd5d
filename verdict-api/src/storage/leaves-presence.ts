// What counts as presence: a test case run has "run" in its branch unless it was skipped, so a
// skipped test stays new to the gate. ClickHouse writes presence through migration 0010's view,
// which states the rule in SQL (`WHERE status != 'skipped'`); in the API this is its one statement
// (ingestion's ids that ran, the read cache's known ids). presence-cache.test.ts holds the two together.

/** Whether a test case run with this status leaves presence in its branch (everything but skipped). */
export const leavesPresence = (status: unknown): boolean => status !== 'skipped';
