// The only ways text from a test run (names, branches, messages, traces, commands) enters the
// Markdown the gate writes (the server's run report, the CLI's job summary and comment): as a
// code span or as a fenced code block, where CommonMark reads nothing in
// it as Markdown or HTML and GitHub links no @mention, issue or URL. Hostile text (`<!--`, a
// closing fence, `|`, newlines) cannot end its code early, so it cannot swallow the comment or
// break its tables.

/**
 * Characters that change how the text around them is shown rather than showing themselves: C0
 * controls (ESC recolours a terminal, NUL cuts a string short), DEL, C1 controls, the line and
 * paragraph separators, and the bidirectional controls (U+202E turns `gnp.exe` around). Tab and
 * newline are not among them: callers that want one line handle those.
 */
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `text` with every control and bidirectional character written as a visible escape (`\u202e`); tab and newline kept. */
export function visible(text: string): string {
  return text.replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The longest run of backticks in `s` (0 when none). */
const longestBacktickRun = (s: string): number => Math.max(0, ...(s.match(/`+/g) ?? []).map((run) => run.length));

/**
 * `text` as one inline code span, on one line. Its delimiter is a backtick run longer than any
 * inside; a space pads text that starts or ends with a backtick or a space (CommonMark strips
 * exactly one on each side). In a GFM table cell (`in: 'table'`) every `|` is left with an odd
 * number of backslashes before it, so that neither cmark-gfm (GitHub, GitLab) nor markdown-it
 * splits the cell there; the escaping backslash is dropped again before the span is read.
 */
export function code(text: string, where: { in: 'text' | 'table' } = { in: 'text' }): string {
  let s = visible(text.replace(/\r\n?|\n/g, ' '));
  if (where.in === 'table') s = s.replace(/(\\*)\|/g, (all, backslashes: string) => (backslashes.length % 2 === 0 ? `${backslashes}\\|` : all));
  const fence = '`'.repeat(longestBacktickRun(s) + 1);
  const pad = /^[` ]|[` ]$/.test(s) ? ' ' : '';
  return `${fence}${pad}${s}${pad}${fence}`;
}

/**
 * `text` as a fenced code block, lines kept: the fence is a backtick run longer than any inside
 * (at least three), so no line of the text can close it. Ends with a newline.
 */
export function codeBlock(text: string, info = 'text'): string {
  const body = visible(text.replace(/\r\n?/g, '\n').replace(/\n$/, ''));
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(body) + 1));
  return `${fence}${info}\n${body}\n${fence}\n`;
}

/** At most `max` characters of `text` (no surrogate pair split), with `…` when it was cut. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  // A high surrogate at the cut would leave half a character: cut before it.
  if (/[\ud800-\udbff]/.test(text[end - 1] ?? '')) end--;
  return `${text.slice(0, end)}…`;
}

/**
 * The lines of a trace's frames shown to a reader, at most `max`: the top ones, and the frame at
 * `location` (the test's own line, e.g. "CheckoutTest.java:42") even when it lies deeper, as it
 * does under an assertion library (AssertJ, Jupiter's Assertions: their frames come first); then
 * the frames between are one line, `gap(n)`. `left` counts the lines after the last one shown.
 */
export function framesShown(frames: readonly string[], max: number, location: string | null, gap: (n: number) => string): { lines: string[]; left: number } {
  const at = location === null ? -1 : frames.findIndex((f) => f.trimEnd().endsWith(`(${location})`));
  if (at < max || max < 3) {
    const lines = frames.slice(0, max);
    return { lines, left: frames.length - lines.length };
  }
  return { lines: [...frames.slice(0, max - 2), gap(at - (max - 2)), frames[at]!], left: frames.length - at - 1 };
}
