// Java and Kotlin source as tokens: what the test-method scanner walks and what a body
// fingerprint hashes. Comments and layout are dropped; string and character literals are one token
// each (a Kotlin template's braces never count as the code's), so a brace in a string or a
// comment cannot end a method early.

/** One token and the 1-based line it starts on. */
export interface Token {
  text: string;
  line: number;
  /** ident: a name or keyword (a Kotlin `backticked name` without its backticks); lit: a string, character or number. */
  kind: 'ident' | 'lit' | 'punct';
}

export type SourceLanguage = 'java' | 'kotlin';

// ASCII first: the regular expressions are for the rest of Unicode (a name may be in any script).
const isIdentStart = (c: string) => {
  const x = c.charCodeAt(0);
  return (x >= 97 && x <= 122) || (x >= 65 && x <= 90) || x === 95 || x === 36 || (x > 127 && /[\p{L}_$]/u.test(c));
};
const isIdentPart = (c: string) => {
  const x = c.charCodeAt(0);
  return (x >= 97 && x <= 122) || (x >= 65 && x <= 90) || (x >= 48 && x <= 57) || x === 95 || x === 36 || (x > 127 && /[\p{L}\p{N}_$]/u.test(c));
};

/** Splits a source file into tokens. Never throws: an unterminated literal runs to the end of the file. */
export function tokenize(source: string, language: SourceLanguage): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  const n = source.length;
  const advance = (to: number) => {
    for (let k = i; k < to && k < n; k++) if (source.charCodeAt(k) === 10) line++;
    i = Math.min(to, n);
  };

  /** The end (exclusive) of a string starting at `at` with `quote` ('"' or '"""'). */
  const stringEnd = (at: number, quote: string): number => {
    let k = at + quote.length;
    while (k < n) {
      if (quote === '"' && source[k] === '\\') {
        k += 2;
        continue;
      }
      if (language === 'kotlin' && source[k] === '$' && source[k + 1] === '{') {
        k = templateEnd(k + 2);
        continue;
      }
      if (source.startsWith(quote, k)) {
        // A raw string may end in more quotes than three ("""a"""" is a followed by one quote).
        if (quote === '"""') while (source[k + 3] === '"') k++;
        return k + quote.length;
      }
      if (quote === '"' && source[k] === '\n') return k; // unterminated: stop at the line's end
      k++;
    }
    return n;
  };
  /** The end of a Kotlin `${...}` template whose body starts at `at`: nested braces and strings inside. */
  const templateEnd = (at: number): number => {
    let depth = 1;
    let k = at;
    while (k < n && depth > 0) {
      const c = source[k]!;
      if (c === '"') {
        k = stringEnd(k, source.startsWith('"""', k) ? '"""' : '"');
        continue;
      }
      if (c === '{') depth++;
      else if (c === '}') depth--;
      k++;
    }
    return k;
  };

  while (i < n) {
    const c = source[i]!;
    if (c === '\n') {
      line++;
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\f') {
      i++;
      continue;
    }
    if (c === '/' && source[i + 1] === '/') {
      const end = source.indexOf('\n', i);
      i = end < 0 ? n : end;
      continue;
    }
    if (c === '/' && source[i + 1] === '*') {
      // Kotlin block comments nest; Java's do not.
      let k = i + 2;
      let depth = 1;
      while (k < n && depth > 0) {
        if (source.startsWith('*/', k)) {
          depth--;
          k += 2;
        } else if (language === 'kotlin' && source.startsWith('/*', k)) {
          depth++;
          k += 2;
        } else k++;
      }
      advance(k);
      continue;
    }
    const startLine = line;
    if (c === '"') {
      const quote = source.startsWith('"""', i) ? '"""' : '"';
      const end = stringEnd(i, quote);
      tokens.push({ text: source.slice(i, end), line: startLine, kind: 'lit' });
      advance(end);
      continue;
    }
    if (c === "'") {
      let k = i + 1;
      while (k < n && source[k] !== "'" && source[k] !== '\n') k += source[k] === '\\' ? 2 : 1;
      const end = Math.min(n, k + 1);
      tokens.push({ text: source.slice(i, end), line: startLine, kind: 'lit' });
      advance(end);
      continue;
    }
    if (c === '`' && language === 'kotlin') {
      const end = source.indexOf('`', i + 1);
      const stop = end < 0 ? n : end + 1;
      tokens.push({ text: source.slice(i + 1, end < 0 ? n : end), line: startLine, kind: 'ident' });
      advance(stop);
      continue;
    }
    if (isIdentStart(c)) {
      let k = i + 1;
      while (k < n && isIdentPart(source[k]!)) k++;
      tokens.push({ text: source.slice(i, k), line: startLine, kind: 'ident' });
      i = k;
      continue;
    }
    if (c >= '0' && c <= '9') {
      let k = i + 1;
      while (k < n && /[0-9a-zA-Z_.]/.test(source[k]!)) {
        // 1..2 (a Kotlin range) is a number, two dots and a number.
        if (source[k] === '.' && source[k + 1] === '.') break;
        k++;
      }
      tokens.push({ text: source.slice(i, k), line: startLine, kind: 'lit' });
      i = k;
      continue;
    }
    tokens.push({ text: c, line: startLine, kind: 'punct' });
    i++;
  }
  return tokens;
}
