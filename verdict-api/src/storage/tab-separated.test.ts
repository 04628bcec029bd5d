import { describe, expect, it } from '@jest/globals';
import { toTabSeparated, tsvField } from './tab-separated.js';

describe('TabSeparated', () => {
  it('escapes what would end a field or a row', () => {
    expect(tsvField('a\tb\nc\\d\re\0f')).toBe('a\\tb\\nc\\\\d\\re\\0f');
    expect(tsvField("quotes ' \" stay")).toBe("quotes ' \" stay");
    expect(tsvField('Ünïcødé 🧪')).toBe('Ünïcødé 🧪');
    expect([tsvField(1.5), tsvField(true), tsvField(false)]).toEqual(['1.5', '1', '0']);
  });

  it('refuses values it cannot represent', () => {
    expect(() => tsvField(Number.NaN)).toThrow(/non-finite/);
    expect(() => tsvField(null)).toThrow(/null/);
  });

  it('takes the columns from the first row and requires them in every row', () => {
    expect(toTabSeparated([{ a: 'x', b: 1 }, { a: 'y\tz', b: 2 }])).toEqual({ columns: ['a', 'b'], body: 'x\t1\ny\\tz\t2\n' });
    expect(() => toTabSeparated([{ a: 'x', b: 1 }, { a: 'y' }])).toThrow(/row 1 has no value for column b/);
  });
});
