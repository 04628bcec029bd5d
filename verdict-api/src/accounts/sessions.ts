// Dashboard sessions: signing in with an admin credential or a project's viewer credential opens
// one. The browser holds the session secret in an HttpOnly cookie; the store keeps its SHA-256,
// the credential's id, the session's CSRF token and its expiry. Signing out ends it at once (a
// revoked version) and deletes its rows. What a session may do follows from its credential, read
// on every request: an id among the admin credentials is an admin's session, an id among the
// viewer credentials a viewer's of that one project, anything else (or revoked) no session.
import { randomBytes } from 'node:crypto';
import { dateTime, formatDateTime, sql } from '../sql/bind.js';
import { type Database, num } from '../storage/database.js';
import { nextVersion } from '../storage/version.js';
import { credentialActive } from './admin-credentials.js';
import { hashToken } from './tokens.js';
import { viewerGrantById } from './viewer-credentials.js';

/** How long a session lasts: 12 hours. */
export const SESSION_TTL_MS = 12 * 3600 * 1000;

/** Who signed in: an account's admin, or a viewer of one project (reads only). */
export type SessionRole = { role: 'admin' } | { role: 'viewer'; projectId: string };

/** What signing in grants: the account, the credential and the role it carries. */
export type SessionGrant = { accountId: string; credentialId: string } & SessionRole;

/** A live session. */
export type Session = SessionGrant & {
  csrfToken: string;
  expiresAt: Date;
};

/** What a stored session row holds besides its hash (its role is its credential's, read with it). */
type Stored = Pick<Session, 'accountId' | 'credentialId' | 'csrfToken' | 'expiresAt'>;

/** Opens a session for the credential that signed in; returns its secret (for the cookie) and when it expires. */
export async function openSession(db: Database, grant: Pick<SessionGrant, 'accountId' | 'credentialId'>, now: Date): Promise<{ secret: string; expiresAt: Date }> {
  const secret = randomBytes(32).toString('base64url');
  const stored: Stored = { accountId: grant.accountId, credentialId: grant.credentialId, csrfToken: randomBytes(24).toString('base64url'), expiresAt: new Date(now.getTime() + SESSION_TTL_MS) };
  await write(db, secret, stored, false, now);
  return { secret, expiresAt: stored.expiresAt };
}

/** The live session for a cookie secret, or null (unknown, expired, signed out, credential revoked). The role is the credential's, read now. */
export async function sessionOf(db: Database, secret: string, now: Date): Promise<Session | null> {
  const rows = await db.engine.query<{ account: string; credential: string; csrf_token: string; expires: string; revoked: unknown }>(
    sql`SELECT toString(account_id) AS account, toString(credential_id) AS credential, csrf_token, toString(expires_at) AS expires, revoked
        FROM ${db.t('sessions')} FINAL WHERE session_hash = ${hashToken(secret)}`,
  );
  const r = rows[0];
  if (!r || num(r.revoked) === 1) return null;
  const expiresAt = new Date(`${r.expires.replace(' ', 'T')}Z`);
  if (expiresAt.getTime() <= now.getTime()) return null;
  const role = await roleOf(db, r.credential, r.account);
  if (!role) return null;
  return { accountId: r.account, credentialId: r.credential, ...role, csrfToken: r.csrf_token, expiresAt };
}

/** The role of a session's credential while it is valid: an admin credential's, a viewer credential's (of a project of the same account), or null. */
async function roleOf(db: Database, credentialId: string, accountId: string): Promise<SessionRole | null> {
  const [admin, viewer] = await Promise.all([credentialActive(db, credentialId), viewerGrantById(db, credentialId)]);
  if (admin) return { role: 'admin' };
  if (viewer && viewer.accountId === accountId) return { role: 'viewer', projectId: viewer.projectId };
  return null;
}

/** Ends a session: revoked at once, then its rows deleted. */
export async function endSession(db: Database, secret: string, now: Date): Promise<void> {
  const hash = hashToken(secret);
  // One insert: the revoked version ends the session at once, and, expired as of now, it goes with
  // the sweeper's next purge of expired sessions. A mutation per sign-out (a rewrite of the
  // table's parts) was a cost anyone with a session could multiply.
  await db.engine.insert(db.t('sessions'), [
    { session_hash: hash, account_id: '00000000-0000-0000-0000-000000000000', credential_id: '00000000-0000-0000-0000-000000000000', csrf_token: '', expires_at: formatDateTime(now), revoked: 1, created_at: formatDateTime(now), version: nextVersion() },
  ]);
}

/** Deletes sessions that expired before `now` (the sweeper calls it on every tick); returns how many there were. */
export async function purgeExpiredSessions(db: Database, now: Date): Promise<number> {
  // A mutation rewrites the table's parts: asked for only when there is something to delete.
  const rows = await db.engine.query<{ n: unknown }>(sql`SELECT count() AS n FROM ${db.t('sessions')} WHERE expires_at < ${dateTime(now)}`);
  const expired = num(rows[0]?.n ?? 0);
  if (expired > 0) await db.engine.command(sql`ALTER TABLE ${db.t('sessions')} DELETE WHERE expires_at < ${dateTime(now)}`);
  return expired;
}

async function write(db: Database, secret: string, s: Stored, revoked: boolean, now: Date): Promise<void> {
  await db.engine.insert(db.t('sessions'), [
    {
      session_hash: hashToken(secret),
      account_id: s.accountId,
      credential_id: s.credentialId,
      csrf_token: s.csrfToken,
      expires_at: formatDateTime(s.expiresAt),
      revoked: revoked ? 1 : 0,
      created_at: formatDateTime(now),
      version: nextVersion(),
    },
  ]);
}
