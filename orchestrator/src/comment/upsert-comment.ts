// Posts the run report as ONE comment on the merge request and updates that same comment on
// later runs: the comment is found by a hidden marker. GitHub: the issue comments REST API;
// GitLab: the merge request notes API. Failures are values (a problem sentence), never throws.
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
  const existing = await findMarked(async (page) => {
    const res = await f(`${base}/${t.number}/comments?per_page=100&page=${page}`, { headers, signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) throw new Error(`listing the pull request's comments: HTTP ${res.status}`);
    return (await res.json()) as { id: number; body?: string }[];
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
  const existing = await findMarked(async (page) => {
    const res = await f(`${base}?per_page=100&page=${page}&sort=asc`, { headers, signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) throw new Error(`listing the merge request's notes: HTTP ${res.status}`);
    return (await res.json()) as { id: number; body?: string }[];
  });
  const send = { ...headers, 'Content-Type': 'application/json' };
  const res = existing
    ? await f(`${base}/${existing}`, { method: 'PUT', headers: send, body: JSON.stringify({ body }), signal: AbortSignal.timeout(timeoutMs) })
    : await f(base, { method: 'POST', headers: send, body: JSON.stringify({ body }), signal: AbortSignal.timeout(timeoutMs) });
  if (!res.ok) return { ok: false, problem: `${existing ? 'updating' : 'creating'} the note: HTTP ${res.status}` };
  return { ok: true, action: existing ? 'updated' : 'created', id: ((await res.json()) as { id: number }).id };
}

/** The id of the first comment carrying the marker, reading pages of 100 (at most 20 pages). */
async function findMarked(page: (n: number) => Promise<{ id: number; body?: string }[]>): Promise<number | null> {
  for (let n = 1; n <= 20; n++) {
    const items = await page(n);
    const hit = items.find((c) => typeof c.body === 'string' && c.body.includes(MARKER));
    if (hit) return hit.id;
    if (items.length < 100) return null;
  }
  return null;
}
