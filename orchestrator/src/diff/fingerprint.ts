// A test's body fingerprint (contract `Fingerprint`): the SHA-256 of its method's tokens (its
// annotations, parameters and body, its own name masked) and of its parameter source or data
// provider's, then of the invocation's part of its name. The same test renamed or moved to another
// class keeps it; a changed line of its own changes it; a comment or a re-indent does not.
import { createHash } from 'node:crypto';
import type { SourceFile, SourceMethod } from './test-methods.js';

/** The methods that feed a test its arguments, in its class (or a Kotlin class's companion). */
export function providersOf(file: SourceFile, test: SourceMethod): SourceMethod[] {
  const inClass = (m: SourceMethod) => m.className === test.className || m.className === `${test.className}$Companion`;
  const named = (name: string) => file.methods.filter((m) => inClass(m) && m.name === name && m !== test);
  const found: SourceMethod[] = [];
  for (const a of test.annotations) {
    const strings = a.args.filter((t) => t.kind === 'lit' && t.text.startsWith('"')).map((t) => unquote(t.text));
    if (a.name === 'MethodSource') {
      // @MethodSource with no name means the method of the test's own name; "Other#m" is another class's.
      const names = strings.length ? strings : [test.name];
      for (const n of names) if (!n.includes('#') && !n.includes('(')) found.push(...named(n));
    } else if (a.name === 'Test' && a.args.some((t) => t.text === 'dataProvider') && !a.args.some((t) => t.text === 'dataProviderClass')) {
      const at = a.args.findIndex((t) => t.text === 'dataProvider');
      const value = a.args.slice(at).find((t) => t.kind === 'lit' && t.text.startsWith('"'));
      if (!value) continue;
      const n = unquote(value.text);
      // TestNG: the @DataProvider named so, else the method of that name.
      const byName = file.methods.filter((m) => inClass(m) && m.annotations.some((x) => x.name === 'DataProvider' && x.args.some((t) => t.kind === 'lit' && unquote(t.text) === n)));
      found.push(...(byName.length ? byName : named(n)));
    }
  }
  // JUnit 4's Parameterized: the class's @Parameters method feeds every test of it.
  for (const m of file.methods) if (m.className === test.className && m !== test && m.annotations.some((a) => a.name === 'Parameters')) found.push(m);
  return [...new Set(found)];
}

function unquote(literal: string): string {
  return literal.replace(/^"+|"+$/g, '');
}

/** The tokens a test's fingerprint covers: its own, then each provider's. */
export function fingerprintTokens(file: SourceFile, test: SourceMethod): string[] {
  const parts = [...test.tokens];
  for (const p of providersOf(file, test)) parts.push('\u0002provider', ...p.tokens);
  return parts;
}

/** The method's part of a fingerprint, hashed once per method. */
export function methodDigest(tokens: readonly string[]): string {
  return createHash('sha256').update(tokens.join('\u0001'), 'utf8').digest('hex');
}

/** An identity's fingerprint: its method's digest and the invocation's part of its name (`[1]`, `(int)[2]`, or ''). */
export function identityFingerprint(digest: string, invocation: string): string {
  return createHash('sha256').update(`${digest}\u0001${invocation}`, 'utf8').digest('hex').slice(0, 32);
}
