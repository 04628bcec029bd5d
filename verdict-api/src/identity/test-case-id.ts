// The one function that turns a test's identity into its test_case_id: pure, no state. The
// orchestrator imports it as `#identity` (its build copies the compiled module), so client and
// server agree. The server remembers ids it computed in remembered-ids.ts, which the CLI never gets.
import { createHash } from 'node:crypto';

/** Namespace of the name-based (version 5) UUIDs below; fixed forever, or every id changes. */
export const TEST_CASE_NAMESPACE = '5c1f7b1e-3d52-4b8e-9c1a-6f0e2d9a4b73';

const NAMESPACE_BYTES = Buffer.from(TEST_CASE_NAMESPACE.replaceAll('-', ''), 'hex');

export interface Identity {
  module: string;
  suite: string;
  name: string;
}

/**
 * A deterministic RFC 4122 version 5 UUID of (project, module, suite, name). The parts are
 * joined with NUL, which no part can contain unnoticed, so ("a", "b.c") and ("a.b", "c") differ.
 */
export function testCaseId(projectId: string, identity: Identity): string {
  return testCaseIdOf(projectId, identity.module, identity.suite, identity.name);
}

/** testCaseId of the identity's parts. */
export function testCaseIdOf(projectId: string, module: string, suite: string, name: string): string {
  const key = [projectId, module, suite, name].map((p) => `${p.length}:${p}`).join('\u0000');
  const hash = createHash('sha1').update(NAMESPACE_BYTES).update(key, 'utf8').digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** Orders identities by (module, suite, name), code point by code point, as the cap requires. */
export function compareIdentities(a: Identity, b: Identity): number {
  return cmp(a.module, b.module) || cmp(a.suite, b.suite) || cmp(a.name, b.name);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
