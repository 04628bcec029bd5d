// The methods of a Java or Kotlin source file, each with its class, its source span (from its
// first annotation to its closing brace) and its tokens: enough to find the method a test
// identity names, to tell whether a merge request changed it, and to fingerprint its body.
// Not a parser: a walk over tokens that knows class bodies, members and balanced brackets.
import { tokenize, type SourceLanguage, type Token } from './source-tokens.js';

/** An annotation on a method: its simple name and the tokens between its parentheses. */
export interface SourceAnnotation {
  name: string;
  args: readonly Token[];
}

/** One method as the file declares it. */
export interface SourceMethod {
  name: string;
  /** Its class within the package, nested classes joined by `$` as the JVM names them (`Outer$Inner`). */
  className: string;
  startLine: number;
  endLine: number;
  annotations: readonly SourceAnnotation[];
  /** Its tokens from its first annotation or modifier to its last, its own name masked. */
  tokens: readonly string[];
}

/** What one file declares. */
export interface SourceFile {
  packageName: string;
  methods: SourceMethod[];
}

const CLASS_KEYWORDS = new Set(['class', 'interface', 'enum', 'record', 'object']);
const KOTLIN_MODIFIERS = new Set([
  'public', 'private', 'protected', 'internal', 'open', 'override', 'abstract', 'final', 'suspend', 'inline',
  'operator', 'infix', 'tailrec', 'external', 'actual', 'expect', 'fun',
]);
const KOTLIN_MEMBER_STARTS = new Set(['fun', 'val', 'var', 'class', 'object', 'interface', 'init', 'companion', 'constructor', 'enum', 'data', 'inner', 'lateinit', 'const', ...KOTLIN_MODIFIERS]);
/** The mask that stands for a method's own name in its tokens: a renamed method keeps its fingerprint. */
export const OWN_NAME = '\u0000name';

/** Scans one file; never throws (an unbalanced file yields the methods found before the damage). */
export function scanSource(source: string, language: SourceLanguage): SourceFile {
  const tokens = tokenize(source, language);
  return new Scanner(tokens, language).scan();
}

class Scanner {
  private readonly methods: SourceMethod[] = [];
  constructor(
    private readonly t: readonly Token[],
    private readonly language: SourceLanguage,
  ) {}

  scan(): SourceFile {
    let i = 0;
    let packageName = '';
    if (this.t[0]?.text === 'package') {
      const parts: string[] = [];
      i = 1;
      while (i < this.t.length && this.t[i]!.kind === 'ident' && this.t[i]!.line === this.t[0]!.line) {
        parts.push(this.t[i]!.text);
        i++;
        if (this.t[i]?.text !== '.') break;
        i++;
      }
      packageName = parts.join('.');
    }
    // Top level: only class declarations matter (Kotlin's top-level functions are no JUnit tests).
    while (i < this.t.length) {
      const cls = this.classAt(i);
      if (cls) {
        i = cls.body < 0 ? cls.next : this.members(cls.body + 1, cls.name);
        continue;
      }
      if (this.t[i]!.text === '{') i = this.closing(i) + 1;
      else i++;
    }
    return { packageName, methods: this.methods };
  }

  /** A class declaration at i: its name, the index of its body's `{` (-1 when it has none), where to go on. */
  private classAt(i: number): { name: string; body: number; next: number } | null {
    const tok = this.t[i]!;
    if (tok.kind !== 'ident' || !CLASS_KEYWORDS.has(tok.text)) return null;
    const before = this.t[i - 1]?.text;
    // Foo.class, Foo::class; Kotlin's `enum class` and `annotation class` are declared by their `class`.
    if (before === '.' || before === ':' || this.t[i + 1]?.text === 'class') return null;
    let nameAt = i + 1;
    let name: string;
    if (tok.text === 'object' && this.t[nameAt]?.text !== undefined && (this.t[nameAt]!.kind !== 'ident' || this.t[nameAt]!.line !== tok.line)) {
      if (before !== 'companion') return null; // an object expression
      name = 'Companion';
      nameAt = i;
    } else if (this.t[nameAt]?.kind === 'ident') {
      name = this.t[nameAt]!.text;
    } else return null;
    // The body's brace, past type parameters, a primary constructor, supertypes and a permits clause.
    let parens = 0;
    for (let k = nameAt + 1; k < this.t.length; k++) {
      const s = this.t[k]!.text;
      if (s === '(') parens++;
      else if (s === ')') parens--;
      else if (parens === 0 && s === '{') return { name, body: k, next: k };
      else if (parens === 0 && (s === ';' || s === '}' || (this.language === 'kotlin' && this.t[k]!.kind === 'ident' && KOTLIN_MEMBER_STARTS.has(s) && this.t[k]!.line !== this.t[k - 1]!.line))) {
        return { name, body: -1, next: k };
      }
    }
    return { name, body: -1, next: this.t.length };
  }

  /** The index of the bracket closing the one at i (or the last token). */
  private closing(i: number): number {
    let depth = 0;
    for (let k = i; k < this.t.length; k++) {
      const s = this.t[k]!.text;
      if (s === '{' || s === '(' || s === '[') depth++;
      else if (s === '}' || s === ')' || s === ']') {
        depth--;
        if (depth === 0) return k;
      }
    }
    return this.t.length - 1;
  }

  /** Walks a class body from i (after its `{`); returns the index after its `}`. */
  private members(i: number, className: string): number {
    let memberStart = i;
    while (i < this.t.length) {
      const s = this.t[i]!.text;
      if (s === '}') return i + 1;
      if (s === ';') {
        memberStart = ++i;
        continue;
      }
      if (s === '(' || s === '[') {
        i = this.closing(i) + 1;
        continue;
      }
      const cls = this.classAt(i);
      if (cls) {
        i = cls.body < 0 ? cls.next : this.members(cls.body + 1, `${className}$${cls.name}`);
        memberStart = i;
        continue;
      }
      if (s === '{') {
        const end = this.closing(i);
        this.method(memberStart, i, end, className);
        i = end + 1;
        memberStart = i;
        continue;
      }
      if (this.language === 'kotlin' && s === '=' && this.funIn(memberStart, i) >= 0) {
        // An expression body: up to the next member on a line of its own, or the class's end.
        let k = i + 1;
        while (k < this.t.length) {
          const x = this.t[k]!;
          if (x.text === '(' || x.text === '[' || x.text === '{') {
            k = this.closing(k) + 1;
            continue;
          }
          if (x.text === '}' || x.text === ';') break;
          if (x.line !== this.t[k - 1]!.line && (x.text === '@' || KOTLIN_MEMBER_STARTS.has(x.text))) break;
          k++;
        }
        this.method(memberStart, i, k - 1, className);
        i = k;
        memberStart = i;
        continue;
      }
      i++;
    }
    return i;
  }

  /** The index of `fun` in [from, to), or -1. */
  private funIn(from: number, to: number): number {
    for (let k = from; k < to; k++) if (this.t[k]!.text === 'fun' && this.t[k]!.kind === 'ident') return k;
    return -1;
  }

  /** Records the member [from, end] as a method if its head [from, bodyAt) declares one. */
  private method(from: number, bodyAt: number, end: number, className: string): void {
    const head = this.head(from, bodyAt);
    if (!head) return;
    const { start, nameAt, annotations } = head;
    const tokens: string[] = [];
    for (let k = start; k <= end; k++) tokens.push(k === nameAt ? OWN_NAME : this.t[k]!.text);
    this.methods.push({ name: this.t[nameAt]!.text, className, startLine: this.t[start]!.line, endLine: this.t[end]!.line, annotations, tokens });
  }

  /** A method's head in [from, to): where it starts, where its name is, its annotations; null for no method. */
  private head(from: number, to: number): { start: number; nameAt: number; annotations: SourceAnnotation[] } | null {
    const annotations: SourceAnnotation[] = [];
    let k = from;
    let nameAt = -1;
    const fun = this.language === 'kotlin' ? this.funIn(from, to) : -1;
    if (this.language === 'kotlin' && fun < 0) return null;
    let start = from;
    if (fun >= 0) {
      // Kotlin has no separator between members: the method starts at its annotations and modifiers.
      start = fun;
      for (let b = fun - 1; b >= from; b--) {
        const x = this.t[b]!;
        if (x.kind === 'ident' && KOTLIN_MODIFIERS.has(x.text)) start = b;
        else {
          const at = this.annotationStartBefore(b, from);
          if (at < 0) break;
          start = b = at;
        }
      }
      k = start;
    }
    for (; k < to; k++) {
      const x = this.t[k]!;
      if (x.text === '@' && this.t[k + 1]?.kind === 'ident' && this.t[k + 1]!.text !== 'interface') {
        let e = k + 1;
        while (this.t[e + 1]?.text === '.' && this.t[e + 2]?.kind === 'ident') e += 2;
        const name = this.t[e]!.text;
        let args: Token[] = [];
        if (this.t[e + 1]?.text === '(') {
          const close = this.closing(e + 1);
          args = this.t.slice(e + 2, close);
          e = close;
        }
        annotations.push({ name, args });
        k = e;
        continue;
      }
      if (x.text === '=' ) return null; // a field's initializer, not a method
      if (x.text === '(') {
        const prev = this.t[k - 1];
        if (prev?.kind !== 'ident' || (fun >= 0 && k - 1 <= fun)) return null;
        nameAt = k - 1;
        break;
      }
    }
    if (nameAt < 0) return null;
    return { start, nameAt, annotations };
  }

  /** If token b ends an annotation (`@a.B` or `@a.B(...)`) that starts at or after `from`, its `@`'s index; else -1. */
  private annotationStartBefore(b: number, from: number): number {
    let k = b;
    if (this.t[k]!.text === ')') {
      let depth = 0;
      for (; k >= from; k--) {
        const s = this.t[k]!.text;
        if (s === ')') depth++;
        else if (s === '(' && --depth === 0) break;
      }
      k--;
    }
    if (k < from || this.t[k]!.kind !== 'ident') return -1;
    while (k - 2 >= from && this.t[k - 1]!.text === '.' && this.t[k - 2]!.kind === 'ident') k -= 2;
    return k - 1 >= from && this.t[k - 1]!.text === '@' ? k - 1 : -1;
  }
}
