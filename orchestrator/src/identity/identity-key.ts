// The key of a test case's identity in a map or a set, shared by the first pass, the candidates
// and the quarantine mask.
import type { TestCaseIdentity } from '#contract';

/** The key of an identity (module, suite, name): length-prefixed, so unambiguous for any strings, and cheaper than JSON for 50,000 of them. */
export function identityKey(id: TestCaseIdentity): string {
  return `${id.module.length}:${id.module}${id.suite.length}:${id.suite}${id.name}`;
}
