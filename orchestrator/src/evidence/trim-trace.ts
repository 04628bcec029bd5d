// Pure: a Java stack trace (Throwable.printStackTrace, causes included) cut to what an author
// reads: each exception's frames down to the last frame of the test's own class, the frames
// beyond (the test framework, reflection, the runner) left out and counted. An exception with no
// frame of the test's class (a cause from library code, a thread of its own) keeps its first few,
// and at least down to its first frame of user code (an inherited test's base class).
import { groupingFrame, inTestClass, parseFrame, userCode } from './test-frame.js';

export { inTestClass };

/** The trace as reported, and what was left out. */
export interface TrimmedTrace {
  trace: string;
  framesOmitted: number;
  /** The frame failures are grouped by (test-frame.ts), e.g. "shop.CheckoutTest.appliesDiscount(CheckoutTest.java:42)". */
  testFrame: string | null;
}

/** Frames kept of an exception that has none of the test's class. */
const KEPT_WITHOUT_TEST_FRAME = 8;

const FRAME = /^\s+at (.+)$/;
const MORE = /^\s+\.\.\. (\d+) more$/;

/** Trims `trace` for a test of class `suite`. */
export function trimTrace(trace: string, suite: string): TrimmedTrace {
  const lines = trace.replace(/\r\n?/g, '\n').replace(/\n+$/, '').split('\n');
  // Sections: the exception line (and its message's own lines) then its frames; "Caused by:" and
  // "Suppressed:" start a new one.
  const sections: string[][] = [];
  for (const line of lines) {
    if (sections.length === 0 || /^\s*(Caused by|Suppressed): /.test(line)) sections.push([line]);
    else sections[sections.length - 1]!.push(line);
  }
  let omitted = 0;
  const all: string[] = [];
  const out: string[] = [];
  for (const section of sections) {
    const firstFrame = section.findIndex((l) => FRAME.test(l));
    const head = firstFrame < 0 ? section : section.slice(0, firstFrame);
    const frames = firstFrame < 0 ? [] : section.slice(firstFrame);
    let more = 0;
    const calls: string[] = [];
    for (const f of frames) {
      const m = MORE.exec(f);
      if (m) more += Number(m[1]);
      else calls.push(f);
    }
    const called = calls.map((f) => FRAME.exec(f)?.[1] ?? '');
    all.push(...called);
    const last = called.findLastIndex((f) => inTestClass(f, suite));
    const user = called.findIndex((f) => userCode(parseFrame(f)));
    const keep = last >= 0 ? last + 1 : Math.min(calls.length, Math.max(KEPT_WITHOUT_TEST_FRAME, user + 1));
    out.push(...head, ...calls.slice(0, keep));
    const left = calls.length - keep + more;
    if (left > 0) out.push(`${section[0]!.match(/^\s*/)![0]}\t... ${left} more`);
    omitted += left;
  }
  return { trace: out.join('\n'), framesOmitted: omitted, testFrame: groupingFrame(all, suite) };
}
