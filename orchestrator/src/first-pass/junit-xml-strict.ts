// A fast path for the JUnit XML that build tools write: a scanner of a strict subset of XML that
// feeds the same collector as the sax reader, and gives up (returns null) on anything outside
// that subset, so the caller reads the document with sax instead. It never decides anything sax
// would decide differently: whatever it accepts, sax reads to the same cases
// (junit-xml-strict.test.ts compares both on generated documents, well-formed and broken).
//
// Why: a suite of 50,000 tests writes hundreds of reports, read after the build while the
// merge request waits. sax reads them at about 0.5 s when cold (50,000 cases, 500 files);
// this reads the same in a fraction of that (scripts/bench-junit-xml.ts).
//
// The subset: an optional XML declaration, then elements with double- or single-quoted
// attributes separated by whitespace, CDATA sections, and text; names are ASCII (up to 256
// characters), and the only entity references are the five predefined ones. It gives up on
// comments, processing instructions after the start, a DOCTYPE, character references, tab,
// newline or carriage return in attribute values, attribute values over 64 KiB, a repeated
// attribute, text or a second element outside the root, a closing tag that does not match, a
// document that ends inside an element, and a document that is not a report or names no test.
import { createJUnitCollector } from './junit-xml-reader.js';
import type { JUnitXmlResult } from './junit-xml-types.js';

/** Names longer than this are left to sax. */
const LONGEST_NAME = 256;
/** Longer attribute values are left to sax, which bounds its buffers (MAX_BUFFER_CHARS). */
const LONGEST_VALUE = 64 * 1024;
const ENTITIES = new Map([
  ['lt', '<'],
  ['gt', '>'],
  ['amp', '&'],
  ['quot', '"'],
  ['apos', "'"],
]);

/** The cases of `xml` read by the strict scanner, or null when the document is outside its subset. */
export function parseStrictJUnitXml(xml: string, file: string): JUnitXmlResult | null {
  const collector = createJUnitCollector(file);
  const where = () => 'an unknown position';
  const n = xml.length;
  const stack: string[] = [];
  let rootClosed = false;
  let i = 0;
  // The next `&` at or after the text being looked at (found once per `&`, not per text).
  let amp = xml.indexOf('&');
  // An XML declaration, only first (after whitespace).
  i = skipWhitespace(xml, i);
  if (xml.startsWith('<?xml', i)) {
    const end = xml.indexOf('?>', i);
    if (end < 0) return null;
    i = end + 2;
  }
  for (;;) {
    const lt = xml.indexOf('<', i);
    const textEnd = lt < 0 ? n : lt;
    // Text: outside the root only whitespace; inside it, entity references only to the five
    // predefined entities (the text itself is not kept).
    if (stack.length === 0 && skipWhitespace(xml, i) < textEnd) return null;
    if (amp >= 0 && amp < i) amp = xml.indexOf('&', i);
    while (amp >= 0 && amp < textEnd) {
      const semi = xml.indexOf(';', amp);
      if (semi < 0 || semi - amp > 5 || !ENTITIES.has(xml.slice(amp + 1, semi))) return null;
      amp = xml.indexOf('&', semi);
    }
    if (lt < 0) break;
    const next = xml.charCodeAt(lt + 1);
    if (next === 0x21 /* ! */) {
      if (stack.length === 0 || !xml.startsWith('<![CDATA[', lt)) return null;
      const end = xml.indexOf(']]>', lt + 9);
      if (end < 0) return null;
      i = end + 3;
      continue;
    }
    if (next === 0x2f /* / */) {
      const end = nameEnd(xml, lt + 2);
      const open = stack.pop();
      // Compared in place: a closing tag makes no string.
      if (end < 0 || open === undefined || end - (lt + 2) !== open.length || !xml.startsWith(open, lt + 2)) return null;
      const gt = skipWhitespace(xml, end);
      if (xml.charCodeAt(gt) !== 0x3e) return null;
      collector.close();
      if (stack.length === 0) rootClosed = true;
      i = gt + 1;
      continue;
    }
    // An opening (or empty) element.
    if (rootClosed) return null;
    const nameAt = nameEnd(xml, lt + 1);
    if (nameAt < 0) return null;
    const name = xml.slice(lt + 1, nameAt);
    const attrs: Record<string, string> = {};
    let at = nameAt;
    let empty = false;
    for (;;) {
      const ws = skipWhitespace(xml, at);
      const c = xml.charCodeAt(ws);
      if (c === 0x3e /* > */) {
        at = ws + 1;
        break;
      }
      if (c === 0x2f /* / */ && xml.charCodeAt(ws + 1) === 0x3e) {
        at = ws + 2;
        empty = true;
        break;
      }
      // An attribute, after whitespace.
      if (ws === at) return null;
      const attrEnd = nameEnd(xml, ws);
      if (attrEnd < 0) return null;
      const attr = xml.slice(ws, attrEnd);
      let eq = skipWhitespace(xml, attrEnd);
      if (xml.charCodeAt(eq) !== 0x3d /* = */) return null;
      eq = skipWhitespace(xml, eq + 1);
      const quote = xml.charCodeAt(eq);
      if (quote !== 0x22 && quote !== 0x27) return null;
      const close = xml.indexOf(quote === 0x22 ? '"' : "'", eq + 1);
      if (close < 0) return null;
      if (close - eq > LONGEST_VALUE) return null;
      const raw = xml.slice(eq + 1, close);
      const value = attributeValue(raw);
      if (value === null || Object.hasOwn(attrs, attr)) return null;
      attrs[attr] = value;
      at = close + 1;
    }
    stack.push(name);
    collector.open(name, attrs, where);
    if (collector.problem !== null) return null;
    if (empty) {
      stack.pop();
      collector.close();
      if (stack.length === 0) rootClosed = true;
    }
    i = at;
  }
  if (stack.length > 0 || !rootClosed || collector.problem !== null) return null;
  const result = collector.result();
  // Errors carry sax's positions: a document that is not a report is read again by sax.
  return result.ok ? result : null;
}

/** The end of the ASCII name ([A-Za-z_][A-Za-z0-9_.:-]*) at `i`; -1 when none starts there or it is too long. */
function nameEnd(xml: string, i: number): number {
  const first = xml.charCodeAt(i);
  if (!((first >= 0x61 && first <= 0x7a) || (first >= 0x41 && first <= 0x5a) || first === 0x5f)) return -1;
  let j = i + 1;
  for (;;) {
    const c = xml.charCodeAt(j);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x3a) || c === 0x5f || c === 0x2e || c === 0x2d) j++;
    else break;
  }
  return j - i > LONGEST_NAME ? -1 : j;
}

function skipWhitespace(xml: string, i: number): number {
  for (;;) {
    const c = xml.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
    i++;
  }
}

/** An attribute's value with the predefined entities replaced; null outside the subset. */
function attributeValue(raw: string): string | null {
  if (raw.includes('<') || raw.includes('\t') || raw.includes('\n') || raw.includes('\r')) return null;
  let amp = raw.indexOf('&');
  if (amp < 0) return raw;
  let value = '';
  let from = 0;
  while (amp >= 0) {
    const semi = raw.indexOf(';', amp);
    const c = semi < 0 ? undefined : ENTITIES.get(raw.slice(amp + 1, semi));
    if (c === undefined) return null;
    value += raw.slice(from, amp) + c;
    from = semi + 1;
    amp = raw.indexOf('&', from);
  }
  return value + raw.slice(from);
}
