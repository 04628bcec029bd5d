// Sentences of the report whose parts may come from the tests (names, messages, traces): text
// from a test is hostile. Each renderer treats those parts on its own terms: the terminal shows
// control characters as escapes (no test can move the cursor or recolour the CI log), Markdown
// puts them in code spans and fences (no test can open an HTML comment, a link or a heading that
// hides the verdict), and our own prose is escaped for Markdown as well.
import { code as mdCode, codeBlock as mdCodeBlock } from '#markdown';
import { terminalSafe } from '../format/terminal-safe.js';

/** Part of a sentence: our prose, or text from a test (`{ code }`). */
export type Piece = string | { code: string };
/** A sentence of pieces. */
export type Rich = readonly Piece[];

/** Text from a test, to be shown as it is. */
export const code = (text: string): Piece => ({ code: text });

/** Builds a sentence: literal parts are prose, `{ code }` values are test text. */
export function rich(strings: TemplateStringsArray, ...values: (Piece | number)[]): Rich {
  const out: Piece[] = [];
  strings.forEach((s, i) => {
    if (s) out.push(s);
    if (i < values.length) out.push(typeof values[i] === 'number' ? String(values[i]) : (values[i] as Piece));
  });
  return out;
}

/** For a terminal: one line, every control character written as an escape. */
export function plain(r: Rich | string): string {
  return (typeof r === 'string' ? [r] : r).map((p) => terminalSafe(typeof p === 'string' ? p : p.code)).join('');
}

export { terminalSafe };

/** Lines of test text for a terminal block (a trace, a message): each line made safe, lines kept. */
export function terminalLines(s: string): string[] {
  return s.replace(/\r\n?/g, '\n').split('\n').map(terminalSafe);
}

/** For Markdown: prose escaped (every ASCII punctuation, `<` included), test text in code spans; one line. */
export function markdown(r: Rich | string, where: { in: 'text' | 'table' } = { in: 'text' }): string {
  return (typeof r === 'string' ? [r] : r).map((p) => (typeof p === 'string' ? escapeProse(p) : mdCode(p.code, where))).join('');
}

/** Test text as a fenced code block. */
export const markdownBlock = (text: string, info = 'text'): string => mdCodeBlock(text, info);

/**
 * Prose for Markdown, one line: every character that could start markup backslash-escaped
 * (CommonMark allows it for any ASCII punctuation): emphasis, code, links, images, HTML and
 * comments, tables, headings, strikethrough, entities, and a list or quote marker at the start.
 */
export function escapeProse(s: string): string {
  return s
    .replace(/\r\n?|\n/g, ' ')
    .replace(/[\\`*_[\]<>#|~&!]/g, (c) => `\\${c}`)
    .replace(/^([-+=]|\d+[.)])/, (m) => `${m.slice(0, -1)}\\${m.at(-1)}`);
}
