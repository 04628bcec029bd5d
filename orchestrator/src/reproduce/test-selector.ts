// Pure: the tests `--stress-tests` names, and how the reproduce command names one. A selector is
// `[<module> ]<suite>.<name>`: the module (a Gradle project path or a Maven module, `:app`) when
// it starts with `:`, then the class and the test's name as the report prints them; `*` matches
// any run of characters, `\*` and `\\` stand for themselves.
import type { TestCaseIdentity } from '#contract';

/** A parsed selector. */
export interface TestSelector {
  text: string;
  module: string | null;
  matches: (fullName: string) => boolean;
}

/** Parses one selector; throws nothing (an empty one matches nothing and the caller says so). */
export function parseSelector(text: string): TestSelector {
  const trimmed = text.trim();
  const space = trimmed.indexOf(' ');
  const hasModule = trimmed.startsWith(':') && space > 0;
  const module = hasModule ? trimmed.slice(0, space) : null;
  const pattern = hasModule ? trimmed.slice(space + 1).trim() : trimmed;
  const re = new RegExp(`^${globSource(pattern)}$`, 'su');
  return { text, module, matches: (fullName) => pattern !== '' && re.test(fullName) };
}

/** Whether `id` is one of the tests `selectors` name. */
export function selected(selectors: readonly TestSelector[], id: TestCaseIdentity): boolean {
  const full = `${id.suite}.${id.name}`;
  return selectors.some((s) => (s.module === null || s.module === id.module) && s.matches(full));
}

/** The selector that names exactly `id` (the reproduce command's; shared with the verdict API). */
export { selectorOf } from '#reproduce';

function globSource(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) out += escapeRegExp(pattern[++i]!);
    else if (c === '*') out += '.*';
    else out += escapeRegExp(c);
  }
  return out;
}

const escapeRegExp = (c: string) => c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
