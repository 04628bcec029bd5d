// Values reach SQL only through sql/bind.ts: these strings must come back byte for byte from
// both engines, as selected literals and through an insert/filter round trip.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sql } from '../../src/sql/bind.js';
import { ENGINES, openTestDatabase, type TestDatabase } from '../support/engines.js';

const NASTY = [
  "O'Brien",
  "''",
  "\\'; DROP TABLE accounts; --",
  'back\\slash\\\\double',
  'trailing backslash\\',
  'line\nbreak\r\nwindows',
  'tab\there',
  'nul\u0000byte',
  'bell\u0007 and \u001f unit separator and \u007f delete',
  '\\x41 is not A, \\n is not a newline',
  'Ünïcødé tëst — ✓ 日本語 テスト',
  'emoji 🧪🔥 and astral 𝔘𝔫𝔦',
  'quotes " and ` and \'',
  'testAdds[0: 1+1 = "2"]',
  'com.example.Outer$Inner',
  '{db} ${x} %s ? :param {p:String}',
];

describe.each(ENGINES)('escaping on %s ClickHouse', (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await t.close();
  });

  it.each(NASTY.map((s) => [JSON.stringify(s), s]))('selects %s back unchanged', async (_label, value) => {
    const rows = await t.db.engine.query<{ v: string }>(sql`SELECT ${value} AS v`);
    expect(rows).toEqual([{ v: value }]);
  });

  it('finds each inserted value with a bound WHERE and nothing else', async () => {
    const table = t.db.t('test_cases');
    await t.db.engine.insert(
      table,
      NASTY.map((name, i) => ({
        project_id: '00000000-0000-4000-8000-000000000001',
        test_case_id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
        module: ':m',
        suite: 's',
        name,
        last_ran_at: '2026-01-01 00:00:00',
      })),
    );
    for (const name of NASTY) {
      const rows = await t.db.engine.query<{ name: string }>(sql`SELECT name FROM ${table} WHERE name = ${name}`);
      expect(rows).toEqual([{ name }]);
    }
    const all = await t.db.engine.query<{ n: unknown }>(sql`SELECT count() AS n FROM ${table} WHERE name IN ${NASTY}`);
    expect(Number(all[0]!.n)).toBe(NASTY.length);
  });

  it('keeps the accounts table after an injection attempt', async () => {
    await t.db.engine.query(sql`SELECT ${"x'); DROP TABLE accounts; --"} AS v`);
    const rows = await t.db.engine.query(sql`SELECT count() AS n FROM ${t.db.t('accounts')}`);
    expect(rows).toHaveLength(1);
  });
});
