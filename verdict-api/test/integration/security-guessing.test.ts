// Attack tests (issue 37, "sign-in limiting can be raced, and API tokens have none"): guesses sent
// at once to the sign-in form and to the API of a real server on a port, on both engines, with
// the database's queries counted; and the right credential of a browser that signed in before,
// while a guesser on its address is locked out.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { silentLogger } from '../../src/log/logger.js';
import { type RunningServer, startServer } from '../../src/server.js';
import { type ClickHouseEngine } from '../../src/storage/engine.js';
import { database } from '../../src/storage/database.js';
import { type ProjectHandle, seedProject } from '../support/api.js';
import { ENGINES, openTestDatabase, type TestDatabase } from '../support/engines.js';
import { purgeExpiredSessions } from '../../src/accounts/sessions.js';

const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((m, s) => ({ ...m, [s]: (m[s] ?? 0) + 1 }), {});

describe.each(ENGINES)('guessing credentials on %s ClickHouse', (kind) => {
  let t: TestDatabase;
  let server: RunningServer;
  let p: ProjectHandle;
  /** Queries the server made (the engine under its database, counted). */
  let queries = 0;
  /** The device cookie of a browser that signed in (the first test's). */
  let device: string | undefined;
  /** Commands (DDL, mutations) the server ran. */
  const commands: string[] = [];

  beforeAll(async () => {
    t = await openTestDatabase(kind);
    p = await seedProject(t.db, `guess-${kind}`);
    const counted: ClickHouseEngine = {
      get kind() {
        return t.db.engine.kind;
      },
      command: (s) => {
        commands.push(s.text);
        return t.db.engine.command(s);
      },
      query: (s) => {
        queries++;
        return t.db.engine.query(s);
      },
      insert: (table, rows) => t.db.engine.insert(table, rows),
      ping: () => t.db.engine.ping(),
      close: async () => undefined,
    };
    server = await startServer(database(counted, t.db.name), silentLogger(), '127.0.0.1', 0);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  const signIn = (credential: string, cookie?: string) =>
    fetch(`${server.url}/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url, ...(cookie ? { cookie } : {}) },
      body: new URLSearchParams({ credential }).toString(),
    });
  const guess = () => `sga_${randomBytes(24).toString('base64url')}`;

  it('judges at most 10 of 200 wrong sign-ins sent at once; a browser that signed in before still signs in', async () => {
    // A browser signs in (and keeps its device cookie), then signs out.
    const first = await signIn(p.admin);
    expect(first.status).toBe(303);
    device = /sg_device=([^;]+)/.exec(first.headers.get('set-cookie') ?? '')?.[1];
    expect(device).toBeDefined();

    const statuses = (await Promise.all(Array.from({ length: 200 }, () => signIn(guess())))).map((r) => r.status);
    process.stdout.write(`${kind}: 200 wrong sign-ins at once: ${JSON.stringify(tally(statuses))}\n`);
    expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(190);

    // The address is locked out, the right credential included, unless the browser signed in here before.
    expect((await signIn(p.admin)).status).toBe(429);
    const known = await signIn(p.admin, `sg_device=${device}`);
    expect(known.status).toBe(303);
    // A forged device cookie counts on the address.
    expect((await signIn(p.admin, `sg_device=${device!.replace(/.$/, (ch) => (ch === 'A' ? 'B' : 'A'))}`)).status).toBe(429);
  });

  it('refuses API token guesses past 50 per address without a database query each, and a token in use keeps working', async () => {
    const verdict = (token: string) =>
      fetch(`${server.url}/api/v1/projects/${p.handle}/verdict`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{"testCases":[]}' });
    // In use before the guessing starts.
    expect((await verdict(p.token)).status).toBe(200);
    const before = queries;
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 200 }, () => verdict(`sg_${randomBytes(32).toString('base64url')}`)));
    // The bucket gives a place back a second: a burst that a loaded machine spreads over seconds gets that many more.
    const refilled = Math.ceil((Date.now() - started) / 1000);
    const statuses = answers.map((r) => r.status);
    const guessQueries = queries - before;
    process.stdout.write(`${kind}: 200 wrong tokens at once: ${JSON.stringify(tally(statuses))}, ${guessQueries} queries, over ${refilled} s\n`);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(50 + refilled);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(150 - refilled);
    expect(answers.find((r) => r.status === 429)!.headers.get('retry-after')).toMatch(/^\d+$/);
    // Two queries a token looked up, none for a guess refused.
    expect(guessQueries).toBeLessThanOrEqual(2 * (50 + refilled));
    expect((await verdict(p.token)).status).toBe(200);
  });

  it('signs out without a table mutation: the session ends at once, and the sweep purges it', async () => {
    const cookies: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await signIn(p.admin, `sg_device=${device}`);
      expect(res.status).toBe(303);
      cookies.push(/sg_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')![1]!);
    }
    const mutationsBefore = commands.filter((c) => /ALTER TABLE/i.test(c)).length;
    for (const cookie of cookies) {
      const page = await fetch(`${server.url}/projects`, { headers: { cookie: `sg_session=${cookie}` } });
      const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1]!;
      const out = await fetch(`${server.url}/sign-out`, { method: 'POST', redirect: 'manual', headers: { cookie: `sg_session=${cookie}`, origin: server.url, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ csrf }).toString() });
      expect(out.status).toBe(303);
      // Ended at once: the next page is a redirect to sign-in.
      expect((await fetch(`${server.url}/projects`, { redirect: 'manual', headers: { cookie: `sg_session=${cookie}` } })).headers.get('location')).toMatch(/^\/sign-in/);
    }
    expect(commands.filter((c) => /ALTER TABLE/i.test(c)).length).toBe(mutationsBefore);
    expect(await purgeExpiredSessions(t.db, new Date(Date.now() + 1_000))).toBeGreaterThanOrEqual(cookies.length);
  });
});
