// The verdict, answered at request time: which of the identities that just ran have never run
// in CI on the project's default branch, priced, with every guard's signal. It never reads
// the ingestion-time is_new badge.
import type { Account } from '../accounts/accounts.js';
import type { Project } from '../accounts/projects.js';
import { type Candidate, price, type RenamedTest, type VerdictResponse } from '../contract.js';
import { guards } from '../guard/guards.js';
import { rememberedId, type RememberedId, suiteIds, timesForgotten } from '../identity/remembered-ids.js';
import { compareIdentities, type Identity } from '../identity/test-case-id.js';
import { inventorySize, lookUpIds, NO_IDS, type WaitFor } from '../presence/presence.js';
import type { Database } from '../storage/database.js';
import { rejectDuplicates } from '../ingest/duplicates.js';
import type { ParsedVerdictRequest } from '../validation/parse-body.js';
import { findRenames, type KnownBody, knownFingerprints, type Unknown } from './renames.js';

type Posted = Identity & { durationMs: number };

/** The posted test cases as their remembered ids, in order, and the identity at each position (built only for the few that are new). */
interface PostedIds {
  ids: RememberedId[];
  /** Whether an identity was posted twice. */
  repeated: boolean;
  at(i: number): Posted;
  /** The field of position i, for errors. */
  field(i: number): string;
  /** The body fingerprint posted for position i, or null. */
  fingerprint(i: number): string | null;
  /** Whether any position carries a fingerprint (most requests carry none: then nothing more is read). */
  fingerprinted: boolean;
}

/** Numbers the requests, for RememberedId.postedIn. */
let requests = 0;

function postedIds(projectId: string, request: ParsedVerdictRequest): PostedIds {
  const { testCases, suites } = request;
  // An identity posted twice is one RememberedId met twice in this request, unless every
  // remembered id was forgotten meanwhile: then a set of the ids decides.
  const number = ++requests;
  const forgotten = timesForgotten();
  let repeated = false;
  const mark = (entry: RememberedId): RememberedId => {
    if (entry.postedIn === number) repeated = true;
    entry.postedIn = number;
    return entry;
  };
  const result = (ids: RememberedId[], at: (i: number) => Posted, field: (i: number) => string, fingerprint: (i: number) => string | null, fingerprinted: boolean): PostedIds => {
    if (!repeated && timesForgotten() !== forgotten) repeated = new Set(ids.map((e) => e.id)).size !== ids.length;
    return { ids, repeated, at, field, fingerprint, fingerprinted };
  };
  if (!suites) {
    const posted = testCases ?? [];
    return result(
      posted.map((t) => mark(rememberedId(projectId, t.module, t.suite, t.name))),
      (i) => posted[i]!,
      (i) => `testCases[${i}]`,
      (i) => posted[i]!.fingerprint ?? null,
      posted.some((t) => t.fingerprint != null),
    );
  }
  let n = 0;
  for (const s of suites) n += s.names.length;
  const ids: RememberedId[] = new Array(n);
  const suiteAt = new Int32Array(n);
  const testAt = new Int32Array(n);
  let i = 0;
  suites.forEach((s, g) => {
    const idOf = suiteIds(projectId, s.module, s.suite);
    for (let k = 0; k < s.names.length; k++, i++) {
      ids[i] = mark(idOf(s.names[k]!));
      suiteAt[i] = g;
      testAt[i] = k;
    }
  });
  return result(
    ids,
    (j) => {
      const s = suites[suiteAt[j]!]!;
      return { module: s.module, suite: s.suite, name: s.names[testAt[j]!]!, durationMs: s.durationsMs[testAt[j]!]! };
    },
    (j) => `suites[${suiteAt[j]}].${suites[suiteAt[j]!]!.listed}[${testAt[j]}]`,
    (j) => suites[suiteAt[j]!]!.fingerprints?.[testAt[j]!] ?? null,
    suites.some((s) => s.fingerprints?.some((f) => f !== null) ?? false),
  );
}

/**
 * The verdict on the posted identities. `waitFor` wraps its presence query, when it needs one: the
 * route passes its admission place's `during`, so that a verdict waiting for ClickHouse holds no
 * place (admission.ts). Not async itself: the identities that may be new are taken from the request
 * at once, and only they wait for the answer. Fifty verdicts of 1,000 identities each holding its
 * whole request through that wait kept megabytes alive for each young collection to copy.
 *
 * A request with body fingerprints also reads the known identities with those of the would-be
 * candidates (renames.ts), in one query beside the presence lookup, under one wait; a request
 * without any reads nothing more.
 */
export function verdict(db: Database, project: Project, account: Account, request: ParsedVerdictRequest, waitFor?: WaitFor): Promise<VerdictResponse> {
  const { ids, repeated, at, field, fingerprint, fingerprinted } = postedIds(project.projectId, request);
  // A repeated identity is named by rejectDuplicates.
  if (repeated) rejectDuplicates(ids.map((_, i) => at(i)), field);
  const branch = project.defaultBranch;
  const scope = branch === null ? null : { projectId: project.projectId, branch, isCi: true };
  const maybeNew = (i: number): MaybeNew => ({ ...at(i), testCaseId: ids[i]!.id, fingerprint: fingerprint(i) });
  // Without a default branch nothing has run "there": every identity is new, and none is a rename.
  if (scope === null) return answer(project, account, ids.length, ids.map((_, i) => maybeNew(i)), Promise.all([NO_IDS, 0, NO_KNOWN]));
  if (!fingerprinted) {
    const lookup = lookUpIds(db, scope, ids, waitFor);
    return answer(project, account, ids.length, lookup.unknown.map(maybeNew), Promise.all([lookup.present, inventorySize(db, scope), NO_KNOWN]));
  }
  // One wait for both reads (a place is given up once: admission.ts).
  const lookup = lookUpIds(db, scope, ids);
  const maybe = lookup.unknown.map(maybeNew);
  const printed = [...new Set(maybe.flatMap((t) => (t.fingerprint === null ? [] : [t.fingerprint])))];
  const known = printed.length === 0 ? NO_KNOWN : knownFingerprints(db, project.projectId, branch!, printed).then((rows) => knownOf(rows, ids));
  const both = Promise.all([lookup.present, known]);
  return answer(project, account, ids.length, maybe, Promise.all([waitFor ? waitFor(both) : both, inventorySize(db, scope)]).then(([[present, k], n]) => [present, n, k]));
}

/** Known bodies, and which of their identities this request posted (those are no rename's source). */
interface Known {
  rows: readonly KnownBody[];
  posted: ReadonlySet<string>;
}

const NO_KNOWN: Promise<Known> = Promise.resolve({ rows: [], posted: new Set() });

function knownOf(rows: KnownBody[], ids: readonly RememberedId[]): Known {
  const posted = new Set<string>();
  if (rows.length === 0) return { rows, posted };
  const wanted = new Set(rows.map((r) => r.testCaseId));
  for (const e of ids) if (wanted.has(e.id)) posted.add(e.id);
  return { rows, posted };
}

const NO_RENAMES: ReadonlyMap<string, RenamedTest> = new Map();

type MaybeNew = Posted & { testCaseId: string; fingerprint: string | null };

async function answer(project: Project, account: Account, posted: number, maybe: MaybeNew[], read: Promise<[ReadonlySet<string>, number, Known]>): Promise<VerdictResponse> {
  const [present, inventory, known] = await read;
  const branch = project.defaultBranch;
  const renames = known.rows.length === 0 ? NO_RENAMES : findRenames(maybe.filter((t): t is MaybeNew & Unknown => t.fingerprint !== null && !present.has(t.testCaseId)), known.rows, known.posted);
  const candidates: Candidate[] = [];
  for (const t of maybe) {
    if (present.has(t.testCaseId) || renames.has(t.testCaseId)) continue;
    candidates.push({ module: t.module, suite: t.suite, name: t.name, testCaseId: t.testCaseId, durationMs: t.durationMs, ...price(t.durationMs, project.stress.curve) });
  }
  candidates.sort(compareIdentities);
  const renamed = [...renames.values()].sort(compareIdentities);

  return {
    projectId: project.projectId,
    entitled: account.stressGateEntitled,
    defaultBranch: branch,
    parameters: project.stress,
    inventory,
    posted,
    candidates,
    renamed,
    guards: guards({
      defaultBranch: branch,
      inventory,
      newCount: candidates.length,
      stressable: candidates.filter((c) => c.excluded === null).length,
      parameters: project.stress,
    }),
  };
}
