// Reads one JUnit XML report (Gradle's TEST-*.xml, Surefire's, or any <testsuites>/<testsuite>
// file) into test cases, in document order, streaming from the file with bounded memory. Hostile
// input is an error value naming the file: broken XML, a DOCTYPE (entity bombs, XXE), invalid
// UTF-8, buffers past MAX_BUFFER_CHARS.
import { createReadStream } from 'node:fs';
import { createJUnitXmlReader } from './junit-xml-reader.js';

/** One execution of a test case (a retried test has several). */
export interface XmlExecution {
  status: 'success' | 'failure' | 'skipped';
  durationMs: number;
}

/** One test case as the XML says it, retries folded in (see organic-retries.ts). */
export interface XmlTestCase {
  suite: string;
  name: string;
  status: 'success' | 'failure' | 'skipped';
  durationMs: number;
  /** Every execution in order when the build retried the test (two or more); absent otherwise. */
  executions?: XmlExecution[];
}

/** The cases of one file, or an error naming it. */
export type JUnitXmlResult = { ok: true; cases: XmlTestCase[] } | { ok: false; error: string };

const SLICE_CHARS = 64 * 1024;

/** Pure: parses a whole report held in a string (for tests and small inputs). */
export function parseJUnitXml(xml: string, file: string): JUnitXmlResult {
  const reader = createJUnitXmlReader(file);
  // In slices, as from a file: the parser checks its buffer bounds between writes.
  for (let i = 0; i < xml.length && reader.write(xml.slice(i, i + SLICE_CHARS)); i += SLICE_CHARS);
  return reader.end();
}

/** Reads `file` as a stream: memory stays bounded whatever its size. Never throws. */
export async function readJUnitXmlFile(file: string): Promise<JUnitXmlResult> {
  const reader = createJUnitXmlReader(file);
  // fatal: invalid UTF-8 is an error, not silently replaced (the names are identities).
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const stream = createReadStream(file, { highWaterMark: 1024 * 1024 });
  let offset = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
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
    stream.destroy();
  }
  return reader.end();
}
