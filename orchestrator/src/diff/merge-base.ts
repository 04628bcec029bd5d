// The merge request's merge base: the commit its diff is taken from. The base branch comes from
// STRESS_GATE_BASE_REF, else the CI service's merge-request variables, else the project's default
// branch. A shallow clone without it fetches more history when allowed, and otherwise says why
// the diff cannot be had: the gate never guesses what a merge request changed.

/** git's answer to one command. */
export interface GitResult {
  ok: boolean;
  stdout: string;
  stderr: string;
}

/** Runs `git <args>` in the project directory. */
export type GitExec = (args: readonly string[]) => Promise<GitResult>;

/** The merge base found, or why not (`quiet`: nothing to warn about, e.g. a run of the default branch itself). */
export type MergeBase = { ok: true; base: string; ref: string; from: string; fetched: boolean } | { ok: false; why: string; quiet?: boolean; noBase?: boolean };

/** Where the base may come from besides the environment. */
export interface BaseContext {
  /** The branch this run is on (the upload's), or null. */
  headBranch: string | null;
  /** The project's default branch as the verdict says, or null. */
  defaultBranch: string | null;
  /** Fetch history from the remote when the merge base is not in the checkout (STRESS_GATE_FETCH_MERGE_BASE, default on). */
  allowFetch: boolean;
}

/** The base branch (or commit) a CI service names for a merge request, and which variable said so. */
export function baseFromEnv(env: NodeJS.ProcessEnv): { ref: string; isCommit: boolean; from: string } | null {
  const pick = (key: string, isCommit = false, strip?: RegExp) => {
    const value = env[key]?.trim();
    return value ? { ref: strip ? value.replace(strip, '') : value, isCommit, from: key } : null;
  };
  return (
    pick('STRESS_GATE_BASE_REF') ??
    pick('CI_MERGE_REQUEST_DIFF_BASE_SHA', true) ??
    pick('CI_MERGE_REQUEST_TARGET_BRANCH_NAME') ??
    (env['GITHUB_EVENT_NAME']?.startsWith('pull_request') ? pick('GITHUB_BASE_REF') : null) ??
    pick('BITBUCKET_PR_DESTINATION_BRANCH') ??
    pick('SYSTEM_PULLREQUEST_TARGETBRANCH', false, /^refs\/heads\//) ??
    pick('CHANGE_TARGET')
  );
}

/** Finds the merge base of HEAD and the base branch. */
export async function findMergeBase(git: GitExec, env: NodeJS.ProcessEnv, ctx: BaseContext): Promise<MergeBase> {
  const inRepo = await git(['rev-parse', '--is-inside-work-tree']);
  if (!inRepo.ok) return { ok: false, why: 'the project is not in a git checkout' };
  const named = baseFromEnv(env) ?? (ctx.defaultBranch ? { ref: ctx.defaultBranch, isCommit: false, from: "the project's default branch" } : await originHead(git));
  if (!named) return { ok: false, noBase: true, why: 'no base branch is known: the project has no default branch, and no merge-request variable, STRESS_GATE_BASE_REF or origin/HEAD names one' };
  if (!named.isCommit && named.from !== 'STRESS_GATE_BASE_REF' && ctx.headBranch === named.ref) {
    return { ok: false, why: `this run is on the base branch ${named.ref} itself: there is no merge request to compare`, quiet: true };
  }
  const remote = await remoteName(git);
  let fetched = false;
  let baseCommit = await resolveCommit(git, named.ref, remote);
  if (!baseCommit && ctx.allowFetch && remote && !named.isCommit) {
    const r = await git(['fetch', '--no-tags', '--quiet', ...((await isShallow(git)) ? ['--depth=50'] : []), remote, `+refs/heads/${named.ref}:refs/remotes/${remote}/${named.ref}`]);
    if (!r.ok) return { ok: false, why: `the base branch ${named.ref} is not in this checkout, and fetching it from ${remote} failed: ${firstLine(r.stderr)}` };
    fetched = true;
    baseCommit = await resolveCommit(git, named.ref, remote);
  }
  if (!baseCommit) {
    const shallow = (await isShallow(git)) ? ' (a shallow clone)' : '';
    const how = ctx.allowFetch ? (remote ? '' : ', which has no remote to fetch it from') : `; fetch it (e.g. actions/checkout with fetch-depth: 0, GIT_DEPTH: 0 on GitLab), or let the gate fetch it (STRESS_GATE_FETCH_MERGE_BASE=1)`;
    return { ok: false, why: `the base ${named.ref} (from ${named.from}) is not in this checkout${shallow}${how}` };
  }
  let base = await mergeBaseOf(git, baseCommit);
  if (!base && (await isShallow(git))) {
    if (!ctx.allowFetch || !remote) {
      return {
        ok: false,
        why:
          `the checkout is a shallow clone and the merge base with ${named.ref} is not in it. ` +
          'Fetch the history (e.g. actions/checkout with fetch-depth: 0, GIT_DEPTH: 0 on GitLab), or let the gate fetch it (STRESS_GATE_FETCH_MERGE_BASE=1)',
      };
    }
    // Deeper and deeper, then the whole history: the merge base of a long-lived branch may be far back.
    const heads = [...new Set([named.isCommit ? null : named.ref, ctx.headBranch].filter((b): b is string => Boolean(b) && b !== 'unknown'))];
    for (const step of [['--deepen=100'], ['--deepen=1000'], ['--unshallow']]) {
      const r = await git(['fetch', '--no-tags', '--quiet', ...step, remote, ...heads.map((b) => `+refs/heads/${b}:refs/remotes/${remote}/${b}`)]);
      if (!r.ok) return { ok: false, why: `the checkout is a shallow clone without the merge base with ${named.ref}, and fetching more history from ${remote} failed: ${firstLine(r.stderr)}` };
      fetched = true;
      base = await mergeBaseOf(git, baseCommit);
      if (base || !(await isShallow(git))) break;
    }
  }
  if (!base) return { ok: false, why: `HEAD and ${named.ref} have no common history (no merge base)` };
  return { ok: true, base, ref: named.ref, from: named.from, fetched };
}

/** The remote's default branch as the clone recorded it (refs/remotes/origin/HEAD), if it did. */
async function originHead(git: GitExec): Promise<{ ref: string; isCommit: false; from: string } | null> {
  const r = await git(['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD']);
  const ref = r.ok ? r.stdout.trim().replace(/^refs\/remotes\/origin\//, '') : '';
  return ref ? { ref, isCommit: false, from: 'origin/HEAD' } : null;
}

async function remoteName(git: GitExec): Promise<string | null> {
  const r = await git(['remote']);
  const remotes = r.ok ? r.stdout.split('\n').map((s) => s.trim()).filter(Boolean) : [];
  return remotes.includes('origin') ? 'origin' : (remotes[0] ?? null);
}

async function resolveCommit(git: GitExec, ref: string, remote: string | null): Promise<string | null> {
  const tries = [...(remote ? [`refs/remotes/${remote}/${ref}`] : []), `refs/heads/${ref}`, ref];
  for (const t of tries) {
    const r = await git(['rev-parse', '--verify', '--quiet', `${t}^{commit}`]);
    if (r.ok && r.stdout.trim()) return r.stdout.trim();
  }
  return null;
}

async function mergeBaseOf(git: GitExec, commit: string): Promise<string | null> {
  const r = await git(['merge-base', commit, 'HEAD']);
  return r.ok && r.stdout.trim() ? r.stdout.trim() : null;
}

async function isShallow(git: GitExec): Promise<boolean> {
  const r = await git(['rev-parse', '--is-shallow-repository']);
  return r.ok && r.stdout.trim() === 'true';
}

function firstLine(text: string): string {
  return text.split('\n').map((l) => l.trim()).find(Boolean)?.slice(0, 300) ?? 'no message';
}
