// Where a test identity's method is in the checkout: its class's source file (found by name among
// the files git knows), the method in it, and its fingerprint.
import path from 'node:path';
import { fingerprintTokens, identityFingerprint, methodDigest } from './fingerprint.js';
import { scanSource, type SourceFile, type SourceMethod } from './test-methods.js';
import type { SourceLanguage } from './source-tokens.js';

/** An identity as the index needs it (a first-pass result). */
export interface LocatableTest {
  module: string;
  suite: string;
  name: string;
  /** Where the first pass ran it: its JUnit Platform unique ID, when known. */
  source?: { uniqueId?: string } | null;
}

/** Where a test's method is and what it hashes to. */
export interface LocatedTest {
  /** The source file, relative to the project directory. */
  path: string;
  /** The class within the package (`A$Inner`) and the package. */
  className: string;
  packageName: string;
  method: SourceMethod;
  /** The digest of its method and providers (diff/fingerprint.ts), and its identity's fingerprint. */
  digest: string;
  fingerprint: string;
  /** The invocation's part of its identity name (`[1]`, `(int)[2]`, ''). */
  invocation: string;
}

/** The class, method and invocation an identity names. */
export interface NamedMethod {
  /** The binary class name within its package, e.g. `A$Inner`. */
  className: string;
  packageName: string;
  method: string;
  invocation: string;
}

/** Reads the class and method an identity names: from its JUnit Platform unique ID when known, else from its suite and name. */
export function namedMethod(t: LocatableTest): NamedMethod | null {
  let suite = t.suite;
  let method: string | null = null;
  let invocation = '';
  const uniqueId = t.source?.uniqueId;
  if (uniqueId) {
    const segments = [...uniqueId.matchAll(/\[([a-z-]+):([^\]]*)\]/g)].map((m) => ({ type: m[1]!, value: m[2]! }));
    const cls = segments.find((s) => s.type === 'class');
    if (cls) suite = [cls.value, ...segments.filter((s) => s.type === 'nested-class').map((s) => s.value)].join('$');
    const m = segments.find((s) => ['method', 'test-template', 'test-factory'].includes(s.type));
    if (m) {
      const paren = m.value.indexOf('(');
      method = paren < 0 ? m.value : m.value.slice(0, paren);
      invocation = (paren < 0 ? '' : m.value.slice(paren)) + segments.filter((s) => s.type.endsWith('-invocation') || s.type === 'dynamic-test').map((s) => s.value).join('');
    }
  }
  if (method === null) {
    const cut = t.name.search(/[([]| \[#/);
    method = cut < 0 ? t.name : t.name.slice(0, cut);
    invocation = cut < 0 ? '' : t.name.slice(cut);
  }
  if (!/^[\p{L}_$][\p{L}\p{N}_$ ]*$/u.test(method)) return null;
  const dot = suite.lastIndexOf('.', suite.indexOf('$') < 0 ? suite.length : suite.indexOf('$'));
  return { packageName: dot < 0 ? '' : suite.slice(0, dot), className: suite.slice(dot + 1), method, invocation };
}

/** Finds test methods in the project's source files. `read` gives a file's text (null if unreadable). */
export class SourceIndex {
  private readonly byName = new Map<string, string[]>();
  private readonly scanned = new Map<string, Promise<SourceFile | null>>();

  /** `files`: the project's .java and .kt files, relative to the project directory. */
  constructor(
    files: readonly string[],
    private readonly read: (file: string) => Promise<string | null>,
  ) {
    for (const f of files) {
      const base = path.posix.basename(f).replace(/\.(java|kt)$/, '');
      const list = this.byName.get(base);
      if (list) list.push(f);
      else this.byName.set(base, [f]);
    }
  }

  /** A file's declarations, scanned once. */
  scan(file: string): Promise<SourceFile | null> {
    let s = this.scanned.get(file);
    if (!s) {
      s = this.read(file).then((text) => (text === null ? null : scanSource(text, languageOf(file))));
      this.scanned.set(file, s);
    }
    return s;
  }

  /** The files that may hold the test's class (by its top-level class's name), without reading any. */
  filesFor(t: LocatableTest): readonly string[] {
    const named = namedMethod(t);
    return named ? (this.byName.get(named.className.split('$')[0]!) ?? []) : [];
  }

  /** Locates a test; null when its class's file or its method is not found, or is ambiguous. */
  async locate(t: LocatableTest): Promise<LocatedTest | null> {
    const named = namedMethod(t);
    if (!named) return null;
    const topLevel = named.className.split('$')[0]!;
    const found: LocatedTest[] = [];
    for (const file of this.byName.get(topLevel) ?? []) {
      const src = await this.scan(file);
      if (!src || src.packageName !== named.packageName) continue;
      const methods = src.methods.filter((m) => m.className === named.className && m.name === named.method);
      // Overloads: the one with a test annotation.
      const method = methods.length === 1 ? methods[0] : methods.find((m) => m.annotations.some((a) => /Test|Property|Theory/.test(a.name)));
      if (!method) continue;
      const digest = methodDigest(fingerprintTokens(src, method));
      found.push({ path: file, className: named.className, packageName: named.packageName, method, digest, fingerprint: identityFingerprint(digest, named.invocation), invocation: named.invocation });
    }
    if (found.length <= 1) return found[0] ?? null;
    // The same class in two modules: the one under the identity's module directory.
    const dir = t.module.split(':').filter(Boolean);
    for (let n = dir.length; n > 0; n--) {
      const prefix = `${dir.slice(0, n).join('/')}/`;
      const under = found.filter((f) => f.path.startsWith(prefix));
      if (under.length === 1) return under[0]!;
    }
    return null;
  }
}

/** The language of a source file by its extension. */
export function languageOf(file: string): SourceLanguage {
  return file.endsWith('.kt') ? 'kotlin' : 'java';
}
