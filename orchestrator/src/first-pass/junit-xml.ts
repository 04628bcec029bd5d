// Reads one JUnit XML report (Gradle's TEST-*.xml, Surefire's, or any <testsuites>/<testsuite>
// file) into test cases, in document order, streaming from the file with bounded memory. Hostile
// input is an error value naming the file: broken XML, a DOCTYPE (entity bombs, XXE), invalid
// UTF-8, buffers past MAX_BUFFER_CHARS.
import { isUtf8 } from 'node:buffer';
import { closeSync, createReadStream, fstatSync, openSync, readSync } from 'node:fs';
import { createJUnitXmlReader } from './junit-xml-reader.js';
import { parseStrictJUnitXml } from './junit-xml-strict.js';
import type { JUnitXmlResult } from './junit-xml-types.js';

export type { JUnitXmlResult, XmlExecution, XmlTestCase } from './junit-xml-types.js';

const SLICE_CHARS = 64 * 1024;

/** Pure: parses a whole report held in a string: the strict fast path, else sax. */
export function parseJUnitXml(xml: string, file: string): JUnitXmlResult {
  return parseStrictJUnitXml(xml, file) ?? parseJUnitXmlWithSax(xml, file);
}

/** Pure: parses a whole report with sax (the reference the fast path is held to). */
export function parseJUnitXmlWithSax(xml: string, file: string): JUnitXmlResult {
  const reader = createJUnitXmlReader(file);
  // In slices, as from a file: the parser checks its buffer bounds between writes.
  for (let i = 0; i < xml.length && reader.write(xml.slice(i, i + SLICE_CHARS)); i += SLICE_CHARS);
  return reader.end();
}

/** Files up to this size are read in one piece; larger ones are streamed in chunks of it. */
export const WHOLE_FILE_BYTES = 1024 * 1024;

/** Reads `file` (a stream when large): memory stays bounded whatever its size. Never throws. */
export async function readJUnitXmlFile(file: string): Promise<JUnitXmlResult> {
  // fatal: invalid UTF-8 is an error, not silently replaced (the names are identities).
  const decoder = new TextDecoder('utf-8', { fatal: true });
  // Most reports are a few KB: one open, one read, no 1 MB stream buffer per file (a suite of
  // 50,000 tests has hundreds of them). A file that turns out larger is streamed.
  let whole: Buffer | null;
  try {
    whole = await readSmall(file);
  } catch (e) {
    return { ok: false, error: `${file}: could not be read: ${(e as Error).message}` };
  }
  if (whole && isUtf8(whole)) {
    // Valid as a whole (checked natively): decoded at once, without a BOM as TextDecoder drops it.
    const bom = whole[0] === 0xef && whole[1] === 0xbb && whole[2] === 0xbf ? 3 : 0;
    return parseJUnitXml(whole.toString('utf8', bom), file);
  }
  const reader = createJUnitXmlReader(file);
  const stream = whole ? null : createReadStream(file, { highWaterMark: WHOLE_FILE_BYTES });
  const chunks: Iterable<Buffer> | AsyncIterable<Buffer> = whole ? [whole] : (stream as AsyncIterable<Buffer>);
  let offset = 0;
  try {
    for await (const chunk of chunks) {
      let text: string;
      try {
        text = decoder.decode(chunk, { stream: true });
      } catch {
        return { ok: false, error: `${file}: not valid UTF-8 (within bytes ${offset}-${offset + chunk.length - 1}); JUnit XML must be UTF-8` };
      }
      offset += chunk.length;
      if (!reader.write(text)) break;
    }
    try {
      const rest = decoder.decode();
      if (rest) reader.write(rest);
    } catch {
      return { ok: false, error: `${file}: not valid UTF-8 (it ends inside a character); JUnit XML must be UTF-8` };
    }
  } catch (e) {
    return { ok: false, error: `${file}: could not be read: ${(e as Error).message}` };
  } finally {
    stream?.destroy();
  }
  return reader.end();
}

/**
 * The whole file when it holds at most WHOLE_FILE_BYTES, else null (stream it). Synchronous: for
 * files of a few KB one open, fstat, read and close cost about a tenth of the same through
 * FileHandle promises (500 reports: 32 ms against 134 ms), and nothing else runs meanwhile.
 */
async function readSmall(file: string): Promise<Buffer | null> {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size > WHOLE_FILE_BYTES) return null;
    // One byte more than its size: a file still growing is noticed and streamed instead.
    const buf = Buffer.allocUnsafe(size + 1);
    let n = 0;
    for (;;) {
      const bytesRead = readSync(fd, buf, n, buf.length - n, n);
      if (bytesRead === 0) break;
      n += bytesRead;
      if (n > size) return null;
    }
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}
