// What a JUnit XML report says, as the readers give it (junit-xml.ts and its two parsers).

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
