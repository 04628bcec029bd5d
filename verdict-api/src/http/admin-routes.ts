// Administration over HTTP, so nothing needs the server stopped. The operator (the credential in
// STRESS_GATE_OPERATOR_TOKEN) creates and entitles accounts and issues their admin credentials;
// an account's admin credential (or the operator) creates the account's projects and reads its
// storage usage.
import type { Context, Hono } from 'hono';
import * as v from 'valibot';
import { createAccount, getAccount, setEntitlement } from '../accounts/accounts.js';
import { createAdminCredential, listAdminCredentials, revokeAdminCredential } from '../accounts/admin-credentials.js';
import { createProject, HANDLE_RE, listProjectsOfAccount } from '../accounts/projects.js';
import { VerdictApiError } from '../errors/errors.js';
import type { Database } from '../storage/database.js';
import { parseBody } from '../validation/parse-body.js';
import type { AppEnv } from './app-env.js';
import type { BodyCaps } from '../limits/body-caps.js';
import { guessGuard, identify } from './auth.js';
import type { GuessLimiter } from '../limits/guess-limit.js';
import { reachedLimits } from '../limits/storage-quota.js';
import type { StorageQuotas } from '../limits/storage-usage.js';
import { jsonBody, optionalJsonBody, uuidParam } from './json-body.js';

const name = v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(256, 'must be at most 256 characters'));
const AccountCreate = v.object({ name, entitled: v.optional(v.boolean(), false) });
const Entitlement = v.object({ entitled: v.boolean() });
const CredentialCreate = v.object({ name: v.optional(name, 'admin') });
const ProjectCreate = v.object({
  handle: v.pipe(v.string(), v.regex(HANDLE_RE, 'must be 1-64 lowercase letters, digits, ".", "_" or "-"')),
  defaultBranch: v.optional(v.nullable(v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(1024, 'must be at most 1024 characters'))), null),
});

/** Adds /api/v1/admin/accounts… (operator), /api/v1/accounts/:accountId/projects and …/usage (admin or operator). */
export function adminRoutes(app: Hono<AppEnv>, db: Database, operatorToken: string | undefined, ready: () => Promise<void>, caps: BodyCaps, guesses: GuessLimiter, storage: StorageQuotas): void {
  const operator = async (c: Context) => {
    await ready();
    const caller = await identify(db, c.req.header('Authorization'), operatorToken, guessGuard(c, guesses));
    if (caller.kind !== 'operator') throw new VerdictApiError('FORBIDDEN', 'account administration needs the operator credential (STRESS_GATE_OPERATOR_TOKEN)', 'Authorization');
  };
  const account = async (id: string) => {
    const a = await getAccount(db, uuidParam(id, 'accountId'));
    if (!a) throw new VerdictApiError('NOT_FOUND', `no account ${id}`, 'accountId');
    return a;
  };

  app.post('/api/v1/admin/accounts', async (c) => {
    await operator(c);
    const body = parseBody(AccountCreate, await jsonBody(c, caps.small));
    return c.json(await createAccount(db, body.name, body.entitled), 201);
  });
  app.put('/api/v1/admin/accounts/:accountId/entitlement', async (c) => {
    await operator(c);
    const body = parseBody(Entitlement, await jsonBody(c, caps.small));
    return c.json(await setEntitlement(db, (await account(c.req.param('accountId'))).accountId, body.entitled));
  });
  app.post('/api/v1/admin/accounts/:accountId/credentials', async (c) => {
    await operator(c);
    const body = parseBody(CredentialCreate, await optionalJsonBody(c, caps.small));
    return c.json(await createAdminCredential(db, (await account(c.req.param('accountId'))).accountId, body.name), 201);
  });
  app.get('/api/v1/admin/accounts/:accountId/credentials', async (c) => {
    await operator(c);
    return c.json({ credentials: await listAdminCredentials(db, (await account(c.req.param('accountId'))).accountId) });
  });
  app.delete('/api/v1/admin/accounts/:accountId/credentials/:credentialId', async (c) => {
    await operator(c);
    const a = await account(c.req.param('accountId'));
    await revokeAdminCredential(db, a.accountId, uuidParam(c.req.param('credentialId'), 'credentialId'));
    return c.body(null, 204);
  });

  // The account's own admin credential, or the operator: the same 403 for any other account.
  const accountCaller = async (c: Context, id: string) => {
    await ready();
    const caller = await identify(db, c.req.header('Authorization'), operatorToken, guessGuard(c, guesses));
    const accountId = uuidParam(id, 'accountId');
    if (caller.kind === 'operator' || (caller.kind === 'admin' && caller.accountId === accountId)) return accountId;
    throw new VerdictApiError('FORBIDDEN', `this credential does not administer account ${accountId}`, 'Authorization');
  };
  app.post('/api/v1/accounts/:accountId/projects', async (c) => {
    const accountId = await accountCaller(c, c.req.param('accountId'));
    const body = parseBody(ProjectCreate, await jsonBody(c, caps.small));
    const p = await createProject(db, { accountId, handle: body.handle, defaultBranch: body.defaultBranch });
    return c.json({ projectId: p.projectId, accountId: p.accountId, handle: p.handle, defaultBranch: p.defaultBranch }, 201);
  });
  app.get('/api/v1/accounts/:accountId/projects', async (c) => {
    const accountId = await accountCaller(c, c.req.param('accountId'));
    const projects = await listProjectsOfAccount(db, accountId);
    return c.json({ projects: projects.map((p) => ({ projectId: p.projectId, handle: p.handle, defaultBranch: p.defaultBranch })) });
  });
  // What the account stores against its quota (limits 0: none), as the Projects page shows it.
  app.get('/api/v1/accounts/:accountId/usage', async (c) => {
    const accountId = await accountCaller(c, c.req.param('accountId'));
    await account(accountId);
    const usage = await storage.usage(accountId);
    return c.json({ ...usage, quota: storage.quota, reached: reachedLimits(storage.quota, usage) });
  });
}
