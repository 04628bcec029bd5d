// What the merge request did to the tests that ran: for each test in a file its diff touched,
// whether the diff added its method, modified it (its own tokens or its provider's changed since
// the merge base) or left it alone, and for an added one, whether it is a method the diff removed
// elsewhere under another name with the same body (a rename or a move).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { identityKey } from '../identity/identity-key.js';
import { fingerprintTokens, methodDigest } from './fingerprint.js';
import { findMergeBase, type BaseContext, type GitExec } from './merge-base.js';
import { languageOf, SourceIndex, type LocatableTest, type LocatedTest } from './source-index.js';
import { scanSource } from './test-methods.js';

/** What the diff did to one test. */
export interface TestChange {
  change: 'added' | 'modified' | 'unchanged';
  /** An added test whose body is that of a method the diff removed: the old identity's suite and name. */
  renamedFrom?: { suite: string; name: string };
}

/** The diff analysis of one run. */
export interface DiffAnalysis {
  status: 'analysed' | 'skipped';
  /** Why it was skipped; `quiet` when that is expected (a run of the default branch). */
  why: string | null;
  quiet: boolean;
  /** The merge base's commit and the base it was taken against. */
  base: string | null;
  ref: string | null;
  /** What named the base (STRESS_GATE_BASE_REF, a CI variable, origin/HEAD, the project's default branch). */
  from: string | null;
  /** No base branch was known (the verdict's default branch may name one). */
  noBase: boolean;
  /** Whether history was fetched to find the merge base. */
  fetched: boolean;
  /** Tests in touched files, by identity key (identity-key.ts). */
  tests: Map<string, { located: LocatedTest; change: TestChange }>;
}

/** The project's source files as git knows them (tracked and untracked, not ignored); null outside a git checkout. */
export async function openSourceIndex(git: GitExec, projectDir: string): Promise<SourceIndex | null> {
  const r = await git(['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', '*.java', '*.kt']);
  if (!r.ok) return null;
  const files = [...new Set(r.stdout.split('\0').filter(Boolean))];
  return new SourceIndex(files, (f) => readFile(path.join(projectDir, f), 'utf8').catch(() => null));
}

/** The merge request's diff before any test is looked at: what can be had while the build runs. */
export type RepositoryDiff =
  | { ok: false; analysis: DiffAnalysis }
  | {
      ok: true;
      base: string;
      ref: string;
      from: string;
      fetched: boolean;
      /** Touched files as they are now. */
      newSide: ReadonlySet<string>;
      /** The merge base's methods in the touched files: digests by class and name, and names by digest. */
      before: ReadonlyMap<string, ReadonlySet<string>>;
      byDigest: ReadonlyMap<string, readonly string[]>;
      /** Every method the touched files hold now: a method of the merge base still here was not moved away. */
      now: ReadonlySet<string>;
    };

/** A skipped analysis and why. */
export function skippedAnalysis(why: string, quiet = false, noBase = false): DiffAnalysis {
  return { status: 'skipped', why, quiet, base: null, ref: null, from: null, noBase, fetched: false, tests: new Map() };
}

/** Finds the merge base and reads the touched files on both sides. */
export async function repositoryDiff(git: GitExec, index: SourceIndex | null, env: NodeJS.ProcessEnv, ctx: BaseContext): Promise<RepositoryDiff> {
  const skipped = (why: string, quiet = false, noBase = false): RepositoryDiff => ({ ok: false, analysis: skippedAnalysis(why, quiet, noBase) });
  if (!index) return skipped('the project is not in a git checkout');
  const mb = await findMergeBase(git, env, ctx);
  if (!mb.ok) return skipped(mb.why, mb.quiet === true, mb.noBase === true);
  const diff = await git(['-c', 'core.quotePath=false', 'diff', '--name-status', '-z', '--no-renames', '--relative', mb.base, '--', '*.java', '*.kt']);
  if (!diff.ok) return skipped(`git diff against the merge base failed: ${diff.stderr.trim().split('\n')[0] ?? ''}`);
  const fields = diff.stdout.split('\0');
  const newSide = new Set<string>();
  const oldSide: string[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const status = fields[i]!.trim();
    const file = fields[i + 1]!;
    if (status !== 'D') newSide.add(file);
    if (status !== 'A') oldSide.push(file);
  }
  const before = new Map<string, Set<string>>();
  const byDigest = new Map<string, string[]>();
  for (const file of oldSide) {
    const shown = await git(['show', `${mb.base}:./${file}`]);
    if (!shown.ok) continue;
    const src = scanSource(shown.stdout, languageOf(file));
    for (const m of src.methods) {
      const key = methodKey(src.packageName, m.className, m.name);
      const digest = methodDigest(fingerprintTokens(src, m));
      (before.get(key) ?? before.set(key, new Set()).get(key)!).add(digest);
      (byDigest.get(digest) ?? byDigest.set(digest, []).get(digest)!).push(key);
    }
  }
  const now = new Set<string>();
  for (const file of newSide) {
    const src = await index.scan(file);
    for (const m of src?.methods ?? []) now.add(methodKey(src!.packageName, m.className, m.name));
  }
  return { ok: true, base: mb.base, ref: mb.ref, from: mb.from, fetched: mb.fetched, newSide, before, byDigest, now };
}

/** What the diff did to each test that ran and lies in a touched file. */
export async function classifyTests(tests: readonly LocatableTest[], repo: RepositoryDiff, index: SourceIndex): Promise<DiffAnalysis> {
  if (!repo.ok) return repo.analysis;
  const result = new Map<string, { located: LocatedTest; change: TestChange }>();
  for (const t of tests) {
    // Only a test whose class may be in a touched file is read: the rest of the suite is not.
    if (!index.filesFor(t).some((f) => repo.newSide.has(f))) continue;
    const located = await index.locate(t);
    if (!located || !repo.newSide.has(located.path)) continue;
    const key = methodKey(located.packageName, located.className, located.method.name);
    const old = repo.before.get(key);
    let change: TestChange;
    if (old) change = { change: old.has(located.digest) ? 'unchanged' : 'modified' };
    else {
      const gone = (repo.byDigest.get(located.digest) ?? []).filter((k) => !repo.now.has(k)).sort();
      // The old identity is named as this one is, its method's name swapped (`answers` or `adds[1]`).
      const rest = t.name.startsWith(located.method.name) ? t.name.slice(located.method.name.length) : '';
      change = gone.length ? { change: 'added', renamedFrom: fromKey(gone[0]!, rest) } : { change: 'added' };
    }
    result.set(identityKey(t), { located, change });
  }
  return { status: 'analysed', why: null, quiet: false, base: repo.base, ref: repo.ref, from: repo.from, noBase: false, fetched: repo.fetched, tests: result };
}

function methodKey(packageName: string, className: string, method: string): string {
  return `${packageName ? `${packageName}.` : ''}${className}#${method}`;
}

function fromKey(key: string, invocation: string): { suite: string; name: string } {
  const hash = key.lastIndexOf('#');
  return { suite: key.slice(0, hash), name: `${key.slice(hash + 1)}${invocation}` };
}
