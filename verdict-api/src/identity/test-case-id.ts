// The one function that turns a test's identity into its test_case_id. The orchestrator
// imports it as `#identity` (its build copies the compiled module), so client and server agree.
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
  return rememberedId(projectId, identity.module, identity.suite, identity.name).id;
}

/**
 * A test case's id as this process remembers it, with two slots the verdict keeps on it (neither
 * changes the id): the verdict finds an identity's id by one lookup of its name, and the slots
 * spare it two more per identity, into the scope's known ids and into a set of the request's ids.
 */
export interface RememberedId {
  readonly id: string;
  /** The token of a presence scope's known ids (read-cache.ts) that hold this id, or null. */
  knownIn: object | null;
  /** The number of the last verdict request that posted it (verdict.ts), to find repeats. */
  postedIn: number;
}

/**
 * testCaseId, remembered. A suite's identities are posted again by every run: remembering them
 * spares a SHA-1 each (the verdict's largest cost after parsing). Nested by part, so a lookup
 * hashes the parts as they arrived rather than building a key. Pure, so forgetting them all at
 * once is safe.
 */
export function rememberedId(projectId: string, module: string, suite: string, name: string): RememberedId {
  let names = remembered.get(projectId)?.get(module)?.get(suite);
  const known = names?.get(name);
  if (known !== undefined) return known;
  const key = [projectId, module, suite, name].map((p) => `${p.length}:${p}`).join('\u0000');
  const hash = createHash('sha1').update(NAMESPACE_BYTES).update(key, 'utf8').digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  const entry: RememberedId = { id: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`, knownIn: null, postedIn: 0 };
  if (rememberedCount >= REMEMBERED_IDS || rememberedBytes >= REMEMBERED_BYTES) {
    remembered.clear();
    rememberedCount = 0;
    rememberedBytes = 0;
    forgotten++;
    names = undefined;
  }
  if (!names) {
    let modules = remembered.get(projectId);
    if (!modules) remembered.set(projectId, (modules = new Map()));
    let suites = modules.get(module);
    if (!suites) {
      modules.set(module, (suites = new Map()));
      rememberedBytes += stringBytes(module) + MAP_BYTES;
    }
    names = suites.get(suite);
    if (!names) {
      suites.set(suite, (names = new Map()));
      rememberedBytes += stringBytes(suite) + MAP_BYTES;
    }
  }
  names.set(name, entry);
  rememberedCount++;
  rememberedBytes += stringBytes(name) + ENTRY_BYTES;
  return entry;
}

/**
 * rememberedId for the names of one suite: the suite's remembered ids are found once, not per
 * name (a grouped verdict request gives each suite once).
 */
export function suiteIds(projectId: string, module: string, suite: string): (name: string) => RememberedId {
  let names = remembered.get(projectId)?.get(module)?.get(suite);
  return (name) => {
    const known = names?.get(name);
    if (known !== undefined) return known;
    const entry = rememberedId(projectId, module, suite, name);
    names = remembered.get(projectId)?.get(module)?.get(suite);
    return entry;
  };
}

/**
 * How many times every remembered id was forgotten (at REMEMBERED_IDS). Two lookups of one
 * identity give the same RememberedId unless this moved between them.
 */
export const timesForgotten = (): number => forgotten;

/** Identities whose id is remembered at most. */
export const REMEMBERED_IDS = 200_000;
/**
 * What the remembered ids may weigh, names included: 64 MiB. Bounded by count alone, 200,000
 * identities with the longest names the contract allows held 2-3.9 GB; with usual names (a
 * hundred characters or so) the count binds first.
 */
export const REMEMBERED_BYTES = 64 * 1024 * 1024;
/** About what V8 spends on a remembered id besides its name: the entry object, its id string, the map slot. */
const ENTRY_BYTES = 160;
/** About what an empty Map and its slot in the parent cost. */
const MAP_BYTES = 200;
/** A string's heap size, counted as two bytes a character (V8 stores some in one). */
const stringBytes = (s: string) => 2 * s.length + 24;
const remembered = new Map<string, Map<string, Map<string, Map<string, RememberedId>>>>();
let rememberedCount = 0;
let rememberedBytes = 0;
let forgotten = 0;

/** Orders identities by (module, suite, name), code point by code point, as the cap requires. */
export function compareIdentities(a: Identity, b: Identity): number {
  return cmp(a.module, b.module) || cmp(a.suite, b.suite) || cmp(a.name, b.name);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
