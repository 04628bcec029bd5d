// Identities of test_case_ids from the catalogue (test_cases), filled by run uploads with the test cases they badge new.
import type { Identity } from '../identity/test-case-id.js';
import { idSet } from '../presence/presence.js';
import { sql, uuid } from '../sql/bind.js';
import type { Database } from '../storage/database.js';

/** The identities the catalogue knows for `ids`; unknown ids are absent from the map. */
export async function identitiesOf(db: Database, projectId: string, ids: readonly string[]): Promise<Map<string, Identity>> {
  if (ids.length === 0) return new Map();
  const rows = await db.engine.query<{ id: string; module: string; suite: string; name: string }>(sql`
    SELECT toString(test_case_id) AS id, module, suite, name FROM ${db.t('test_cases')} FINAL
    WHERE project_id = ${uuid(projectId)} AND toString(test_case_id) IN ${idSet(ids)}`);
  return new Map(rows.map((r) => [r.id, { module: r.module, suite: r.suite, name: r.name }]));
}
