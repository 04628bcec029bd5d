import { describe, expect, it } from '@jest/globals';
import { loadMigrations, splitStatements } from './migrate.js';

describe('migrations', () => {
  it('are numbered, named verb_object, and each statement is idempotent', () => {
    const migrations = loadMigrations();
    expect(migrations.length).toBeGreaterThanOrEqual(10);
    migrations.forEach((m, i) => {
      // Strictly increasing; gaps are allowed so parallel branches can pick numbers far apart.
      if (i > 0) expect(Number(m.version)).toBeGreaterThan(Number(migrations[i - 1]!.version));
      expect(m.name).toMatch(/^\d{4}_(create|add|drop|alter)_[a-z0-9_]+$/);
      for (const s of m.statements) expect(s).toMatch(/^(CREATE (TABLE|MATERIALIZED VIEW|DATABASE) IF NOT EXISTS|DROP TABLE IF EXISTS) \{db\}\./);
    });
  });

  it('splits statements on a semicolon at the end of a line and drops comment lines', () => {
    expect(splitStatements("-- note; not a split\nCREATE TABLE a (x String DEFAULT ';');\n\nCREATE TABLE b (y UInt8);\n")).toEqual([
      "CREATE TABLE a (x String DEFAULT ';')",
      'CREATE TABLE b (y UInt8)',
    ]);
  });
});
