// The user's text as a LIKE pattern that finds it as a substring: its own `%`, `_` and `\` are
// escaped, so each matches itself (on ClickHouse 18.16 and chDB alike). The pattern is a value,
// bound through sql/bind.ts like any other.

/** `%text%`, with the text's LIKE wildcards and backslashes escaped by a backslash. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
