// Reads of test_case_branch_presence: "has this identity run in CI on this branch", ever or
// within a window. The verdict reads it with no window; the ingestion badge with 90 days.
import { dateTime, join, sql, type Sql, uuid } from '../sql/bind.js';
import { type Database, num } from '../storage/database.js';

/** Ids per string literal: one literal per 5,000 ids keeps the split linear on both engines. */
export const IDS_PER_LITERAL = 5_000;

/**
 * A subquery yielding the given test_case_ids as strings. They travel as comma-joined string
 * literals split in SQL: 20,000 UUID literals would exceed 18.16's AST limit, and one huge
 * literal splits in superlinear time (100,000 ids: 2.3 s on 18.16, 0.95 s on chDB), while a
 * UNION ALL of 5,000-id literals takes 0.40 s and 0.48 s. Comparing as strings skips a toUUID
 * per posted id.
 */
export function idSet(ids: readonly string[]): Sql {
  const parts: Sql[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_LITERAL) {
    parts.push(sql`SELECT arrayJoin(splitByChar(',', ${ids.slice(i, i + IDS_PER_LITERAL).join(',')}))`);
  }
  return sql`(${join(parts, ' UNION ALL ')})`;
}

export interface PresenceScope {
  projectId: string;
  branch: string;
  isCi: boolean;
}

/** Which of `ids` have a presence row in the scope, optionally only since `since`. */
export async function presentIds(db: Database, scope: PresenceScope, ids: readonly string[], since?: Date): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const window = since ? sql` AND ran_at >= ${dateTime(since)}` : sql``;
  const rows = await db.engine.query<{ id: string }>(sql`
    SELECT DISTINCT toString(test_case_id) AS id FROM ${db.t('test_case_branch_presence')}
    WHERE project_id = ${uuid(scope.projectId)} AND git_branch = ${scope.branch} AND is_ci = ${scope.isCi}${window}
      AND toString(test_case_id) IN ${idSet(ids)}`);
  return new Set(rows.map((r) => r.id));
}

/** How many distinct identities have ever run in the scope: the project's inventory. */
export async function inventorySize(db: Database, scope: PresenceScope): Promise<number> {
  const rows = await db.engine.query<{ n: unknown }>(sql`
    SELECT uniqExact(test_case_id) AS n FROM ${db.t('test_case_branch_presence')}
    WHERE project_id = ${uuid(scope.projectId)} AND git_branch = ${scope.branch} AND is_ci = ${scope.isCi}`);
  return num(rows[0]?.n ?? 0);
}
