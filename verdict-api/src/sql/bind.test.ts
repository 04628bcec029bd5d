import { describe, expect, it } from '@jest/globals';
import { dateTime, ident, join, literal, quoteString, sql, uuid } from './bind.js';

describe('quoteString', () => {
  it.each([
    ['plain', "'plain'"],
    ["O'Brien", "'O\\'Brien'"],
    ['back\\slash', "'back\\\\slash'"],
    ['trailing\\', "'trailing\\\\'"],
    ["\\'", "'\\\\\\''"],
    ['a\nb\r\tc', "'a\\nb\\r\\tc'"],
    ['nul\u0000', "'nul\\0'"],
    ['bell\u0007 del\u007f', "'bell\\x07 del\\x7f'"],
    ['Ünïcødé ✓ 🧪', "'Ünïcødé ✓ 🧪'"],
  ])('escapes %j', (input, expected) => {
    expect(quoteString(input)).toBe(expected);
  });

  it('never lets a quote end the literal early', () => {
    for (const s of ["'", "\\'", "\\\\'", "''", "x'; DROP TABLE t; --"]) {
      const q = quoteString(s);
      // Strip escape pairs; what remains must contain no quote but the two delimiters.
      expect(q.slice(1, -1).replace(/\\./g, '')).not.toContain("'");
    }
  });

  it('refuses a lone surrogate rather than corrupting it', () => {
    expect(() => quoteString('bad\ud800')).toThrow(/well-formed/);
  });
});

describe('literal and sql', () => {
  it('binds numbers, booleans, null and lists', () => {
    expect(literal(42)).toBe('42');
    expect(literal(1.5)).toBe('1.5000000000000000');
    expect(literal(true)).toBe('1');
    expect(literal(null)).toBe('NULL');
    expect(literal(['a', "b'"])).toBe("('a', 'b\\'')");
    expect(() => literal(Number.NaN)).toThrow(/finite/);
    expect(() => literal([])).toThrow(/empty list/);
  });

  it('binds UUIDs and dates only in their checked shapes', () => {
    expect(literal(uuid('6BA7B810-9DAD-11D1-80B4-00C04FD430C8'))).toBe("toUUID('6ba7b810-9dad-11d1-80b4-00c04fd430c8')");
    expect(() => uuid("x') OR 1=1 --")).toThrow(/not a UUID/);
    expect(literal(dateTime(new Date('2026-01-02T03:04:05.678Z')))).toBe("toDateTime('2026-01-02 03:04:05', 'UTC')");
  });

  it('splices every template value through the escaping function', () => {
    const name = "it's";
    expect(sql`SELECT * FROM ${ident('t')} WHERE a = ${name} AND b IN ${[1, 2]}`.text).toBe("SELECT * FROM `t` WHERE a = 'it\\'s' AND b IN (1, 2)");
    expect(join([sql`a`, sql`b`], ' AND ').text).toBe('a AND b');
  });

  it('accepts only plain identifiers', () => {
    expect(() => ident('t; DROP')).toThrow(/identifier/);
    expect(() => ident('a`b')).toThrow(/identifier/);
  });
});
