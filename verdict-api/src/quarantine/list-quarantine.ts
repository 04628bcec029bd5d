// GET …/quarantine: the project's quarantined tests (muted or skipped, unexpired), one page at
// a time, ordered by test_case_id; the cursor is the last test_case_id of the previous page.
import type { QuarantineListResponse } from '../contract.js';
import { BadRequestError } from '../errors/errors.js';
import { isUuid } from '../identity/uuid.js';
import type { Database } from '../storage/database.js';
import { quarantinedPage } from './quarantine-store.js';

/** Page size when none is asked for, and the largest allowed. */
export const DEFAULT_PAGE = 100;
export const MAX_PAGE = 1000;

/** Parses `limit` and `cursor` query values; a bad one is a 400 naming it. */
export function pageParams(limit: string | undefined, cursor: string | undefined): { limit: number; cursor: string | null } {
  const n = limit === undefined ? DEFAULT_PAGE : Number(limit);
  if (!Number.isInteger(n) || n < 1 || n > MAX_PAGE) throw new BadRequestError(`limit: must be an integer from 1 to ${MAX_PAGE}`, 'limit');
  if (cursor !== undefined && !isUuid(cursor)) throw new BadRequestError('cursor: must be the nextCursor of a previous page', 'cursor');
  return { limit: n, cursor: cursor ?? null };
}

/** One page of quarantined tests. */
export async function listQuarantine(db: Database, projectId: string, now: Date, page: { limit: number; cursor: string | null }): Promise<QuarantineListResponse> {
  const rows = await quarantinedPage(db, projectId, now, page.limit + 1, page.cursor);
  const tests = rows.slice(0, page.limit).map((r) => ({
    module: r.module,
    suite: r.suite,
    name: r.name,
    testCaseId: r.testCaseId,
    state: r.state as 'muted' | 'skipped',
    owner: r.owner,
    reason: r.reason,
    issueUrl: r.issueUrl,
    expiresAt: r.expiresAt,
    changedBy: r.changedBy,
    changedAt: r.changedAt,
  }));
  return { tests, nextCursor: rows.length > page.limit ? tests[tests.length - 1]!.testCaseId : null };
}
