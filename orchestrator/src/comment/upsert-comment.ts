// Posts the run report as ONE comment on the merge request and updates that same comment on
// later runs: the comment is found by a hidden marker, among the comments of the token's own user
// only (anyone can write the marker into a comment of theirs; the gate edits none of those).
// GitHub: the issue comments REST API; GitLab: the merge request notes API. Who the token is comes
// from GET /user; GitHub's job token cannot ask, and writes as github-actions[bot]; GitLab's writes
// as the user the pipeline runs as (GITLAB_USER_ID). When who it is cannot be known, a new
// comment is posted rather than another's edited. Failures are values (a
// problem sentence), never throws.
import type { GitHubTarget, GitLabTarget } from './comment-target.js';

/** The hidden marker that identifies the gate's comment. */
export const MARKER = '<!-- stress-gate -->';

/** What happened. */
export type UpsertResult = { ok: true; action: 'created' | 'updated'; id: number } | { ok: false; problem: string };

/** Creates or updates the gate's comment with `markdown` (the marker is added). */
export async function upsertComment(target: GitHubTarget | GitLabTarget, markdown: string, fetchImpl: typeof fetch, timeoutMs = 15_000): Promise<UpsertResult> {
  const body = `${MARKER}\n${markdown}`;
  try {
    return target.kind === 'github' ? await github(target, body, fetchImpl, timeoutMs) : await gitlab(target, body, fetchImpl, timeoutMs);
  } catch (e) {
    return { ok: false, problem: (e as Error).message };
  }
}

async function github(t: GitHubTarget, body: string, f: typeof fetch, timeoutMs: number): Promise<UpsertResult> {
  const headers = {
    Accept: 'application/vnd.github+json',
    Authorization: `Bearer ${t.token}`,
    'X-GitHub-Api-Version': '2022-11-28',
    'User-Agent': 'stress-gate',
  };
  const base = `${t.apiUrl}/repos/${t.repository}/issues`;
  const me = await whoAmI(f, `${t.apiUrl}/user`, headers, timeoutMs, (u: { login?: unknown }) => (typeof u.login === 'string' ? u.login : null));
  // The Actions job token is an app installation's: it cannot read /user, and writes as this bot.
  const login = me ?? (t.inActions ? GITHUB_ACTIONS_BOT : null);
  const existing = await findMarked(async (page) => {
    const res = await f(`${base}/${t.number}/comments?per_page=100&page=${page}`, { headers, signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) throw new Error(`listing the pull request's comments: HTTP ${res.status}`);
    return ((await res.json()) as { id: number; body?: string; user?: { login?: string } | null }[]).map((c) => ({ ...c, mine: login !== null && c.user?.login === login }));
  });
  const send = { ...headers, 'Content-Type': 'application/json' };
  const res = existing
    ? await f(`${base}/comments/${existing}`, { method: 'PATCH', headers: send, body: JSON.stringify({ body }), signal: AbortSignal.timeout(timeoutMs) })
    : await f(`${base}/${t.number}/comments`, { method: 'POST', headers: send, body: JSON.stringify({ body }), signal: AbortSignal.timeout(timeoutMs) });
  if (!res.ok) return { ok: false, problem: `${existing ? 'updating' : 'creating'} the comment: HTTP ${res.status}` };
  return { ok: true, action: existing ? 'updated' : 'created', id: ((await res.json()) as { id: number }).id };
}

async function gitlab(t: GitLabTarget, body: string, f: typeof fetch, timeoutMs: number): Promise<UpsertResult> {
  const headers = { [t.header]: t.token };
  const base = `${t.apiUrl}/projects/${encodeURIComponent(t.projectId)}/merge_requests/${t.iid}/notes`;
  // A job token cannot ask; it writes as the user the pipeline runs as.
  const me = (await whoAmI(f, `${t.apiUrl}/user`, headers, timeoutMs, (u: { id?: unknown }) => (typeof u.id === 'number' ? u.id : null))) ?? (t.header === 'JOB-TOKEN' ? t.pipelineUserId : null);
  const existing = await findMarked(async (page) => {
    const res = await f(`${base}?per_page=100&page=${page}&sort=asc`, { headers, signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) throw new Error(`listing the merge request's notes: HTTP ${res.status}`);
    return ((await res.json()) as { id: number; body?: string; author?: { id?: number } | null }[]).map((c) => ({ ...c, mine: me !== null && c.author?.id === me }));
  });
  const send = { ...headers, 'Content-Type': 'application/json' };
  const res = existing
    ? await f(`${base}/${existing}`, { method: 'PUT', headers: send, body: JSON.stringify({ body }), signal: AbortSignal.timeout(timeoutMs) })
    : await f(base, { method: 'POST', headers: send, body: JSON.stringify({ body }), signal: AbortSignal.timeout(timeoutMs) });
  if (!res.ok) return { ok: false, problem: `${existing ? 'updating' : 'creating'} the note: HTTP ${res.status}` };
  return { ok: true, action: existing ? 'updated' : 'created', id: ((await res.json()) as { id: number }).id };
}

/** The login GitHub's Actions job token writes comments as. */
export const GITHUB_ACTIONS_BOT = 'github-actions[bot]';

/** Who the token is (GET /user), or null when the forge does not say. */
async function whoAmI<T>(f: typeof fetch, url: string, headers: Record<string, string>, timeoutMs: number, pick: (user: never) => T | null): Promise<T | null> {
  try {
    const res = await f(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
    return res.ok ? pick((await res.json()) as never) : null;
  } catch {
    return null;
  }
}

/** The id of the first comment of the token's own user carrying the marker, reading pages of 100 (at most 20 pages). */
async function findMarked(page: (n: number) => Promise<{ id: number; body?: string; mine: boolean }[]>): Promise<number | null> {
  for (let n = 1; n <= 20; n++) {
    const items = await page(n);
    const hit = items.find((c) => c.mine && typeof c.body === 'string' && c.body.includes(MARKER));
    if (hit) return hit.id;
    if (items.length < 100) return null;
  }
  return null;
}
