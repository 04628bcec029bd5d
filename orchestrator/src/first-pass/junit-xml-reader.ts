// A streaming reader of one JUnit XML report: fed text in chunks, it keeps only the testcase
// attributes and which result elements a testcase has. Text (system-out, stack traces) is never
// accumulated, a DOCTYPE is refused (so no entity is ever declared, expanded or fetched), and
// every buffer of the underlying parser is bounded, so memory does not grow with the file.
import sax from 'sax';
import { groupExecutions, type RawTestCase } from './organic-retries.js';
import type { JUnitXmlResult } from './junit-xml-types.js';

/** The longest run of text, attribute value or name the parser buffers (characters; sax checks
 * between writes, so one written chunk more at most). */
export const MAX_BUFFER_CHARS = 8 * 1024 * 1024;
/** More test cases than this in one report is refused rather than held in memory. */
export const MAX_CASES_PER_FILE = 1_000_000;

// sax flushes text and CDATA (we have no handler, so they are dropped) when they pass this
// length, and fails on any other buffer (an attribute, a comment, a name) that does. It is a
// module-wide setting of sax; this reader is its only user.
(sax as unknown as { MAX_BUFFER_LENGTH: number }).MAX_BUFFER_LENGTH = MAX_BUFFER_CHARS;

/** Result elements of a testcase; the rerun/flaky ones are Surefire's (and Gradle's mergeReruns). */
const RESULT_ELEMENTS = new Set(['failure', 'error', 'skipped', 'flakyFailure', 'flakyError', 'rerunFailure', 'rerunError']);

/** The results of a test case that has none (most): shared, replaced by its own list on the first. */
const NO_RESULTS: RawTestCase['results'] = [];

/** Feeds a report in chunks; `end` gives its cases or the first problem, naming `file`. */
export interface JUnitXmlReader {
  /** Parses the next chunk; returns false once the report is known to be broken. */
  write(chunk: string): boolean;
  /** Finishes the document. */
  end(): JUnitXmlResult;
}

/** What the reader keeps of a report's elements, fed by sax or by the strict scanner (junit-xml-strict.ts). */
export interface JUnitCollector {
  /** An element opened; `where` locates it for an error. */
  open(name: string, attrs: Record<string, string>, where: () => string): void;
  /** The innermost open element closed. */
  close(): void;
  /** The first problem so far (naming the file), or null. */
  readonly problem: string | null;
  /** Records a problem of the document itself (the first one is kept). */
  fail(message: string): void;
  /** The report's cases, or its first problem. */
  result(): JUnitXmlResult;
}

/** A collector for `file` (the name goes into every error). */
export function createJUnitCollector(file: string): JUnitCollector {
  const cases: RawTestCase[] = [];
  // The name attribute of each open element that is a testsuite, else null.
  const suites: (string | null)[] = [];
  let sawSuite = false;
  let current: RawTestCase | null = null;
  let currentDepth = -1;
  let depth = 0;
  let problem: string | null = null;
  const fail = (message: string) => {
    problem ??= `${file}: ${message}`;
  };
  return {
    get problem() {
      return problem;
    },
    fail,
    open(name, attrs, where) {
      depth++;
      if (name === 'testsuite') {
        sawSuite = true;
        suites.push(attrs['name'] ?? null);
        return;
      }
      suites.push(null);
      if (name === 'testcase' && current === null) {
        const caseName = attrs['name'];
        const suite = attrs['classname'] ?? suites.findLast((s) => s !== null) ?? undefined;
        if (caseName === undefined || suite === undefined) return fail(`a <testcase> has no name or classname (${where()})`);
        current = { suite, name: caseName, durationMs: durationMs(attrs['time']), results: NO_RESULTS };
        currentDepth = depth;
        return;
      }
      // Only the testcase's own children say how it went: not elements nested deeper, and never
      // an attribute that happens to be called "failure".
      if (current !== null && depth === currentDepth + 1 && RESULT_ELEMENTS.has(name)) {
        if (current.results === NO_RESULTS) current.results = [];
        current.results.push({ kind: name as RawTestCase['results'][number]['kind'], durationMs: attrs['time'] === undefined ? null : durationMs(attrs['time']) });
      }
    },
    close() {
      suites.pop();
      if (current !== null && depth === currentDepth) {
        if (cases.length >= MAX_CASES_PER_FILE) fail(`more than ${MAX_CASES_PER_FILE.toLocaleString('en-US')} test cases in one report; refused`);
        else cases.push(current);
        current = null;
        currentDepth = -1;
      }
      depth--;
    },
    result() {
      if (problem !== null) return { ok: false, error: problem };
      if (!sawSuite) return { ok: false, error: `${file}: not a JUnit XML report (no <testsuite> element)` };
      return { ok: true, cases: groupExecutions(cases) };
    },
  };
}

/** A new reader for `file` (the name goes into every error). */
export function createJUnitXmlReader(file: string): JUnitXmlReader {
  const parser = sax.parser(true, { trim: false, normalize: false, position: true });
  const collector = createJUnitCollector(file);
  const where = () => `line ${parser.line + 1}, column ${parser.column + 1}`;

  parser.ondoctype = () => collector.fail(`refused at ${where()}: it has a DOCTYPE; JUnit reports have none, and this reader never processes one (no entity is expanded, no external file is read)`);
  parser.onerror = (e) => collector.fail(`broken JUnit XML at ${where()}: ${e.message.split('\n')[0]}`);
  parser.onopentag = (tag) => collector.open(tag.name, tag.attributes as Record<string, string>, where);
  parser.onclosetag = () => collector.close();

  return {
    write(chunk) {
      if (collector.problem !== null) return false;
      try {
        parser.write(chunk);
      } catch (e) {
        // sax throws on a write after an error it already reported; keep the first message.
        collector.fail(`broken JUnit XML at ${where()}: ${(e as Error).message.split('\n')[0]}`);
      }
      return collector.problem === null;
    },
    end() {
      if (collector.problem === null) {
        try {
          parser.close();
        } catch (e) {
          collector.fail(`broken JUnit XML: ${(e as Error).message.split('\n')[0]}`);
        }
      }
      return collector.result();
    },
  };
}

/** JUnit's `time` (seconds) in whole milliseconds; missing or nonsense is 0. */
function durationMs(time: string | undefined): number {
  const seconds = Number(time ?? '0');
  return Number.isFinite(seconds) ? Math.max(0, Math.round(seconds * 1000)) : 0;
}
