// JSON.parse of a request body held in a Buffer, without one large string. A string over 128 KiB
// lives in V8's large-object space, freshly mapped for each one and unmapped after it, and on this
// class of virtual machine that costs about 1 ms (a 132 KB body: 1.0 ms to decode, a 131 KB
// one: 0.02 ms): more than parsing it. A verdict of 1,000 identities is about 150 KB, so the
// decoding was a fifth of a verdict's cost under load (scripts/bench-load.ts).
//
// So a large body is cut where it is safe: at element boundaries of the arrays that are values
// of the top-level object (a verdict's or an upload's testCases). One pass over the bytes finds
// them, tracking strings (with escapes) and depth; the pieces, each well under the limit, are
// parsed separately and joined. The result is JSON.parse's, and anything unexpected (invalid
// JSON, another shape) falls back to JSON.parse of the whole text, which gives its own error.
// json-buffer.test.ts compares both on generated documents, valid and broken.

/** Bodies up to this size are decoded whole (below V8's large-object threshold of 128 KiB). */
const WHOLE_BELOW = 120_000;
/** Target bytes per piece of a cut array. */
const PIECE_BYTES = 60_000;

/**
 * Marks a cut array's place in the skeleton. It starts with NUL, which a parsed string can hold
 * only from the escape \u0000 (a raw NUL is invalid JSON), and bodies with that escape are parsed whole.
 */
const MARKER = '\u0000cut-array:';
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

interface CutArray {
  /** Index just after the array's `[`. */
  start: number;
  /** Index of its `]`. */
  end: number;
  /** Indexes of the element-separating commas it is cut at. */
  cuts: number[];
}

/** JSON.parse(buf.toString('utf8')), without decoding a large body into one string. */
export function parseJsonBuffer(buf: Buffer, pieceBytes = PIECE_BYTES, wholeBelow = WHOLE_BELOW): unknown {
  if (buf.length >= wholeBelow) {
    try {
      const cut = parseInPieces(buf, pieceBytes);
      if (cut !== null) return cut.value;
    } catch {
      // Not valid JSON, or not the shape the cuts assumed: the whole text decides.
    }
  }
  return JSON.parse(buf.toString('utf8'));
}

/**
 * The body parsed piece by piece; null when there is nothing to cut (or it must not be cut).
 * Throws when a piece does not parse. Whenever it returns a value, it is JSON.parse's.
 */
export function parseInPieces(buf: Buffer, pieceBytes: number): { value: unknown } | null {
  const arrays = buf.includes(0) || buf.includes('\\u0000') ? null : cutPoints(buf, pieceBytes);
  return arrays === null || arrays.length === 0 ? null : { value: joined(buf, arrays) };
}

/** The top-level arrays worth cutting and where, or null when the bytes do not balance. */
function cutPoints(buf: Buffer, pieceBytes: number): CutArray[] | null {
  const arrays: CutArray[] = [];
  // Only the arrays of a top-level object are cut.
  let first = 0;
  while (first < buf.length && (buf[first] === 0x20 || buf[first] === 0x0a || buf[first] === 0x0d || buf[first] === 0x09)) first++;
  if (buf[first] !== 0x7b) return null;
  let depth = 0;
  let open: CutArray | null = null;
  let pieceStart = 0;
  const n = buf.length;
  for (let i = 0; i < n; i++) {
    switch (buf[i]) {
      case QUOTE: {
        // Jump to the closing quote: the first one not escaped by an odd run of backslashes.
        let j = i;
        for (;;) {
          j = buf.indexOf(QUOTE, j + 1);
          if (j < 0) return null;
          let k = j - 1;
          while (buf[k] === BACKSLASH) k--;
          if ((j - 1 - k) % 2 === 0) break;
        }
        i = j;
        break;
      }
      case 0x7b: // {
        depth++;
        break;
      case 0x7d: // }
        depth--;
        break;
      case 0x5b: // [
        depth++;
        // An array that is a value of the top-level object.
        if (depth === 2) {
          open = { start: i + 1, end: -1, cuts: [] };
          pieceStart = i + 1;
        }
        break;
      case 0x5d: // ]
        if (depth === 2 && open !== null) {
          open.end = i;
          if (open.cuts.length > 0) arrays.push(open);
          open = null;
        }
        depth--;
        break;
      case 0x2c: // ,
        if (depth === 2 && open !== null && i - pieceStart >= pieceBytes) {
          open.cuts.push(i);
          pieceStart = i + 1;
        }
        break;
    }
  }
  return depth === 0 ? arrays : null;
}

/** Parses the document with each cut array replaced by a marker, then each array piece by piece. */
function joined(buf: Buffer, arrays: CutArray[]): unknown {
  // No string of the body starts with NUL, so a value that starts with MARKER is a cut array's place.
  const marker = MARKER;
  let skeleton = '';
  let from = 0;
  arrays.forEach((a, k) => {
    skeleton += `${buf.toString('utf8', from, a.start - 1)}${JSON.stringify(marker + k)}`;
    from = a.end + 1;
  });
  skeleton += buf.toString('utf8', from);
  const root: unknown = JSON.parse(skeleton);
  if (typeof root !== 'object' || root === null || Array.isArray(root)) throw new Error('not an object');
  const record = root as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const value = record[key];
    if (typeof value !== 'string' || !value.startsWith(marker)) continue;
    // Assigning to __proto__ would set the prototype, not the key JSON.parse makes.
    if (key === '__proto__') throw new Error('__proto__');
    const a = arrays[Number(value.slice(marker.length))]!;
    const items: unknown[] = [];
    let start = a.start;
    for (const end of [...a.cuts, a.end]) {
      const piece = JSON.parse(`[${buf.toString('utf8', start, end)}]`) as unknown[];
      for (const item of piece) items.push(item);
      start = end + 1;
    }
    record[key] = items;
  }
  // A key given twice keeps its last value, as in JSON.parse: a cut array it overrode is dropped.
  return root;
}
