import { describe, expect, it } from '@jest/globals';
import { encodeInsert, toTabSeparated, TsvRows, tsvField, TsvWriter } from './tab-separated.js';

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

  it('writes rows field by field with the bytes toTabSeparated gives, growing past its first buffer', () => {
    const names = ['plain', 'tab\there', 'new\nline', 'back\\slash', 'Ünïcødé 🧪', 'x'.repeat(3000), 'nul\0bell\b\f', ''];
    const rows = names.map((name, i) => ({ project: 'p', name, duration: i + 0.25, muted: i % 2 === 0 ? 1 : 0 }));
    const shared = TsvWriter.fields('p');
    const w = new TsvWriter(['project', 'name', 'duration', 'muted'], 16);
    rows.forEach((r) => w.append(shared).text(r.name).number(r.duration).flag(r.muted === 1).endRow());
    const encoded = w.finish();
    expect(encoded.count).toBe(names.length);
    expect(encoded.body.toString('utf8')).toBe(toTabSeparated(rows).body);
    expect(encodeInsert(encoded)).toEqual({ columns: ['project', 'name', 'duration', 'muted'], body: encoded.body });
  });

  it('refuses a row with the wrong number of fields, an unended row and a non-finite number', () => {
    const w = new TsvWriter(['a', 'b']);
    w.text('x');
    expect(() => w.endRow()).toThrow(/row 0 has 1 fields for 2 columns/);
    expect(() => w.finish()).toThrow(/row 0 is not ended/);
    expect(() => new TsvWriter(['a']).number(Number.POSITIVE_INFINITY)).toThrow(/non-finite/);
  });

  it('encodes nothing for no rows, in either form', () => {
    expect(encodeInsert([])).toBeNull();
    expect(encodeInsert(new TsvWriter(['a']).finish())).toBeNull();
    expect(encodeInsert(new TsvRows(['a'], Buffer.from('1\n'), 1))).toEqual({ columns: ['a'], body: Buffer.from('1\n') });
  });
});
