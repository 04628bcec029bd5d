// The `verdict-api admin` commands, in two forms behind one interface: against the database
// directly (the server stopped, for embedded chDB) or against a running server over HTTP with
// the operator's or an account admin's credential, so nothing needs the server stopped.
import { createAccount, setEntitlement } from '../accounts/accounts.js';
import { createAdminCredential } from '../accounts/admin-credentials.js';
import { createProject, getProjectByHandle } from '../accounts/projects.js';
import { createToken, listTokens, revokeToken, type TokenScope } from '../accounts/tokens.js';
import { createViewer, listViewers, revokeViewer } from '../accounts/viewer-credentials.js';
import { VerdictApiError } from '../errors/errors.js';
import { isUuid } from '../identity/uuid.js';
import type { Database } from '../storage/database.js';

/** The administrative actions, each answering what it created or changed. */
export interface AdminActions {
  createAccount(name: string, entitled: boolean): Promise<unknown>;
  entitle(accountId: string, entitled: boolean): Promise<unknown>;
  createAdminCredential(accountId: string, name: string): Promise<unknown>;
  createProject(accountId: string, handle: string, defaultBranch: string | null): Promise<unknown>;
  createToken(handle: string, name: string, scope: TokenScope): Promise<unknown>;
  listTokens(handle: string): Promise<unknown>;
  revokeToken(handle: string, tokenId: string): Promise<unknown>;
  createViewer(handle: string, name: string): Promise<unknown>;
  listViewers(handle: string): Promise<unknown>;
  revokeViewer(handle: string, viewerId: string): Promise<unknown>;
}

/** Who an admin command on the database itself is, in the access audit. */
export const CLI_ACTOR = 'cli';

/** The actions on the database itself. */
export function localAdmin(db: Database): AdminActions {
  const project = async (handle: string) => {
    const p = await getProjectByHandle(db, handle);
    if (!p) throw new VerdictApiError('NOT_FOUND', `no project "${handle}"`);
    return p;
  };
  return {
    createAccount: (name, entitled) => createAccount(db, name, entitled),
    entitle: (accountId, entitled) => setEntitlement(db, accountId, entitled),
    createAdminCredential: (accountId, name) => createAdminCredential(db, accountId, name),
    createProject: async (accountId, handle, defaultBranch) => {
      const p = await createProject(db, { accountId, handle, defaultBranch });
      return { projectId: p.projectId, handle: p.handle, defaultBranch: p.defaultBranch };
    },
    createToken: async (handle, name, scope) => ({ project: handle, ...(await createToken(db, (await project(handle)).projectId, name, scope, CLI_ACTOR)) }),
    listTokens: async (handle) => ({ tokens: await listTokens(db, (await project(handle)).projectId) }),
    revokeToken: async (handle, tokenId) => revokeToken(db, (await project(handle)).projectId, tokenId, CLI_ACTOR),
    createViewer: async (handle, name) => ({ project: handle, ...(await createViewer(db, await project(handle), name, CLI_ACTOR)) }),
    listViewers: async (handle) => ({ viewers: await listViewers(db, (await project(handle)).projectId) }),
    revokeViewer: async (handle, viewerId) => revokeViewer(db, (await project(handle)).projectId, uuidArg(viewerId, 'viewer-id'), CLI_ACTOR),
  };
}

/** The actions over HTTP against `server` with `credential` (operator or account admin). */
export function remoteAdmin(server: string, credential: string, fetchImpl: typeof fetch = fetch): AdminActions {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetchImpl(new URL(path, server.endsWith('/') ? server : `${server}/`), {
      method,
      headers: { Authorization: `Bearer ${credential}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    const json = text ? (JSON.parse(text) as { error?: { code: string; message: string } }) : {};
    if (!res.ok) {
      const code = (json.error?.code ?? 'BAD_REQUEST') as ConstructorParameters<typeof VerdictApiError>[0];
      throw new VerdictApiError(code, `${method} ${path}: ${res.status} ${json.error?.message ?? text}`);
    }
    return json;
  };
  const h = encodeURIComponent;
  return {
    createAccount: (name, entitled) => call('POST', 'api/v1/admin/accounts', { name, entitled }),
    entitle: (accountId, entitled) => call('PUT', `api/v1/admin/accounts/${h(accountId)}/entitlement`, { entitled }),
    createAdminCredential: (accountId, name) => call('POST', `api/v1/admin/accounts/${h(accountId)}/credentials`, { name }),
    createProject: (accountId, handle, defaultBranch) => call('POST', `api/v1/accounts/${h(accountId)}/projects`, { handle, defaultBranch }),
    createToken: async (handle, name, scope) => ({ project: handle, ...((await call('POST', `api/v1/projects/${h(handle)}/tokens`, { name, scope })) as object) }),
    listTokens: (handle) => call('GET', `api/v1/projects/${h(handle)}/tokens`),
    revokeToken: (handle, tokenId) => call('DELETE', `api/v1/projects/${h(handle)}/tokens/${h(tokenId)}`),
    createViewer: (handle, name) => call('POST', `api/v1/projects/${h(handle)}/viewers`, { name }),
    listViewers: (handle) => call('GET', `api/v1/projects/${h(handle)}/viewers`),
    revokeViewer: (handle, viewerId) => call('DELETE', `api/v1/projects/${h(handle)}/viewers/${h(viewerId)}`),
  };
}

/** An id given on the command line: a UUID, or a BAD_REQUEST naming the option. */
function uuidArg(value: string, option: string): string {
  if (!isUuid(value)) throw new VerdictApiError('BAD_REQUEST', `--${option}: must be a UUID such as 0f1e2d3c-…`);
  return value;
}
