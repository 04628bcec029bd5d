import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { parseInPieces, parseJsonBuffer } from './json-buffer.js';

// Small pieces and no whole-body shortcut, so even small documents are cut many times.
const cutHard = (text: string | Buffer) => parseJsonBuffer(Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8'), 8, 0);
const PIECE = 8;

/** JSON.parse's answer, or its failure. */
function reference(buf: Buffer): { value: unknown } | { error: true } {
  try {
    return { value: JSON.parse(buf.toString('utf8')) as unknown };
  } catch {
    return { error: true };
  }
}

/** Whatever the pieces give, whether they give anything at all: JSON.parse's value or nothing. */
function piecesOrNothing(buf: Buffer): { value: unknown } | null {
  try {
    return parseInPieces(buf, PIECE);
  } catch {
    return null;
  }
}

function expectSameAsJsonParse(buf: Buffer): void {
  const expected = reference(buf);
  const pieces = piecesOrNothing(buf);
  if ('error' in expected) {
    expect(pieces).toBeNull();
    expect(() => cutHard(buf)).toThrow(SyntaxError);
  } else {
    if (pieces !== null) expect(pieces.value).toStrictEqual(expected.value);
    expect(cutHard(buf)).toStrictEqual(expected.value);
  }
}

// Strings that stress the scan: quotes, escaped quotes, runs of backslashes, brackets and commas.
const tricky = fc.oneof(
  fc.string(),
  fc.constantFrom('a"b', 'a\\', '\\\\', '\\"', '},{', '],[', '"},{"', ',', '[', ']', '{', '}', 'é', '😀', '\u2028', '\u0000cut-array:0'),
);
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  any: fc.oneof(
    { maxDepth: 3 },
    tricky,
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('any'), { maxLength: 4 }),
    fc.dictionary(tricky, tie('any'), { maxKeys: 3 }),
  ),
})).any;
const document = fc.record({
  testCases: fc.array(fc.record({ module: tricky, suite: tricky, name: tricky, durationMs: fc.nat(), extra: value }), { maxLength: 30 }),
  other: fc.array(value, { maxLength: 10 }),
  runId: tricky,
  nested: fc.dictionary(tricky, fc.array(value, { maxLength: 5 }), { maxKeys: 3 }),
});

describe('parseJsonBuffer', () => {
  it('gives JSON.parse its answer on generated documents cut into pieces', () => {
    fc.assert(
      fc.property(document, fc.constantFrom(0, 1, 2), (doc, spacing) => {
        const buf = Buffer.from(JSON.stringify(doc, null, spacing), 'utf8');
        expectSameAsJsonParse(buf);
        // The pieces themselves parse it (not the fallback), unless the body holds the escape of NUL.
        if (doc.testCases.length > 1 && !buf.includes('\\u0000')) expect(parseInPieces(buf, PIECE)?.value).toStrictEqual(JSON.parse(buf.toString()));
      }),
      { numRuns: 500 },
    );
  });

  it('fails where JSON.parse fails, and only there, on documents with a byte changed or cut off', () => {
    const bytes = fc.constantFrom(...[...'",[]{}\\: 0a'].map((c) => c.charCodeAt(0)), 0x00, 0xff, 0xc3);
    fc.assert(
      fc.property(document, fc.nat(), bytes, fc.boolean(), (doc, at, byte, truncate) => {
        const buf = Buffer.from(JSON.stringify(doc), 'utf8');
        const i = at % buf.length;
        expectSameAsJsonParse(truncate ? buf.subarray(0, i) : Buffer.concat([buf.subarray(0, i), Buffer.from([byte]), buf.subarray(i + 1)]));
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps the last of a repeated key and a __proto__ key as JSON.parse does', () => {
    expectSameAsJsonParse(Buffer.from('{"a":[1,2,3,4,5,6,7,8,9],"a":[10,11,12,13,14,15,16,17]}'));
    expectSameAsJsonParse(Buffer.from('{"a":[1,2,3,4,5,6,7,8,9],"a":"x"}'));
    const proto = cutHard('{"__proto__":[1,2,3,4,5,6,7,8,9,10,11,12]}') as object;
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(proto, '__proto__')?.value).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it('is not fooled by a string that looks like its own marker', () => {
    expectSameAsJsonParse(Buffer.from('{"a":[1,2,3,4,5,6,7,8,9,10],"b":"\\u0000cut-array:0"}'));
  });

  it('parses a verdict body of 1,000 identities (about 150 KB) at the default sizes', () => {
    const testCases = Array.from({ length: 1_000 }, (_, i) => ({ module: ':app', suite: `com.acme.billing.invoices.InvoiceCalculationTest${i >> 4}`, name: `computesTotalWithDiscounts_${i}()`, durationMs: i * 1.5 }));
    const body = JSON.stringify({ runId: 'r1', mode: 'report', testCases });
    expect(body.length).toBeGreaterThan(120_000);
    expect(parseJsonBuffer(Buffer.from(body))).toStrictEqual(JSON.parse(body));
    expect(parseInPieces(Buffer.from(body), 60_000)?.value).toStrictEqual(JSON.parse(body));
  });
});
