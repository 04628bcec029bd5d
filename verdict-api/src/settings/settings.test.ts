import { describe, expect, it } from '@jest/globals';
import type { Project } from '../accounts/projects.js';
import { DEFAULT_FLAKY_POLICY, DEFAULT_STRESS_PARAMETERS } from '../contract.js';
import { BadRequestError } from '../errors/errors.js';
import type { Sql } from '../sql/bind.js';
import { database } from '../storage/database.js';
import type { ClickHouseEngine } from '../storage/engine.js';
import type { InsertRows } from '../storage/tab-separated.js';
import { parseSettingsPatch } from '../validation/parse-body.js';
import { writeSettings } from './settings.js';

/** A database whose engine only records the rows inserted, by table. */
function recordingDb() {
  const inserted: { table: string; rows: Record<string, unknown>[] }[] = [];
  const engine: ClickHouseEngine = {
    kind: 'server',
    command: async () => {},
    query: async () => [],
    insert: async (table: Sql, rows: InsertRows) => {
      inserted.push({ table: table.text.split('.').pop()!.replaceAll('`', ''), rows: rows as Record<string, unknown>[] });
    },
    ping: async () => {},
    close: async () => {},
  };
  const rowsOf = (table: string) => inserted.filter((i) => i.table === table).flatMap((i) => i.rows);
  return { db: database(engine, 'unit'), rowsOf };
}

const project = (timingSensitiveBlocks: boolean): Project => ({
  projectId: '00000000-0000-4000-8000-000000000001',
  accountId: '00000000-0000-4000-8000-000000000002',
  handle: 'shop',
  defaultBranch: 'main',
  flakyPolicy: DEFAULT_FLAKY_POLICY,
  stress: { ...DEFAULT_STRESS_PARAMETERS, timingSensitiveBlocks },
});

describe('the timingSensitiveBlocks setting', () => {
  it('is written to project_stress_flags when patched on, and audited from false to true', async () => {
    const { db, rowsOf } = recordingDb();
    const next = await writeSettings(db, project(false), parseSettingsPatch({ stress: { timingSensitiveBlocks: true } }), 'admin:x');
    expect(next.stress.timingSensitiveBlocks).toBe(true);
    expect(rowsOf('project_stress_flags')).toEqual([expect.objectContaining({ project_id: project(false).projectId, timing_sensitive_blocks: 1 })]);
    const audit = rowsOf('settings_audit')[0]!;
    expect(JSON.parse(String(audit['before'])).stress.timingSensitiveBlocks).toBe(false);
    expect(JSON.parse(String(audit['after'])).stress.timingSensitiveBlocks).toBe(true);
  });

  it('is written as 0 when patched off', async () => {
    const { db, rowsOf } = recordingDb();
    const next = await writeSettings(db, project(true), parseSettingsPatch({ stress: { timingSensitiveBlocks: false } }));
    expect(next.stress.timingSensitiveBlocks).toBe(false);
    expect(rowsOf('project_stress_flags').map((r) => r['timing_sensitive_blocks'])).toEqual([0]);
  });

  it('is kept when a patch changes another stress parameter (the partial patch carries no default for it)', async () => {
    const patch = parseSettingsPatch({ stress: { candidateCap: 3 } });
    expect(patch.stress).not.toHaveProperty('timingSensitiveBlocks');
    const { db, rowsOf } = recordingDb();
    const next = await writeSettings(db, project(true), patch);
    expect(next.stress).toMatchObject({ candidateCap: 3, timingSensitiveBlocks: true });
    expect(rowsOf('project_stress_flags').map((r) => r['timing_sensitive_blocks'])).toEqual([1]);
  });

  it.each([['yes'], [1], [null], [{}]])('refuses %j, naming stress.timingSensitiveBlocks', (value) => {
    let error: unknown;
    try {
      parseSettingsPatch({ stress: { timingSensitiveBlocks: value } });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).field).toBe('stress.timingSensitiveBlocks');
    expect((error as BadRequestError).message).toMatch(/^stress\.timingSensitiveBlocks: /);
  });
});

describe('the orderFindingsBlock setting', () => {
  it('is on by default and written inverted to project_order_flags (no row reads as on), audited when turned off', async () => {
    expect(DEFAULT_STRESS_PARAMETERS.orderFindingsBlock).toBe(true);
    const { db, rowsOf } = recordingDb();
    const next = await writeSettings(db, project(false), parseSettingsPatch({ stress: { orderFindingsBlock: false } }), 'admin:x');
    expect(next.stress.orderFindingsBlock).toBe(false);
    expect(rowsOf('project_order_flags')).toEqual([expect.objectContaining({ project_id: project(false).projectId, order_findings_report_only: 1 })]);
    const audit = rowsOf('settings_audit')[0]!;
    expect([JSON.parse(String(audit['before'])).stress.orderFindingsBlock, JSON.parse(String(audit['after'])).stress.orderFindingsBlock]).toEqual([true, false]);
  });

  it('is kept when a patch changes another parameter', async () => {
    const { db, rowsOf } = recordingDb();
    const next = await writeSettings(db, project(false), parseSettingsPatch({ stress: { candidateCap: 3 } }));
    expect(next.stress).toMatchObject({ candidateCap: 3, orderFindingsBlock: true });
    expect(rowsOf('project_order_flags').map((r) => r['order_findings_report_only'])).toEqual([0]);
  });
});

describe('the modifiedTestsBlock setting', () => {
  it('is off by default and written as it is to project_modified_flags (no row reads as off), audited when turned on', async () => {
    expect(DEFAULT_STRESS_PARAMETERS.modifiedTestsBlock).toBe(false);
    const { db, rowsOf } = recordingDb();
    const next = await writeSettings(db, project(false), parseSettingsPatch({ stress: { modifiedTestsBlock: true } }), 'admin:x');
    expect(next.stress.modifiedTestsBlock).toBe(true);
    expect(rowsOf('project_modified_flags')).toEqual([expect.objectContaining({ project_id: project(false).projectId, modified_tests_block: 1 })]);
    const audit = rowsOf('settings_audit')[0]!;
    expect([JSON.parse(String(audit['before'])).stress.modifiedTestsBlock, JSON.parse(String(audit['after'])).stress.modifiedTestsBlock]).toEqual([false, true]);
  });

  it('is kept when a patch changes another parameter, and refuses anything but a boolean naming the field', async () => {
    const { db, rowsOf } = recordingDb();
    const next = await writeSettings(db, project(false), parseSettingsPatch({ stress: { candidateCap: 3 } }));
    expect(next.stress).toMatchObject({ candidateCap: 3, modifiedTestsBlock: false });
    expect(rowsOf('project_modified_flags').map((r) => r['modified_tests_block'])).toEqual([0]);
    expect(() => parseSettingsPatch({ stress: { modifiedTestsBlock: 'yes' } })).toThrow(/^stress\.modifiedTestsBlock: /);
  });
});
