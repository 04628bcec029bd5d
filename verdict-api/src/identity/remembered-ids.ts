// The server's memory of the test case ids it computed (test-case-id.ts holds the pure function the
// CLI shares): every run posts its suite's identities again, and a remembered id spares a SHA-1
// each, the verdict's largest cost after parsing. The memory is this process's own and bounded;
// the verdict keeps two slots on each remembered id.
import { type Identity, testCaseIdOf } from './test-case-id.js';

/** testCaseId (test-case-id.ts), remembered: what the server's ingestion and quarantine compute again and again. */
export function rememberedTestCaseId(projectId: string, identity: Identity): string {
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
  const entry: RememberedId = { id: testCaseIdOf(projectId, module, suite, name), knownIn: null, postedIn: 0 };
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
