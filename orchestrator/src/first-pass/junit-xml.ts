// Parses one JUnit XML report (Gradle's TEST-*.xml, or any <testsuites>/<testsuite> file) into
// test cases, in document order. Pure: the caller reads the file.
import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** One <testcase> as the XML says it. */
export interface XmlTestCase {
  suite: string;
  name: string;
  status: 'success' | 'failure' | 'skipped';
  durationMs: number;
}

/** The cases of one file, or an error naming it. */
export type JUnitXmlResult = { ok: true; cases: XmlTestCase[] } | { ok: false; error: string };

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  // Names are identities: keep leading/trailing spaces and never turn "1e3" into a number.
  trimValues: false,
  parseAttributeValue: false,
  parseTagValue: false,
  // Decodes numeric character references (&#233;) as well as the five XML entities.
  htmlEntities: true,
  isArray: (tag) => tag === 'testsuite' || tag === 'testcase' || tag === 'testsuites',
});

type Node = Record<string, unknown>;

/** Parses `xml` (read from `file`, named in errors). Broken XML is an error value, not a throw. */
export function parseJUnitXml(xml: string, file: string): JUnitXmlResult {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    return { ok: false, error: `${file}: broken JUnit XML at line ${valid.err.line}, column ${valid.err.col}: ${valid.err.msg}` };
  }
  let doc: Node;
  try {
    doc = parser.parse(xml) as Node;
  } catch (e) {
    return { ok: false, error: `${file}: broken JUnit XML: ${(e as Error).message}` };
  }
  const suites: Node[] = [];
  const collect = (node: Node) => {
    for (const s of asArray(node['testsuite'])) {
      suites.push(s);
      collect(s); // nested suites (some tools nest <testsuite>)
    }
    for (const group of asArray(node['testsuites'])) collect(group);
  };
  collect(doc);
  if (suites.length === 0) return { ok: false, error: `${file}: not a JUnit XML report (no <testsuite> element)` };

  const cases: XmlTestCase[] = [];
  for (const suite of suites) {
    for (const tc of asArray(suite['testcase'])) {
      const name = attr(tc, 'name');
      const suiteName = attr(tc, 'classname') ?? attr(suite, 'name');
      if (name === undefined || suiteName === undefined) {
        return { ok: false, error: `${file}: a <testcase> has no name or classname` };
      }
      const seconds = Number(attr(tc, 'time') ?? '0');
      const status = 'failure' in tc || 'error' in tc ? 'failure' : 'skipped' in tc ? 'skipped' : 'success';
      cases.push({ suite: suiteName, name, status, durationMs: Number.isFinite(seconds) ? Math.max(0, Math.round(seconds * 1000)) : 0 });
    }
  }
  return { ok: true, cases };
}

function asArray(value: unknown): Node[] {
  if (value === undefined || value === null || value === '') return [];
  return (Array.isArray(value) ? value : [value]).filter((x): x is Node => typeof x === 'object' && x !== null);
}

function attr(node: Node, key: string): string | undefined {
  const value = node[key];
  return typeof value === 'string' ? value : undefined;
}
