// Attack test (issue 31): the gate's merge-request comment is found by a marker in its body, and
// anyone can write a comment holding the marker. The CLI must edit only a comment of its own.
// Against real HTTP servers on loopback that answer as GitHub's and GitLab's APIs do.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { postRunComment } from '../../src/comment/post-run-comment.js';

interface Comment { id: number; body: string; user?: { login: string; type?: string }; author?: { id: number; username: string } }
interface ForgeApi {
  url: string;
  comments: Comment[];
  /** Every write: method, comment id (or null for a new one). */
  writes: { method: string; id: number | null }[];
  close(): Promise<void>;
}

const readJson = (req: IncomingMessage) => new Promise<any>((resolve) => {
  let text = '';
  req.on('data', (c: Buffer) => (text += c.toString()));
  req.on('end', () => resolve(text ? JSON.parse(text) : null));
});

/** A forge API on loopback: GitHub's issue comments or GitLab's merge request notes, and who the token is. */
async function startForge(kind: 'github' | 'gitlab', me: { login: string; id: number } | null, comments: Comment[]): Promise<ForgeApi> {
  const writes: ForgeApi['writes'] = [];
  let next = 100;
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url!, 'http://x');
    const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method === 'GET' && /\/user$/.test(url.pathname)) return me ? send(200, kind === 'github' ? { login: me.login } : { id: me.id, username: me.login }) : send(403, { message: 'Resource not accessible by integration' });
    const list = kind === 'github' ? /\/repos\/o\/r\/issues\/7\/comments$/ : /\/projects\/42\/merge_requests\/7\/notes$/;
    const one = kind === 'github' ? /\/repos\/o\/r\/issues\/comments\/(\d+)$/ : /\/projects\/42\/merge_requests\/7\/notes\/(\d+)$/;
    if (req.method === 'GET' && list.test(url.pathname)) return send(200, url.searchParams.get('page') === '1' ? comments : []);
    if (req.method === 'POST' && list.test(url.pathname)) {
      const body = await readJson(req);
      const c: Comment = { id: next++, body: body.body, ...(kind === 'github' ? { user: { login: me?.login ?? 'github-actions[bot]' } } : { author: { id: me?.id ?? 0, username: me?.login ?? '' } }) };
      comments.push(c);
      writes.push({ method: 'POST', id: null });
      return send(201, c);
    }
    const m = one.exec(url.pathname);
    if (m && (req.method === 'PATCH' || req.method === 'PUT')) {
      const body = await readJson(req);
      const c = comments.find((x) => x.id === Number(m[1]))!;
      c.body = body.body;
      writes.push({ method: req.method, id: c.id });
      return send(200, c);
    }
    send(404, { message: 'not found' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, comments, writes, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const MARKED = '<!-- stress-gate -->\nStress gate: passed';
const githubEnv = (api: string) => ({ GITHUB_ACTIONS: 'true', GITHUB_TOKEN: 'ghs_job-token', GITHUB_REPOSITORY: 'o/r', GITHUB_REF: 'refs/pull/7/merge', GITHUB_API_URL: api });
const gitlabEnv = (api: string) => ({ GITLAB_CI: 'true', CI_API_V4_URL: api, CI_PROJECT_ID: '42', CI_MERGE_REQUEST_IID: '7', GITLAB_TOKEN: 'glpat-bot-token' });
const post = (env: NodeJS.ProcessEnv) => postRunComment({ env, serverUrl: undefined, project: undefined, token: undefined, runId: 'r1', runPage: null, fallback: 'the gate report' });

describe("the merge-request comment edits only the CLI's own", () => {
  let forges: ForgeApi[] = [];
  afterAll(async () => {
    for (const f of forges) await f.close();
  });
  const forge = async (...args: Parameters<typeof startForge>) => {
    const f = await startForge(...args);
    forges.push(f);
    return f;
  };
  beforeAll(() => {
    forges = [];
  });

  it("GitHub: leaves another author's comment holding the marker alone, and posts its own", async () => {
    const gh = await forge('github', { login: 'stress-bot', id: 1 }, [{ id: 1, user: { login: 'mallory' }, body: `${MARKED}\n(planted by mallory)` }]);
    expect(await post(githubEnv(gh.url))).toBeNull();
    expect(gh.writes).toEqual([{ method: 'POST', id: null }]);
    expect(gh.comments[0]!.body).toContain('planted by mallory');
  });

  it("GitHub: updates its own marked comment, not an earlier one of someone else's", async () => {
    const gh = await forge('github', { login: 'stress-bot', id: 1 }, [
      { id: 1, user: { login: 'mallory' }, body: MARKED },
      { id: 2, user: { login: 'stress-bot' }, body: MARKED },
    ]);
    expect(await post(githubEnv(gh.url))).toBeNull();
    expect(gh.writes).toEqual([{ method: 'PATCH', id: 2 }]);
  });

  it('GitHub with the job token (no /user): its comments are github-actions[bot]\'s', async () => {
    const gh = await forge('github', null, [
      { id: 1, user: { login: 'mallory' }, body: MARKED },
      { id: 3, user: { login: 'github-actions[bot]', type: 'Bot' }, body: MARKED },
    ]);
    expect(await post(githubEnv(gh.url))).toBeNull();
    expect(gh.writes).toEqual([{ method: 'PATCH', id: 3 }]);
  });

  it("GitLab: leaves another author's note holding the marker alone", async () => {
    const gl = await forge('gitlab', { login: 'stress-bot', id: 77 }, [{ id: 5, author: { id: 13, username: 'mallory' }, body: MARKED }]);
    expect(await post(gitlabEnv(gl.url))).toBeNull();
    expect(gl.writes).toEqual([{ method: 'POST', id: null }]);
    expect(gl.comments.find((c) => c.id === 5)!.body).toBe(MARKED);
  });
});
