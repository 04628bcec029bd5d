// The merge-request comment against a loopback server that plays GitHub's issue comments API
// and GitLab's merge request notes API, checking the exact requests those APIs take.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { commentTarget } from './comment-target.js';
import { postRunComment } from './post-run-comment.js';
import { MARKER, upsertComment } from './upsert-comment.js';

interface Seen { method: string; url: string; headers: IncomingHttpHeaders; body: string }
let server: Server;
let base: string;
const seen: Seen[] = [];
let comments: { id: number; body: string; user?: { login: string }; author?: { id: number } }[] = [];
let failNext = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const reply = (status: number, json: unknown) => res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(json));
      if (failNext > 0) return failNext--, reply(500, { message: 'boom' });
      const url = new URL(req.url!, 'http://x');
      if (url.pathname.endsWith('/report.md')) return res.writeHead(200, { 'Content-Type': 'text/markdown' }).end('## Test run `r1`\n');
      // Job tokens cannot say who they are.
      if (url.pathname.endsWith('/user')) return reply(403, { message: 'Resource not accessible by integration' });
      if (req.method === 'GET') return reply(200, comments);
      const text = (JSON.parse(body) as { body: string }).body;
      if (req.method === 'POST') {
        // As the job tokens write: GitHub's as github-actions[bot], GitLab's as the pipeline's user.
        const c = url.pathname.includes('/merge_requests/') ? { id: 100 + comments.length, body: text, author: { id: 31 } } : { id: 100 + comments.length, body: text, user: { login: 'github-actions[bot]' } };
        comments.push(c);
        return reply(201, c);
      }
      const id = Number(url.pathname.split('/').pop());
      const c = comments.find((x) => x.id === id)!;
      c.body = text;
      return reply(200, c);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const reset = () => {
  seen.length = 0;
  failNext = 0;
  comments = [{ id: 7, body: 'a human comment' }];
};

describe('GitHub issue comments', () => {
  const env = { GITHUB_ACTIONS: 'true', GITHUB_TOKEN: 'ghs_x', GITHUB_REPOSITORY: 'acme/shop', GITHUB_REF: 'refs/pull/42/merge', GITHUB_API_URL: '' };
  it('creates one comment, then updates that same comment (found by its marker)', async () => {
    reset();
    const target = commentTarget({ ...env, GITHUB_API_URL: base }, () => '');
    expect(target.ok).toBe(true);
    if (!target.ok) return;
    expect(await upsertComment(target.target, 'first', fetch)).toEqual({ ok: true, action: 'created', id: 101 });
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(['GET /user', 'GET /repos/acme/shop/issues/42/comments?per_page=100&page=1', 'POST /repos/acme/shop/issues/42/comments']);
    seen.shift();
    expect(seen[1]!.headers).toMatchObject({ authorization: 'Bearer ghs_x', accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28', 'content-type': 'application/json' });
    expect(JSON.parse(seen[1]!.body)).toEqual({ body: `${MARKER}\nfirst` });
    seen.length = 0;
    expect(await upsertComment(target.target, 'second', fetch)).toEqual({ ok: true, action: 'updated', id: 101 });
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(['GET /user', 'GET /repos/acme/shop/issues/42/comments?per_page=100&page=1', 'PATCH /repos/acme/shop/issues/comments/101']);
    expect(comments).toHaveLength(2);
  });

  it('reads the pull request number from the event file', () => {
    const t = commentTarget({ GITHUB_ACTIONS: 'true', GITHUB_TOKEN: 't', GITHUB_REPOSITORY: 'a/b', GITHUB_EVENT_PATH: '/e.json' }, () => JSON.stringify({ pull_request: { number: 9 } }));
    expect(t).toMatchObject({ ok: true, target: { number: 9, apiUrl: 'https://api.github.com' } });
    expect(commentTarget({ GITHUB_ACTIONS: 'true', GITHUB_TOKEN: 't', GITHUB_REPOSITORY: 'a/b', GITHUB_REF: 'refs/heads/main' }, () => '')).toMatchObject({ ok: false });
  });

  it('posts the server report plus the run page, and a failure is a warning value', async () => {
    reset();
    const input = { env: { ...env, GITHUB_API_URL: base }, serverUrl: base, project: 'shop', token: 'sg_t', runId: 'r1', runPage: `${base}/projects/shop/runs/r1`, fallback: '' };
    expect(await postRunComment(input)).toBeNull();
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/api/v1/projects/shop/runs/r1/report.md' });
    expect(seen[0]!.headers.authorization).toBe('Bearer sg_t');
    expect(comments[1]!.body).toBe(`${MARKER}\n## Test run \`r1\`\n\n\n[The run page in the dashboard](${base}/projects/shop/runs/r1)\n`);
    failNext = 3;
    expect(await postRunComment(input)).toMatch(/not posted: .*HTTP 500/);
  });
});

describe('GitLab merge request notes', () => {
  it('creates one note with the job token, then updates it with PUT', async () => {
    reset();
    const env = { GITLAB_CI: 'true', CI_API_V4_URL: `${base}/api/v4`, CI_PROJECT_ID: '17', CI_MERGE_REQUEST_IID: '5', CI_JOB_TOKEN: 'job-x', GITLAB_USER_ID: '31' };
    const target = commentTarget(env, () => '');
    if (!target.ok) throw new Error(target.problem);
    expect(await upsertComment(target.target, 'one', fetch)).toMatchObject({ ok: true, action: 'created' });
    expect(await upsertComment(target.target, 'two', fetch)).toMatchObject({ ok: true, action: 'updated' });
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      'GET /api/v4/user',
      'GET /api/v4/projects/17/merge_requests/5/notes?per_page=100&page=1&sort=asc',
      'POST /api/v4/projects/17/merge_requests/5/notes',
      'GET /api/v4/user',
      'GET /api/v4/projects/17/merge_requests/5/notes?per_page=100&page=1&sort=asc',
      'PUT /api/v4/projects/17/merge_requests/5/notes/101',
    ]);
    expect(seen[2]!.headers['job-token']).toBe('job-x');
    expect(JSON.parse(seen[5]!.body)).toEqual({ body: `${MARKER}\ntwo` });
    const personal = commentTarget({ ...env, GITLAB_TOKEN: 'glpat' }, () => '');
    expect(personal).toMatchObject({ ok: true, target: { header: 'PRIVATE-TOKEN', token: 'glpat' } });
    expect(commentTarget({ ...env, CI_MERGE_REQUEST_IID: '' }, () => '')).toMatchObject({ ok: false });
  });
});
