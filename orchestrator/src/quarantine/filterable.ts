// Which skipped tests may be written into a build's test filter. Surefire's excludes file takes
// one pattern a line (globs, `!` negations, `%regex[…]`), Gradle's exclude patterns read `*` as a
// wildcard: a skipped identity holding a newline, a wildcard or the like wrote a pattern that
// excluded every test. Only a plain Java class name and a method name without wildcard or control
// characters are written; any other skipped test runs, and its result is ignored as before (the
// quarantine's skip set masks it).
import type { TestCaseIdentity } from '#contract';

/** A Java binary class name: dotted identifiers, nested classes joined by `$`. */
const CLASS_NAME = /^[\p{L}_$][\p{L}\p{N}_$]*(?:\.[\p{L}_$][\p{L}\p{N}_$]*)*$/u;
/** What a method name (or a parameterised invocation's) must not hold: a wildcard, a pattern or path character, a control character. */
const UNSAFE_IN_NAME = /[*?!%#/\\\p{Cc}\p{Cf}\u2028\u2029]/u;

/** Whether a skipped test's identity may go into a test filter as it is. */
export function filterable(t: TestCaseIdentity): boolean {
  return t.suite.length <= 1024 && CLASS_NAME.test(t.suite) && t.name.length <= 1024 && !UNSAFE_IN_NAME.test(t.name);
}

/** The skipped tests split: those a filter may name, and the rest (they run; their results are ignored). */
export function splitFilterable(skipped: readonly TestCaseIdentity[]): { filterable: TestCaseIdentity[]; refused: TestCaseIdentity[] } {
  const ok: TestCaseIdentity[] = [];
  const refused: TestCaseIdentity[] = [];
  for (const t of skipped) (filterable(t) ? ok : refused).push(t);
  return { filterable: ok, refused };
}
